"""Pure-Python twin of ``src/mnemonic_step.pxi``: N Mnemonic sessions stepped together.

Same functions, parameters and results as the kernel. Where the kernel restates the rules on its rows, the twin
turns each row into our :class:`~solver.mnemonic.state.MnemonicState` (``solver/mnemonic/rows.py``), runs the
game's own rules (legal actions, ``apply_action``, the new session's ``_begin_scene``) and the adapter's
observation (``fill_public``, ``fill_private``), and turns the state back into a row: so the kernel is checked
against the rules themselves. Chance and the deal take their uniforms exactly as the kernel does (documented
there), with the same floating-point products in the same order.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from solver.mnemonic import openspiel as facts
from solver.mnemonic import rows as R
from solver.mnemonic.cards import DECK_SIZE, SUITS, card_class
from solver.mnemonic.game import MnemonicGame
from solver.mnemonic.parts import Player, Skill
from solver.mnemonic.rules_file import MnemonicRules, default_rules
from solver.mnemonic.state import REVEAL, ROLL, RESULT, RESULTS, MnemonicState
from solver.twins import mnemonic_model as M

MAX_LEGAL, MAX_CHANCE, DEAL_UNIFORMS = 440, 8, 104
N_ACTIONS = 1540
CHANCE_PLAYER, TERMINAL = -1, -4
ROW_ERRORS = ("", "bad phase, focus, round or discard size", "bad skills", "bad cards", "bad scene",
              "bad Group Scene", "a draw from an empty deck")
_REFRESH = ("never", "round", "victory")
_EFFECT = ("unusable", "minus-one-die", "none")


def layout() -> dict[str, int]:
    """The row layout's names and values (``solver/mnemonic/rows.py``)."""
    return dict(R.LAYOUT)


def sizes() -> tuple[int, int, int]:
    """``(MAX_LEGAL, MAX_CHANCE, DEAL_UNIFORMS)``: the widths of the action, chance and deal arrays."""
    return MAX_LEGAL, MAX_CHANCE, DEAL_UNIFORMS


# -- the game and rules a config stands for ---------------------------------------------------------------------
def _check_config(cfg: Any) -> list[int]:
    c = [int(x) for x in cfg]
    if len(c) != R.CONFIG_LEN:
        raise ValueError(f"config: expected {R.CONFIG_LEN} entries")
    if not 1 <= c[M.CFG_PLAYERS] <= R.MAX_PLAYERS or not 1 <= c[R.X_MAX_SKILLS] <= R.MAX_SKILLS \
            or not 0 <= c[R.X_PER_SUIT] <= 2 or 4 * c[R.X_PER_SUIT] > c[R.X_MAX_SKILLS] \
            or c[R.X_RATING_MIN] > c[R.X_RATING_MAX] or not 0 <= c[R.X_HAND_SIZE]:
        raise ValueError("config: bad players, skills, ratings or hand size")
    return c


