"""A tiny game used only by the protocol tests: a pile of counters, take 1 or 2, last to take wins.

It is laid out as every game is (``docs/architecture.md``): ``game.py`` for the rules and one module per
capability (hints, solve, puzzles, self-play, picture, text, commands), so that registering it (one line)
gives it every shared verb, the engine, the web API and the OpenSpiel loader with nothing else touched.
"""
