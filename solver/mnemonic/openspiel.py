"""Mnemonic for OpenSpiel and the batched environment: action ids, returns, observation tensor.

Everything at the table is public (MN-32) except the cards in the hands and the deck: a player
sees their own hand, and everybody sees how many cards each hand and the deck hold and, in Into
the Grey, how many face, number and joker cards each hand holds (the deal gives them out in that
order and every card played is public, MN-9). So the public pieces are the session, the
characters, the discard, the scene and the Group Scene; a player's private piece is their hand.
``n`` is the number of players, ``S`` the most skills a character may hold (the rules' setting
``skills.maxPerCharacter``). Layout (``docs/openspiel.md``):

=====================  ============  ===========================================================
piece                  shape         meaning
=====================  ============  ===========================================================
``phase``              14            the phase (``solver/mnemonic/parts.py`` ``PHASES``)
``to_move``            n + 1         who acts (the last entry: a chance event, or the end)
``first``, ``focus``   n, n          the round's first player; the player whose scene it is
``round``              1             round / 10
``attempts``           1             Group Scenes since the last round / 10
``tally``              3             victories, defeats, draws / 10
``last``               4             the last Group Scene's outcome: none, victory, defeat, draw
``skills``             n x S x 8     per skill: held, suit (4), rating / 6, complicated, injured
``weavings``           n             weavings left
``bonus``              n             extra dice waiting
``hand_size``          n             cards in hand / 10
``classes``            n x 3         Into the Grey: face, number and joker cards in hand / 10
``deck_size``          1             cards in the deck / 54
``adversary``          1             the Adversary's dice (complications) / 10
``discard``            54 x (n + 1)  per card in the discard: who played it, and its place / 54
``scene_*``                          the scene: ``card`` 55 (54: none), ``skill`` S + 1, ``learned``,
                                     ``helper`` n + 1, ``helper_skill`` S + 1, ``roll`` 8 (none,
                                     0..6), ``passed``, ``active``
``group_*``                          the Group Scene: ``active``, ``turn`` n + 1, ``cards`` n x 55,
                                     ``skills`` n x (S + 1) (the last entries: none)
``hand``               54            private: the player's own cards
=====================  ============  ===========================================================
"""

from __future__ import annotations

import numpy as np

from solver.game import Game, State
from solver.kernels import mnemonic as kernel
from solver.learning import ActionCodec, KernelRules, Piece, mark_listed
from solver.mnemonic import rows
from solver.mnemonic.cards import DECK_SIZE, card_class
from solver.mnemonic.parts import PHASES
from solver.mnemonic.state import DEAL, GROUP_CARD, RESULTS

MAX_MOVES = 1000
SCALE = 10.0
NO_CARD = DECK_SIZE


def num_players(game: Game) -> int:
    return game.params["players"]


def codec(game: Game) -> ActionCodec:
    """``1000 + 10 card + skill`` is the largest decision id (skills per character are at most 8 < 10); chance ends
    with ``result draw`` (702), or the deal's ``800 + card``."""
    return ActionCodec(GROUP_CARD + 10 * DECK_SIZE, DEAL + DECK_SIZE)


def utility_range(game: Game) -> tuple[float, float]:
    """1 for everybody when the session had a Victory, else 0 (MN-31)."""
    return (0.0, 1.0)


def chance_steps(game: Game, decisions: int) -> int:
    """``new_initial_state`` deals; then a scene's decision is followed by at most one draw or roll, and a Group
    Scene's first decision by at most a draw per player (Deck Burner) and the result."""
    return decisions * (num_players(game) + 1)


def _skills(game: Game) -> int:
    return int(game.rules["skills.maxPerCharacter"])


