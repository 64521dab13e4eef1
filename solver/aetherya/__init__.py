"""Aetherya: rules, notation, scoring, optimal kingdoms, hints and puzzles."""
