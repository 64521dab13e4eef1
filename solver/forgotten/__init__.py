"""Forgotten: a cooperative memory game about linking two Brain Tiles before Lacuna erases the memories.

Rules: ``docs/rules/forgotten.md``; formats: ``docs/formats/forgotten.md``.
"""