# -- the observation tensor -----------------------------------------------------------------------------------
def public_pieces(game: Game) -> list[Piece]:
    n, s = num_players(game), _skills(game)
    return [Piece("phase", (len(PHASES),)), Piece("to_move", (n + 1,)), Piece("first", (n,)), Piece("focus", (n,)),
            Piece("round", (1,)), Piece("attempts", (1,)), Piece("tally", (3,)), Piece("last", (1 + len(RESULTS),)),
            Piece("skills", (n, s, 8)), Piece("weavings", (n,)), Piece("bonus", (n,)), Piece("hand_size", (n,)),
            Piece("classes", (n, 3)), Piece("deck_size", (1,)), Piece("adversary", (1,)),
            Piece("discard", (DECK_SIZE, n + 1)),
            Piece("scene_card", (DECK_SIZE + 1,)), Piece("scene_skill", (s + 1,)), Piece("scene_learned", (1,)),
            Piece("scene_helper", (n + 1,)), Piece("scene_helper_skill", (s + 1,)), Piece("scene_roll", (8,)),
            Piece("scene_passed", (1,)), Piece("scene_active", (1,)),
            Piece("group_active", (1,)), Piece("group_turn", (n + 1,)), Piece("group_cards", (n, DECK_SIZE + 1)),
            Piece("group_skills", (n, s + 1))]


def private_pieces(game: Game) -> list[Piece]:
    return [Piece("hand", (DECK_SIZE,))]


def _index(value: int | None, none: int) -> int:
    return none if value is None else value


def fill_public(game: Game, state: State, planes: dict[str, np.ndarray]) -> None:
    n, s = num_players(game), _skills(game)
    planes["phase"][PHASES.index(state.phase)] = 1
    actor = state.current_player()
    planes["to_move"][actor if actor >= 0 else n] = 1
    planes["first"][state.first] = 1
    planes["focus"][state.focus] = 1
    planes["round"][0] = state.round / SCALE
    planes["attempts"][0] = state.attempts / SCALE
    tally = state.tally
    planes["tally"][:] = (tally.victories / SCALE, tally.defeats / SCALE, tally.draws / SCALE)
    planes["last"][0 if state.last is None else 1 + RESULTS.index(state.last)] = 1
    grey = state.mode == "into-the-grey"
    for q, player in enumerate(state.players):
        for i, skill in enumerate(player.skills):
            row = planes["skills"][q, i]
            row[0] = 1
            row[1 + skill.suit] = 1
            row[5] = skill.rating / 6.0
            row[6] = skill.complicated
            row[7] = skill.injured
        planes["weavings"][q] = player.weavings
        planes["bonus"][q] = player.bonus
        planes["hand_size"][q] = len(player.hand) / SCALE
        if grey:
            for card in player.hand:
                planes["classes"][q, card_class(card)] += 1 / SCALE
    planes["deck_size"][0] = len(state.deck) / DECK_SIZE
    planes["adversary"][0] = state.adversary_pool() / SCALE
    discard = planes["discard"]
    for place, (card, by) in enumerate(state.discard):
        discard[card, by] = 1
        discard[card, n] = (place + 1) / DECK_SIZE
    scene = state.scene
    if scene is not None:
        planes["scene_active"][0] = 1
        planes["scene_card"][_index(scene.card, NO_CARD)] = 1
        planes["scene_skill"][_index(scene.skill, s)] = 1
        planes["scene_learned"][0] = scene.learned
        planes["scene_helper"][_index(scene.helper, n)] = 1
        planes["scene_helper_skill"][_index(scene.helper_skill, s)] = 1
        planes["scene_roll"][0 if scene.roll is None else 1 + scene.roll] = 1
        planes["scene_passed"][0] = scene.passed
    group = state.group
    if group is not None:
        planes["group_active"][0] = 1
        planes["group_turn"][min(group.turn, n)] = 1
        for q in range(n):
            planes["group_cards"][q, _index(group.cards[q], NO_CARD)] = 1
            planes["group_skills"][q, _index(group.skills[q], s)] = 1


