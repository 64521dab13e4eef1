"""Mnemonic sessions as flat int32 rows: the layout of the step kernel (``src/mnemonic_step.pxi``) and of its twin.

The batched environment (``solver/openspiel/``) keeps N sessions as the rows of one ``(n, ROW_LEN)`` int32 array
and the rules' settings as one ``CONFIG_LEN`` int32 vector; :func:`row_of` and :func:`state_of` convert a row to
and from our :class:`~solver.mnemonic.state.MnemonicState` (a row holds everything the rules and the observation
read; the names of players and skills are those of a new session: ``Player 1``..., the rules file's skill names,
``Learned Hearts 1``...).

A row (``P`` = ``PLAYER_AT + PLAYER_STRIDE * q``: player ``q``'s block; skill ``i`` of player ``q`` at
``P + P_SKILL + SKILL_STRIDE * i``)::

    PHASE     the phase (index into solver.mnemonic.parts.PHASES)    ROUND, FOCUS, ATTEMPTS
    VICTORIES, DEFEATS, DRAWS (the tally)      LAST  the last Group Scene's outcome (-1 none, 0 victory, 1, 2)
    NDISCARD, NDECK                            cards in the discard and in the deck
    SC_ACTIVE, SC_CARD, SC_SKILL, SC_LEARNED, SC_HELPER, SC_HSKILL, SC_ROLL, SC_PASSED   the scene (-1: none)
    GR_ACTIVE, GR_TURN, GR_CARD + q, GR_SKILL + q                                      the Group Scene (-1: none)
    P + P_WEAVINGS, P_BONUS, P_SKILLS (skills held), P_HAND (cards in hand)
    skill + S_SUIT, S_RATING, S_FLAGS (COMPLICATED | INJURED)
    WHERE + card    0..5 in that player's hand, IN_DECK, or DISCARDED
    DISCARD + i, DISCARD_BY + i                the discard in order: card and who played it

The config: the planning model's ``CFG_*`` settings (``solver/twins/mnemonic_model.py``, from
:func:`solver.mnemonic.model.config_of`), then ``X_*``: the most skills a character may hold, the rating of a learned
skill, Deck Burner's hand size, the new characters' ratings and skills per suit.
"""

from __future__ import annotations

import numpy as np

from solver.errors import UnsupportedActionError
from solver.game import Game
from solver.mnemonic.cards import DECK_SIZE, SUITS
from solver.mnemonic.model import config_of
from solver.mnemonic.parts import PHASES, Group, Player, Scene, Skill, Tally
from solver.mnemonic.state import RESULTS, MnemonicState
from solver.twins import mnemonic_model as model

MAX_PLAYERS, MAX_SKILLS = 6, 8
PHASE, ROUND, FOCUS, ATTEMPTS, VICTORIES, DEFEATS, DRAWS, LAST, NDISCARD, NDECK = range(10)
SC_ACTIVE, SC_CARD, SC_SKILL, SC_LEARNED, SC_HELPER, SC_HSKILL, SC_ROLL, SC_PASSED = range(10, 18)
GR_ACTIVE, GR_TURN = 18, 19
GR_CARD = 20
GR_SKILL = GR_CARD + MAX_PLAYERS
PLAYER_AT = GR_SKILL + MAX_PLAYERS
P_WEAVINGS, P_BONUS, P_SKILLS, P_HAND, P_SKILL = range(5)
S_SUIT, S_RATING, S_FLAGS = range(3)
SKILL_STRIDE = 3
PLAYER_STRIDE = P_SKILL + SKILL_STRIDE * MAX_SKILLS
WHERE = PLAYER_AT + PLAYER_STRIDE * MAX_PLAYERS
DISCARD = WHERE + DECK_SIZE
DISCARD_BY = DISCARD + DECK_SIZE
ROW_LEN = DISCARD_BY + DECK_SIZE
IN_DECK, DISCARDED = MAX_PLAYERS, MAX_PLAYERS + 1
COMPLICATED, INJURED = 1, 2
X_MAX_SKILLS, X_LEARN_RATING, X_HAND_SIZE, X_RATING_MIN, X_RATING_MAX, X_PER_SUIT = range(
    model.CONFIG_LENGTH, model.CONFIG_LENGTH + 6)
CONFIG_LEN = model.CONFIG_LENGTH + 6

#: the names above, as the kernel's ``layout()`` lists them (tests/twins/test_mnemonic_step.py compares)
LAYOUT = {name: value for name, value in globals().items()
          if name.isupper() and isinstance(value, int) and name != "DECK_SIZE"}


def config(game: Game) -> np.ndarray:
    """The ``CONFIG_LEN`` int32 settings of ``game``'s rules, players and mode. The kernel deals characters made from
    the rules (``newCharacter.*``): a game with characters entered at a table (``skills``, MN-48) is refused."""
    if game.params.get("skills"):
        raise UnsupportedActionError("game.skills", game.params["skills"], "the batched environment deals characters "
                                     "made from the rules; entered characters are for a session at a real table")
    state = game.new_initial_state(0)
    rules = state.rules
    out = np.zeros(CONFIG_LEN, dtype=np.int32)
    out[:model.CONFIG_LENGTH] = config_of(state, 0, 0, tail=False)
    out[X_MAX_SKILLS] = rules["skills.maxPerCharacter"]
    out[X_LEARN_RATING] = rules["learning.rating"]
    out[X_HAND_SIZE] = rules["deckBurner.handSize"]
    out[X_RATING_MIN] = rules["newCharacter.ratingMin"]
    out[X_RATING_MAX] = rules["newCharacter.ratingMax"]
    out[X_PER_SUIT] = rules["newCharacter.skillsPerSuit"]
    return out


