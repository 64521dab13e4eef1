# cython: language_level=3
"""The layout of the packed Aetherya state (int32, ``LENGTH`` entries) the playout kernel plays on; documented in
``solver/twins/aetherya_play.py`` and written by ``solver.aetherya.playout.pack``."""

cdef enum:
    MODE = 0
    PLAYERS = 1
    TO_MOVE = 2
    TURN = 3
    AGE = 4
    AGE_SUM = 5
    WROTE = 6
    LD_POINTS = 7
    P_ROW_TARGET = 8
    FAILED = 9
    P_PILE = 10
    HID = 20
    P_HELD = 24
    ACC = 28
    STF = 32
    CARDS = 40
    PHASE = 104               # 0: a turn starts; else the turn of TO_MOVE is under way (base and co-op):
    HOLD = 105                # PHASE_DRAW a card is to be drawn and played, PHASE_PLACE the card HOLD is to be
    HOLD_FROM = 106           # played (HOLD_FROM 0: taken from a discard pile, 1: drawn), PHASE_END the end of
    PHASE_START = 0           # the turn is left
    PHASE_DRAW = 1
    PHASE_PLACE = 2
    PHASE_END = 3
    P_ROW = 110
    P_DECK = 130
    P_SROW = 150
    WRIT = 170
    DLEN = 190
    P_DISC = 200
    P_DISC_CAP = 80
    LENGTH = 360
    P_BASE = 0
    P_OBJECTS = 1
    P_COOP = 2
    P_SOLO = 3
    MAX_TURNS = 3000
    RING_MASK = 0xF99F
    NEG = -1073741824
    P_BIG = 99