def fill_private(game: Game, state: State, player: int, planes: dict[str, np.ndarray]) -> None:
    hand = planes["hand"]
    for card in state.players[player].hand:
        hand[card] = 1


# -- the batched environment: N rows stepped by the step kernel ------------------------------------------------
MAX_LEGAL, MAX_CHANCE, DEAL_UNIFORMS = kernel.sizes()


class MnemonicBatch(KernelRules):
    """N Mnemonic sessions as rows of the step kernel (``src/mnemonic_step.pxi``, layout in
    ``solver/mnemonic/rows.py``) for the batched environment (``solver/openspiel/batched.py``): deals, random legal
    actions, checked steps with their chance events (draws, rolls, Group Scene results, each from one uniform of
    the environment's generator), legal masks and observation tensors are one kernel call each for all rows."""

    def __init__(self, game: Game, n: int) -> None:
        self.game = game
        super().__init__(kernel, rows.config(game), np.zeros((n, rows.ROW_LEN), dtype=np.int32))
        self.drawn = np.zeros((n, MAX_CHANCE), dtype=np.int32)
        self.size = kernel.observation_size(self.rule_data)
        spans, at = [], 0
        for piece in public_pieces(game) + private_pieces(game):
            spans.append((piece.name, at, at + piece.size, piece.shape))
            at += piece.size
        assert at == self.size, "the step kernel's observation pieces are not those of public_pieces/private_pieces"
        self.spans = spans

    def deal(self, slots: np.ndarray, seeds: np.ndarray, rng: np.random.Generator) -> None:
        """New sessions (``new_initial_state``'s characters and deal, drawn from ``rng``: the same distribution)."""
        slots = np.asarray(slots, dtype=np.int64)
        kernel.deal(self.states, self.rule_data, slots, rng.random((len(slots), DEAL_UNIFORMS)))
        dealt = np.zeros(len(slots), dtype=np.int32)
        kernel.players(self.states[slots], self.rule_data, dealt)
        self.to_act[slots] = dealt

    def legal_mask(self, out: np.ndarray) -> None:
        n = len(self.states)
        actions, counts = np.zeros((n, MAX_LEGAL), dtype=np.int32), np.zeros(n, dtype=np.int32)
        kernel.legal_actions(self.states, self.rule_data, actions, counts)
        mark_listed(out, actions, counts)

    def apply_checked(self, actions: np.ndarray, settle: np.ndarray, rng: np.random.Generator,
                      drawn: list[list[int]] | None) -> int:
        """Check and apply every slot's action and settle its chance events in one kernel call: -1, or the first
        illegal slot (nothing applied)."""
        n = len(self.states)
        bad = kernel.step(self.states, self.rule_data, np.ascontiguousarray(actions, dtype=np.int32),
                          np.ascontiguousarray(settle, dtype=np.uint8), rng.random((n, MAX_CHANCE)), self.to_act,
                          self.drawn)
        if bad < 0:
            self.record_drawn(self.drawn, drawn)
        return bad

    def returns(self) -> np.ndarray:
        """1 for everybody where the session had a Victory (MN-31)."""
        won = (self.states[:, rows.VICTORIES] > 0).astype(np.float64)
        return np.repeat(won[:, None], num_players(self.game), axis=1)

    def observe(self, players: np.ndarray, planes: dict[str, np.ndarray]) -> None:
        n = len(self.states)
        out = np.zeros((n, self.size), dtype=np.float32)
        kernel.observe(self.states, self.rule_data, np.ascontiguousarray(players, dtype=np.int32), out)
        for name, a, b, shape in self.spans:
            planes[name][:] = out[:, a:b].reshape(n, *shape)

    def state(self, slot: int) -> State:
        return rows.state_of(self.game, self.states[slot])


def batch_rules(game: Game, n: int, redeal: bool = True) -> MnemonicBatch:
    """The batched environment's rules (a new session always waits for a decision: ``redeal`` has nothing to do)."""
    return MnemonicBatch(game, n)