def rules_of(config: Any) -> MnemonicRules:
    """The rule set of a config (the shipped skill names)."""
    c, yes = [int(x) for x in config], bool
    return default_rules().with_overrides({
        "joker": "wild" if c[M.CFG_JOKER_WILD] else "no-suit", "help.onlyWithoutMatch": yes(c[M.CFG_HELP_ONLY]),
        "help.extraDice": c[M.CFG_HELP_DICE], "help.helperSharesComplication": yes(c[M.CFG_HELPER_SHARES]),
        "learning.allowed": yes(c[M.CFG_LEARN]), "learning.onlyWithoutMatch": yes(c[M.CFG_LEARN_ONLY]),
        "learning.rating": c[R.X_LEARN_RATING], "weaving.perPlayer": c[M.CFG_WEAVINGS],
        "weaving.refresh": _REFRESH[c[M.CFG_REFRESH]], "weaving.avoidCoversHelper": yes(c[M.CFG_AVOID_HELPER]),
        "complications.repairOutsideVictory": "weaving" if c[M.CFG_REPAIR] else "none",
        "injury.scope": "skill" if c[M.CFG_INJURY_SKILL] else "suit", "injury.effect": _EFFECT[c[M.CFG_INJURY_EFFECT]],
        "group.needsComplication": yes(c[M.CFG_NEEDS_COMPLICATION]), "group.nobodyRolls": RESULTS[c[M.CFG_NOBODY]],
        "group.afterDraw": "as-victory" if c[M.CFG_DRAW_AS_VICTORY] else "as-defeat",
        "group.maxAttempts": c[M.CFG_MAX_ATTEMPTS], "scene.passWithoutMatch": yes(c[M.CFG_PASS]),
        "round.rotateFirstPlayer": yes(c[M.CFG_ROTATE]), "deckBurner.handSize": c[R.X_HAND_SIZE],
        "deckBurner.groupDraws": "all-first" if c[M.CFG_DRAWS_FIRST] else "in-turn",
        "intoTheGrey.groupCard": "discard" if c[M.CFG_GREY_CARD] else "none",
        "skills.maxPerCharacter": c[R.X_MAX_SKILLS], "newCharacter.skillsPerSuit": c[R.X_PER_SUIT],
        "newCharacter.ratingMin": c[R.X_RATING_MIN], "newCharacter.ratingMax": c[R.X_RATING_MAX]})


class _ConfigGame(MnemonicGame):
    """Mnemonic with the rule set of a config (rather than of a rules file)."""

    def __init__(self, players: int, mode: str, rules: MnemonicRules) -> None:
        self._rules = rules  # before the base class's checks, which read the rules
        super().__init__(players=players, mode=mode)

    @property
    def rules(self) -> MnemonicRules:
        return self._rules


class Config:
    """A checked config with its game and rules."""

    def __init__(self, cfg: Any) -> None:
        self.c = _check_config(cfg)
        self.k = self.c[M.CFG_PLAYERS]
        self.rules = rules_of(self.c)
        self.game = _ConfigGame(self.k, "into-the-grey" if self.c[M.CFG_GREY] else "deck-burner", self.rules)

    def state(self, row: Any) -> MnemonicState:
        return R.state_of(self.game, np.asarray(row))


# -- checks ----------------------------------------------------------------------------------------------------
def row_error(s: list[int], c: list[int]) -> int:
    """0 when the row is safe to run the rules on, else the number of the first problem found."""
    k = c[M.CFG_PLAYERS]
    if not (0 <= s[R.PHASE] <= M.OVER and 0 <= s[R.FOCUS] < k and 1 <= s[R.ROUND] and 0 <= s[R.NDISCARD] <= DECK_SIZE):
        return 1
    for q in range(k):
        at = R.PLAYER_AT + R.PLAYER_STRIDE * q
        if not (0 <= s[at + R.P_SKILLS] <= c[R.X_MAX_SKILLS] and s[at + R.P_WEAVINGS] >= 0 and s[at + R.P_BONUS] >= 0):
            return 2
        for i in range(s[at + R.P_SKILLS]):
            sk = at + R.P_SKILL + R.SKILL_STRIDE * i
            if not (0 <= s[sk + R.S_SUIT] < 4 and s[sk + R.S_RATING] >= 0):
                return 2
    where = s[R.WHERE:R.WHERE + DECK_SIZE]
    if any(not (0 <= w < k or w in (R.IN_DECK, R.DISCARDED)) for w in where):
        return 3
    if any(where.count(q) != s[R.PLAYER_AT + R.PLAYER_STRIDE * q + R.P_HAND] for q in range(k)) \
            or where.count(R.IN_DECK) != s[R.NDECK] or where.count(R.DISCARDED) != s[R.NDISCARD]:
        return 3
    if any(not (0 <= s[R.DISCARD + i] < DECK_SIZE and 0 <= s[R.DISCARD_BY + i] < k) for i in range(s[R.NDISCARD])):
        return 3
    phase = s[R.PHASE]

    def skills(q: int) -> int:
        return s[R.PLAYER_AT + R.PLAYER_STRIDE * q + R.P_SKILLS]
    if s[R.SC_ACTIVE]:
        if not (0 <= s[R.SC_CARD] < DECK_SIZE and -1 <= s[R.SC_SKILL] < skills(s[R.FOCUS]) and -1 <= s[R.SC_ROLL] <= 6):
            return 4
        if s[R.SC_HELPER] >= 0 and not (s[R.SC_HELPER] < k and -1 <= s[R.SC_HSKILL] < skills(s[R.SC_HELPER])):
            return 4
    elif M.SCENE_SKILL <= phase <= M.SCENE_WEAVE:
        return 4
    if phase == M.SCENE_HELP and (s[R.SC_HELPER] < 0 or s[R.SC_SKILL] < 0):
        return 4
    if phase in (M.SCENE_ROLL, M.SCENE_WEAVE) and s[R.SC_SKILL] < 0 and not s[R.SC_PASSED]:
        return 4
    if s[R.GR_ACTIVE]:
        if not 0 <= s[R.GR_TURN] <= k:
            return 5
        if any(not (-1 <= s[R.GR_CARD + q] < DECK_SIZE and -1 <= s[R.GR_SKILL + q] < skills(q)) for q in range(k)):
            return 5
    elif M.GROUP_DRAW <= phase <= M.GROUP_ROLL:
        return 5
    if phase == M.GROUP_SKILL and s[R.GR_TURN] >= k:
        return 5
    if phase in (M.SCENE_DRAW, M.GROUP_DRAW) and s[R.NDECK] == 0:
        return 6
    return 0


