"""Mnemonic (Into the Grey and Deck Burner): exact odds, session tracking and advice."""