def _or_none(value: int | None) -> int:
    return -1 if value is None else value


def _none_or(value: int) -> int | None:
    return None if value < 0 else int(value)


def row_of(state: MnemonicState) -> np.ndarray:
    """The row of ``state`` (at most 6 players and 8 skills each; the deck's order is not kept: a row's deck is a
    set, as ours is sorted)."""
    s = np.full(ROW_LEN, -1, dtype=np.int32)
    s[PHASE], s[ROUND], s[FOCUS], s[ATTEMPTS] = PHASES.index(state.phase), state.round, state.focus, state.attempts
    s[VICTORIES], s[DEFEATS], s[DRAWS] = state.tally.victories, state.tally.defeats, state.tally.draws
    s[LAST] = -1 if state.last is None else RESULTS.index(state.last)
    s[NDISCARD], s[NDECK] = len(state.discard), len(state.deck)
    scene = state.scene
    s[SC_ACTIVE] = scene is not None
    s[SC_LEARNED] = s[SC_PASSED] = 0
    if scene is not None:
        s[SC_CARD], s[SC_SKILL], s[SC_HELPER] = _or_none(scene.card), _or_none(scene.skill), _or_none(scene.helper)
        s[SC_HSKILL], s[SC_ROLL] = _or_none(scene.helper_skill), _or_none(scene.roll)
        s[SC_LEARNED], s[SC_PASSED] = scene.learned, scene.passed
    group = state.group
    s[GR_ACTIVE] = group is not None
    s[GR_TURN] = group.turn if group is not None else 0
    for q in range(MAX_PLAYERS):
        s[PLAYER_AT + PLAYER_STRIDE * q + P_SKILLS] = s[PLAYER_AT + PLAYER_STRIDE * q + P_HAND] = 0
    for q, player in enumerate(state.players):
        at = PLAYER_AT + PLAYER_STRIDE * q
        s[at + P_WEAVINGS], s[at + P_BONUS] = player.weavings, player.bonus
        s[at + P_SKILLS], s[at + P_HAND] = len(player.skills), len(player.hand)
        for i, skill in enumerate(player.skills):
            k = at + P_SKILL + SKILL_STRIDE * i
            s[k + S_SUIT], s[k + S_RATING] = skill.suit, skill.rating
            s[k + S_FLAGS] = (COMPLICATED if skill.complicated else 0) | (INJURED if skill.injured else 0)
        if group is not None:
            s[GR_CARD + q], s[GR_SKILL + q] = _or_none(group.cards[q]), _or_none(group.skills[q])
        for card in player.hand:
            s[WHERE + card] = q
    for card in state.deck:
        s[WHERE + card] = IN_DECK
    for i, (card, by) in enumerate(state.discard):
        s[WHERE + card], s[DISCARD + i], s[DISCARD_BY + i] = DISCARDED, card, by
    return s


def state_of(game: Game, row: np.ndarray) -> MnemonicState:
    """Our state of a row of ``game`` (its players, mode and rules)."""
    rules, n = game.rules, game.params["players"]
    originals = 4 * rules["newCharacter.skillsPerSuit"]
    s = [int(x) for x in row]
    players = []
    for q in range(n):
        at = PLAYER_AT + PLAYER_STRIDE * q
        hand = [c for c in range(DECK_SIZE) if s[WHERE + c] == q]
        players.append(Player(f"Player {q + 1}", [], hand, s[at + P_WEAVINGS], s[at + P_BONUS]))
    state = MnemonicState(game, rules, game.params["mode"], players)
    for q, player in enumerate(players):
        at = PLAYER_AT + PLAYER_STRIDE * q
        for i in range(s[at + P_SKILLS]):
            k = at + P_SKILL + SKILL_STRIDE * i
            suit = s[k + S_SUIT]
            name = rules.skill_names[SUITS[suit]][i % rules["newCharacter.skillsPerSuit"]] if i < originals \
                else state.learned_name(q, suit)
            player.skills.append(Skill(name, suit, s[k + S_RATING], bool(s[k + S_FLAGS] & COMPLICATED),
                                       bool(s[k + S_FLAGS] & INJURED)))
    state.deck = [c for c in range(DECK_SIZE) if s[WHERE + c] == IN_DECK]
    state.discard = [(s[DISCARD + i], s[DISCARD_BY + i]) for i in range(s[NDISCARD])]
    state.round, state.phase, state.focus, state.attempts = s[ROUND], PHASES[s[PHASE]], s[FOCUS], s[ATTEMPTS]
    state.tally = Tally(s[VICTORIES], s[DEFEATS], s[DRAWS])
    state.last = None if s[LAST] < 0 else RESULTS[s[LAST]]
    if s[SC_ACTIVE]:
        state.scene = Scene(_none_or(s[SC_CARD]), _none_or(s[SC_SKILL]), bool(s[SC_LEARNED]), _none_or(s[SC_HELPER]),
                            _none_or(s[SC_HSKILL]), _none_or(s[SC_ROLL]), bool(s[SC_PASSED]))
    if s[GR_ACTIVE]:
        state.group = Group(s[GR_TURN], [_none_or(s[GR_CARD + q]) for q in range(n)],
                            [_none_or(s[GR_SKILL + q]) for q in range(n)])
    return state
