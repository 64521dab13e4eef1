"""Embers of Memory: cards, Mind geometry, the Prologue and Chapter One, relive plans, hints and puzzles."""