def _checked(states: Any, config: Any) -> tuple[Config, list[list[int]]]:
    cfg = Config(config)
    rows = [[int(x) for x in row] for row in states]
    for i, s in enumerate(rows):
        if len(s) != R.ROW_LEN:
            raise ValueError(f"states: expected rows of {R.ROW_LEN} entries")
        err = row_error(s, cfg.c)
        if err:
            raise ValueError(f"states[{i}]: " + ROW_ERRORS[err])
    return cfg, rows


def _length(got: Any, n: int, names: str) -> None:
    if len(got) != n:
        raise ValueError(f"{names}: expected n entries")


def _check_uniforms(uniforms: Any, n: int, width: int) -> None:
    if len(uniforms) != n or any(len(u) != width for u in uniforms):
        raise ValueError(f"uniforms: expected (n, {width})")
    for i in range(n):
        for j in range(width):
            if not 0.0 <= uniforms[i][j] < 1.0:
                raise ValueError(f"uniforms[{i}, {j}]: expected a number in [0, 1), got {uniforms[i][j]}")


def _store(states: Any, i: int, state: MnemonicState) -> None:
    states[i][:] = R.row_of(state)


# -- dealing ---------------------------------------------------------------------------------------------------
def _shuffle(pile: list[int], u: Any, t: int) -> int:
    for i in range(len(pile) - 1, 0, -1):
        j = int(float(u[t]) * (i + 1))
        t += 1
        pile[i], pile[j] = pile[j], pile[i]
    return t


def deal(states: Any, config: Any, slots: Any, uniforms: Any) -> None:
    """A new session in row ``slots[j]`` of ``states`` for each ``j``, dealt with ``uniforms[j]``."""
    cfg = Config(config)
    if len(states) and len(states[0]) != R.ROW_LEN:
        raise ValueError(f"states: expected rows of {R.ROW_LEN} entries")
    _check_uniforms(uniforms, len(slots), DEAL_UNIFORMS)
    for j, slot in enumerate(slots):
        if not 0 <= slot < len(states):
            raise ValueError(f"slots[{j}]: expected a row of states, got {slot}")
    c, k, names = cfg.c, cfg.k, cfg.rules.skill_names
    for j, slot in enumerate(slots):
        u = uniforms[j]
        t = 0
        roster = []
        for q in range(k):
            skills = []
            for suit, suit_name in enumerate(SUITS):
                for m in range(c[R.X_PER_SUIT]):
                    span = c[R.X_RATING_MAX] - c[R.X_RATING_MIN] + 1
                    skills.append(Skill(names[suit_name][m], suit, c[R.X_RATING_MIN] + int(float(u[t]) * span)))
                    t += 1
            roster.append(Player(f"Player {q + 1}", skills, [], c[M.CFG_WEAVINGS], 0))
        t = 4 * c[R.X_PER_SUIT] * R.MAX_PLAYERS
        if c[M.CFG_GREY]:
            pile = []
            for cls in range(3):
                part = [card for card in range(DECK_SIZE) if card_class(card) == cls]
                t = _shuffle(part, u, t)
                pile += part
            dealt = DECK_SIZE
        else:
            pile = list(range(DECK_SIZE))
            t = _shuffle(pile, u, t)
            dealt = min(c[R.X_HAND_SIZE] * k, DECK_SIZE)
        for i in range(dealt):
            roster[i % k].hand.append(pile[i])
        for player in roster:
            player.hand.sort()
        state = MnemonicState(cfg.game, cfg.rules, cfg.game.params["mode"], roster)
        state.deck = sorted(pile[dealt:])
        state._begin_scene(0)
        _store(states, int(slot), state)


# -- players and actions ---------------------------------------------------------------------------------------
def players(states: Any, config: Any, out: Any) -> None:
    """``out[i]``: the player to act in row ``i`` (-1 at a chance event, -4 once the session is over)."""
    cfg, rows = _checked(states, config)
    _length(out, len(rows), "out")
    for i, s in enumerate(rows):
        out[i] = cfg.state(s).current_player()


def _decisions(state: MnemonicState) -> list[int]:
    return state.legal_actions() if state.current_player() >= 0 else []


def legal_actions(states: Any, config: Any, actions: Any, counts: Any) -> None:
    """``actions[i, :counts[i]]``: row ``i``'s legal actions, ascending (none at a chance event or the end)."""
    cfg, rows = _checked(states, config)
    _length(counts, len(rows), "counts")
    if len(actions) != len(rows) or any(len(a) != MAX_LEGAL for a in actions):
        raise ValueError(f"actions: expected (n, {MAX_LEGAL})")
    for i, s in enumerate(rows):
        listed = _decisions(cfg.state(s))
        counts[i] = len(listed)
        actions[i][:len(listed)] = listed


def random_legal(states: Any, config: Any, uniforms: Any, out: Any) -> None:
    """``out[i]``: the legal action of rank ``floor(uniforms[i] * count)`` of row ``i``, -1 where nobody decides."""
    cfg, rows = _checked(states, config)
    _length(uniforms, len(rows), "uniforms")
    _length(out, len(rows), "out")
    for i, u in enumerate(uniforms):
        if not 0.0 <= u < 1.0:
            raise ValueError(f"uniforms[{i}]: expected a number in [0, 1), got {u}")
    for i, s in enumerate(rows):
        listed = _decisions(cfg.state(s))
        out[i] = listed[int(float(uniforms[i]) * len(listed))] if listed else -1


# -- chance ----------------------------------------------------------------------------------------------------
def _power(base: int, exponent: int) -> float:
    out = 1.0
    for _ in range(exponent):
        out *= base
    return out


def _group_result(state: MnemonicState, u: float) -> int:
    big_n, big_m = sum(state.group_pools()), state.adversary_pool()
    if big_n == 0 and big_m == 0:
        return RESULTS.index(state.rules["group.nobodyRolls"])
    victory = defeat = 0.0
    for v in range(1, 7):
        if big_n > 0:
            victory += (_power(v, big_n) - _power(v - 1, big_n)) * _power(v - 1, big_m)
        if big_m > 0:
            defeat += (_power(v, big_m) - _power(v - 1, big_m)) * _power(v - 1, big_n)
    t = u * _power(6, big_n + big_m)
    if big_n > 0 and t < victory:
        return 0
    if big_m > 0 and (t < victory + defeat or big_n == 0):
        return 1
    if big_n == 0 or big_m == 0:
        return 0 if big_m == 0 else 1
    return 2


def chance_action(state: MnemonicState, u: float) -> int:
    """The outcome (action id) of the chance event of ``state`` for uniform ``u``, by the kernel's rule."""
    if state.phase in ("scene-draw", "group-draw"):
        return REVEAL + state.deck[int(u * len(state.deck))]
    if state.phase == "scene-roll":
        assert state.scene is not None and state.scene.skill is not None
        n = state.dice(state.focus, state.scene.skill, state.scene.helper is not None)
        t, v = u * _power(6, n), 1
        while v < 6 and not t < _power(v, n):
            v += 1
        return ROLL + v
    return RESULT + _group_result(state, u)


def step(states: Any, config: Any, actions: Any, settle: Any, uniforms: Any, players: Any, drawn: Any) -> int:
    """Apply ``actions[i]`` to row ``i`` in place, settle the chance events where ``settle[i]``, write the players
    to act next; -1, or the first row whose action is not legal (nothing applied)."""
    cfg, rows = _checked(states, config)
    n = len(rows)
    _length(actions, n, "actions")
    _length(settle, n, "settle")
    _length(players, n, "players")
    _check_uniforms(uniforms, n, MAX_CHANCE)
    if len(drawn) != n or any(len(d) != MAX_CHANCE for d in drawn):
        raise ValueError(f"drawn: expected (n, {MAX_CHANCE})")
    states_of = [cfg.state(s) for s in rows]
    for i, state in enumerate(states_of):
        if not 0 <= int(actions[i]) < N_ACTIONS or int(actions[i]) not in _decisions(state):
            return i
    for i, state in enumerate(states_of):
        state.apply_action(int(actions[i]))
        outcomes = []
        if settle[i]:
            while state.current_player() == CHANCE_PLAYER and len(outcomes) < MAX_CHANCE:
                outcomes.append(chance_action(state, float(uniforms[i][len(outcomes)])))
                state.apply_action(outcomes[-1])
        drawn[i][:] = outcomes + [-1] * (MAX_CHANCE - len(outcomes))
        players[i] = state.current_player()
        _store(states, i, state)
    return -1


# -- observations ----------------------------------------------------------------------------------------------
def observation_size(config: Any) -> int:
    """The floats of one observation (every piece, the private ``hand`` last)."""
    game = Config(config).game
    return sum(int(np.prod(p.shape)) for p in facts.public_pieces(game) + facts.private_pieces(game))


def observe(states: Any, config: Any, players: Any, out: Any) -> None:
    """``out[i]`` (zeroed): the observation of row ``i`` by ``players[i]`` (``fill_public`` and ``fill_private``)."""
    cfg, rows = _checked(states, config)
    _length(players, len(rows), "players")
    size = observation_size(config)
    if len(out) != len(rows) or any(len(o) != size for o in out):
        raise ValueError(f"out: expected (n, {size})")
    for i, p in enumerate(players):
        if not 0 <= p < cfg.k:
            raise ValueError(f"players[{i}]: expected a player 0..{cfg.k - 1}, got {p}")
    pieces = facts.public_pieces(cfg.game) + facts.private_pieces(cfg.game)
    for i, s in enumerate(rows):
        state = cfg.state(s)
        buffer = np.zeros(size, dtype=np.float32)
        planes, at = {}, 0
        for piece in pieces:
            width = int(np.prod(piece.shape))
            planes[piece.name] = buffer[at:at + width].reshape(piece.shape)
            at += width
        facts.fill_public(cfg.game, state, planes)
        facts.fill_private(cfg.game, state, int(players[i]), planes)
        out[i][:] = buffer
