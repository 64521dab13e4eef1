"""A Mnemonic session (Into the Grey or Deck Burner) as a :class:`solver.game.State`.

The state follows the Basics of Play round by round: Individual Scenes (card,
skill, optional help, roll, optional weaving), then the table's choice
(Group Scene, another round, end), Group Scenes (stakes, plan, roll, Victory /
Defeat / Draw) and the choices after them. Every rule and every interpretation
is listed in ``docs/rules/mnemonic.md`` (ids ``MN-*``); what the excerpt does
not define comes from the rules file (:mod:`solver.mnemonic.rules_file`).

Chance nodes: a card drawn from the deck (uniform over the cards left, the
deck being an unordered pile, MN-11), an Individual Scene roll (the highest
die, 1-6) and a Group Scene result (Victory, Defeat or Draw, with the exact
odds of :mod:`solver.mnemonic.odds`).

Action ids (interpreted in the state's phase):

====================  ====================================================
``0..53``             ``play <card>`` from hand
``60``                ``draw`` from the deck
``100 + s``           ``use "<skill>"`` / ``help with "<skill>"`` / ``group use "<skill>"``
``1000 + 10 card + s``  ``group use "<skill>" with <card>`` (Into the Grey, a card discarded from hand)
``150 + suit``        ``learn <suit>``
``160``               ``pass`` (a scene without a roll, MN-17)
``200 + 10 q + s``    ``use "<skill>" helped by <q>``
``300`` ``301``       ``no weave``, ``weave avoid``
``310 + q``           ``weave give <q>``
``320 + s``           ``weave repair "<skill>"``
``400..405``          ``group``, ``round``, ``end``, ``try again``, ``regroup``, ``retreat``
``500 + card``        chance: ``reveal <card>``
``600 + v``           chance: ``roll <v>`` (highest die)
``700..702``          chance: ``result victory`` / ``result defeat`` / ``result draw``
``800 + card``        chance: ``draw <card>`` (the deal, one card at a time, MN-42)
====================  ====================================================

A player's view (:mod:`solver.mnemonic.view`) adds two entries of its own:
``draw ?`` (a card dealt to another player) and ``group nothing`` (another
player brings no skill to an Into the Grey Group Scene).
"""

from __future__ import annotations

import re
from fractions import Fraction
from numbers import Integral
from typing import TYPE_CHECKING, Any

from solver.errors import IllegalMoveError, InvalidMoveError
from solver.game import CHANCE_PLAYER, TERMINAL_PLAYER, State
from solver.lazynp import np
from solver.mnemonic.cards import DECK_SIZE, JOKER, SUITS, card_class, card_code, category, grey_class_dealt
from solver.mnemonic.cards import grey_deal_classes  # noqa: F401  (tests/twins import it from here)
from solver.mnemonic.notation import state_to_json, state_to_notation
from solver.mnemonic.odds import GroupOdds, group_odds, highest_distribution
from solver.mnemonic.parts import Group, Player, Scene, Skill, Tally, matches
from solver.mnemonic.rules_file import MnemonicRules

if TYPE_CHECKING:
    from solver.mnemonic.game import MnemonicGame
    from solver.mnemonic.view import MnemonicView

PLAY, DRAW = 0, 60
USE, LEARN, PASS = 100, 150, 160
ASK = 200
NO_WEAVE, WEAVE_AVOID, WEAVE_GIVE, WEAVE_REPAIR = 300, 301, 310, 320
GROUP, ROUND, END, TRY_AGAIN, REGROUP, RETREAT = 400, 401, 402, 403, 404, 405
REVEAL, ROLL, RESULT = 500, 600, 700
DEAL = 800
GROUP_CARD = 1000
TABLE_WORDS = {GROUP: "group", ROUND: "round", END: "end", TRY_AGAIN: "try again", REGROUP: "regroup",
               RETREAT: "retreat"}
RESULTS = ("victory", "defeat", "draw")
CHANCE_PHASES = ("scene-draw", "scene-roll", "group-draw", "group-roll", "deal")
class MnemonicState(State):
    """One moment of a Mnemonic session; mutable (``apply_action`` changes it in place)."""

    game: MnemonicGame

    def __init__(self, game: MnemonicGame, rules: MnemonicRules, mode: str, players: list[Player]) -> None:
        super().__init__(game)
        self.rules = rules
        self.mode = mode
        self.players = players
        self.deck: list[int] = []
        self.discard: list[tuple[int, int]] = []
        self.round = 1
        self.phase = "scene-card"
        self.focus = 0
        self.attempts = 0
        self.scene: Scene | None = None
        self.group: Group | None = None
        self.tally = Tally()
        self.last: str | None = None

    # -- derived facts --------------------------------------------------------------
    @property
    def n(self) -> int:
        """Number of players."""
        return len(self.players)

    @property
    def first(self) -> int:
        """The round's first player, who also speaks for the table (MN-12, MN-21)."""
        return (self.round - 1) % self.n if self.rules["round.rotateFirstPlayer"] else 0

    def order(self) -> list[int]:
        """The table order this round, starting with the first player."""
        return [(self.first + i) % self.n for i in range(self.n)]

    def usable(self, skill: Skill) -> bool:
        """A skill is available unless complicated, or injured while injuries make skills unusable (MN-14)."""
        return not skill.complicated and not (skill.injured and self.rules["injury.effect"] == "unusable")

    def available(self, player: int) -> list[int]:
        """Indices of the player's available skills."""
        return [i for i, s in enumerate(self.players[player].skills) if self.usable(s)]

    def matching(self, player: int, cat: int) -> list[int]:
        """Available skills of the player matching a card of category ``cat``."""
        joker = self.rules["joker"]
        return [i for i in self.available(player) if matches(self.players[player].skills[i], cat, joker)]

    def adversary_pool(self) -> int:
        """One Adversary die per complication on anyone's skills (MN-22)."""
        return sum(p.complications for p in self.players)

    def dice(self, player: int, skill: int, helped: bool = False) -> int:
        """Dice rolled with a skill: rating, help dice, pending extra dice, injury penalty (MN-18)."""
        s = self.players[player].skills[skill]
        n = s.rating + self.players[player].bonus + (self.rules["help.extraDice"] if helped else 0)
        if s.injured and self.rules["injury.effect"] == "minus-one-die":
            n -= 1
        return max(0, n)

    def can_play_scene(self, player: int) -> bool:
        """A player leads a scene when they hold a card or can draw one (MN-13)."""
        return bool(self.players[player].hand) or bool(self.deck)

    def round_feasible(self) -> bool:
        """A new round needs a card for every player: empty hands at most the deck size (MN-21)."""
        return sum(1 for p in self.players if not p.hand) <= len(self.deck)

    def group_feasible(self) -> bool:
        """A Group Scene needs complications at stake (MN-39) and, in Deck Burner, a card per player (MN-23)."""
        if self.rules["group.needsComplication"] and self.adversary_pool() == 0:
            return False
        return self.mode == "into-the-grey" or len(self.deck) >= self.n

    def try_again_allowed(self) -> bool:
        """Try Again has no cap in the rulebook: it is offered while some player can bring a skill (else nothing
        could change); ``group.maxAttempts`` > 0 caps the Group Scenes between two rounds instead (MN-28)."""
        cap = self.rules["group.maxAttempts"]
        return self.someone_can_bring() if cap == 0 else self.attempts < cap

    def someone_can_bring(self) -> bool:
        """Some player could bring a skill to a Group Scene: an available skill (Into the Grey with group cards:
        and a card of its suit in hand, MN-41)."""
        if self.grey_cards():
            return any(self.matching(q, category(c)) for q in range(self.n) for c in self.players[q].hand)
        return any(self.available(q) for q in range(self.n))

    def deal_size(self) -> int:
        """Cards dealt before the first scene: the whole deck in Into the Grey (MN-9), ``deckBurner.handSize``
        a player in Deck Burner (MN-10)."""
        return DECK_SIZE if self.mode == "into-the-grey" else self.rules["deckBurner.handSize"] * self.n

    def deal_step(self) -> int:
        """During the deal: how many cards have been dealt (they are all still in the hands)."""
        return sum(len(p.hand) for p in self.players)

    def deal_recipient(self) -> int:
        """During the deal: who receives the next card (card ``i`` goes to player ``i mod n``, MN-42)."""
        return self.deal_step() % self.n

    def deal_class(self) -> int | None:
        """During Into the Grey's deal: the class of the next card (face cards first, then numbers, then jokers)."""
        return grey_class_dealt(self.deal_step()) if self.mode == "into-the-grey" else None

    def cards_in_play(self) -> list[int]:
        """Every card the state holds: hands, deck and discard (must be the 54, once each)."""
        return [c for p in self.players for c in p.hand] + list(self.deck) + [c for c, _ in self.discard]

    # -- the contract -----------------------------------------------------------------
    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL_PLAYER
        if self.phase in CHANCE_PHASES:
            return CHANCE_PLAYER
        if self.phase in ("scene-card", "scene-skill", "scene-weave"):
            return self.focus
        if self.phase == "scene-help":
            assert self.scene is not None and self.scene.helper is not None
            return self.scene.helper
        if self.phase == "group-skill":
            assert self.group is not None
            return self.order()[self.group.turn]
        return self.first

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def returns(self) -> list[float]:
        """Identical utility: 1 for everyone when the session had a Victory, else 0 (MN-31)."""
        won = 1.0 if self.tally.victories > 0 else 0.0
        return [won] * self.n

    def legal_actions(self) -> list[int]:
        if self.phase == "over":
            return []
        if self.phase in CHANCE_PHASES:
            return sorted(a for a, _ in self.chance_outcomes_exact())
        return sorted(getattr(self, "_moves_" + self.phase.replace("-", "_"))())

    def _moves_scene_card(self) -> list[int]:
        moves = [PLAY + c for c in self.players[self.focus].hand]
        if self.deck:
            moves.append(DRAW)
        return moves

    def _moves_scene_skill(self) -> list[int]:
        assert self.scene is not None and self.scene.card is not None
        p, cat = self.focus, category(self.scene.card)
        player = self.players[p]
        matching = self.matching(p, cat)
        moves = [USE + s for s in matching]
        if (self.rules["learning.allowed"] and len(player.skills) < self.rules["skills.maxPerCharacter"]
                and not (self.rules["learning.onlyWithoutMatch"] and matching)):
            suits = [cat] if cat != JOKER else (list(range(4)) if self.rules["joker"] == "wild" else [])
            moves += [LEARN + suit for suit in suits]
        if not (self.rules["help.onlyWithoutMatch"] and matching):
            helpers = [q for q in range(self.n) if q != p and self.available(q)]
            moves += [ASK + 10 * q + s for q in helpers for s in self.available(p)]
        if not moves or (not matching and self.rules["scene.passWithoutMatch"]):
            moves.append(PASS)  # MN-17: asking and learning are optional, and a helper may decline
        return moves

    def _moves_scene_help(self) -> list[int]:
        assert self.scene is not None and self.scene.helper is not None
        return [USE + s for s in self.available(self.scene.helper)]

    def _moves_scene_weave(self) -> list[int]:
        assert self.scene is not None
        p = self.focus
        moves = [NO_WEAVE] + [WEAVE_GIVE + q for q in range(self.n) if q != p]
        if self.scene.failed:
            moves.append(WEAVE_AVOID)
        if self.rules["complications.repairOutsideVictory"] == "weaving":
            moves += [WEAVE_REPAIR + i for i, s in enumerate(self.players[p].skills) if s.complicated]
        return moves

    def _moves_table(self) -> list[int]:
        moves = [END]
        if self.group_feasible():
            moves.append(GROUP)
        if self.round_feasible():
            moves.append(ROUND)
        return moves

    def _moves_after_victory(self) -> list[int]:
        return [END, ROUND] if self.round_feasible() else [END]

    def _moves_after_defeat(self) -> list[int]:
        moves = [RETREAT]
        if self.try_again_allowed() and self.group_feasible():
            moves.append(TRY_AGAIN)
        if self.round_feasible():
            moves.append(REGROUP)
        return moves

    def _moves_group_skill(self) -> list[int]:
        return self._group_moves(self.order()[self.group.turn])  # type: ignore[union-attr]

    def grey_cards(self) -> bool:
        """Into the Grey Group Scenes cost a card of the skill's suit from hand (rule intoTheGrey.groupCard)."""
        return self.mode == "into-the-grey" and self.rules["intoTheGrey.groupCard"] == "discard"

    def draws_first(self) -> bool:
        """Deck Burner: everyone draws before anyone chooses (rule deckBurner.groupDraws, MN-23)."""
        return self.mode == "deck-burner" and self.rules["deckBurner.groupDraws"] == "all-first"

    def _group_moves(self, player: int) -> list[int]:
        """The moves bringing a skill to the Group Scene (MN-23): a matching skill of the drawn card (Deck
        Burner), a skill with a card of its suit from hand (Into the Grey, ``discard``) or any available skill."""
        if self.grey_cards():
            return [GROUP_CARD + 10 * c + s for c in sorted(self.players[player].hand)
                    for s in self.matching(player, category(c))]
        return [USE + s for s in self._group_options(player)]

    def _group_options(self, player: int) -> list[int]:
        """Skills a player may bring to the Group Scene (MN-23)."""
        if self.mode == "deck-burner":
            card = self.group.cards[player]  # type: ignore[union-attr]
            return [] if card is None else self.matching(player, category(card))
        if self.grey_cards():
            return sorted({s for c in self.players[player].hand for s in self.matching(player, category(c))})
        return self.available(player)

    # -- chance -------------------------------------------------------------------------
    def chance_outcomes_exact(self) -> list[tuple[int, Fraction]]:
        """``[(action, exact probability)]`` at a chance node."""
        if self.phase in ("scene-draw", "group-draw"):
            share = Fraction(1, len(self.deck))
            return [(REVEAL + c, share) for c in self.deck]
        if self.phase == "deal":
            cls = self.deal_class()
            cards = [c for c in self.deck if cls is None or card_class(c) == cls]
            return [(DEAL + c, Fraction(1, len(cards))) for c in cards]
        if self.phase == "scene-roll":
            assert self.scene is not None and self.scene.skill is not None
            n = self.dice(self.focus, self.scene.skill, self.scene.helper is not None)
            return [(ROLL + v, p) for v, p in enumerate(highest_distribution(n)) if p > 0]
        if self.phase == "group-roll":
            odds = self.group_odds()
            return [(RESULT + i, odds.get(name)) for i, name in enumerate(RESULTS) if odds.get(name) > 0]
        return []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            return super().chance_outcomes()
        return [(a, float(p)) for a, p in self.chance_outcomes_exact()]

    def group_pools(self) -> list[int]:
        """Each player's dice in the Group Scene being planned (0 for a player contributing nothing)."""
        assert self.group is not None
        return [0 if s is None else self.dice(q, s) for q, s in enumerate(self.group.skills)]

    def group_odds(self) -> GroupOdds:
        """Exact odds of the planned Group Scene (MN-3..MN-6)."""
        return group_odds(self.group_pools(), self.adversary_pool(), self.rules["group.nobodyRolls"])

    # -- applying -------------------------------------------------------------------------
    def apply_action(self, action: int) -> None:
        if isinstance(action, bool) or not isinstance(action, Integral):
            raise InvalidMoveError("action", action, "expected an integer action id")
        action = int(action)
        if action not in self.legal_actions():
            raise IllegalMoveError("action", action, f"not legal in phase {self.phase} of {self.to_notation()!r}")
        if self.phase == "scene-card":
            self._play_card(action)
        elif self.phase == "deal":
            self._deal(action - DEAL)
        elif self.phase in ("scene-draw", "group-draw"):
            self._reveal(action - REVEAL)
        elif self.phase == "scene-skill":
            self._choose_skill(action)
        elif self.phase == "scene-help":
            assert self.scene is not None
            self.scene.helper_skill = action - USE
            self._to_roll()
        elif self.phase == "scene-roll":
            self._roll(action - ROLL)
        elif self.phase == "scene-weave":
            self._finish_scene(action)
        elif self.phase == "group-skill":
            self._group_choice(action)
        elif self.phase == "group-roll":
            self._resolve_group(RESULTS[action - RESULT])
        else:
            self._table(action)

    def _deal(self, card: int) -> None:
        """One card of the deal to the next player; the first scene starts when the deal is complete (MN-42)."""
        recipient = self.deal_recipient()
        self.deck.remove(card)
        self.players[recipient].hand.append(card)
        self.players[recipient].hand.sort()
        self._after_deal_card()

    def _after_deal_card(self) -> None:
        if self.deal_step() >= self.deal_size():
            self._begin_scene(0)

    def _play_card(self, action: int) -> None:
        if action == DRAW:
            self.phase = "scene-draw"
            return
        self.players[self.focus].hand.remove(action)
        self._card_played(action)

    def _reveal(self, card: int) -> None:
        self.deck.remove(card)
        if self.phase == "scene-draw":
            self._card_played(card)
        else:
            assert self.group is not None
            player = self.drawer()
            self.group.cards[player] = card
            self.discard.append((card, player))
            self._advance_group()

    def drawer(self) -> int:
        """Who draws at a Group Scene's draw: the first in table order without a card (all-first), or the
        player whose turn it is (in-turn)."""
        assert self.group is not None
        if self.draws_first():
            return next(q for q in self.order() if self.group.cards[q] is None)
        return self.order()[self.group.turn]

    def _card_played(self, card: int) -> None:
        self.discard.append((card, self.focus))
        self.scene = Scene(card=card)
        self.phase = "scene-skill"

    def _choose_skill(self, action: int) -> None:
        assert self.scene is not None
        player = self.players[self.focus]
        if action == PASS:
            self.scene.passed = True
            self._to_weave()
        elif USE <= action < LEARN:
            self.scene.skill = action - USE
            self._to_roll()
        elif LEARN <= action < PASS:
            suit = action - LEARN
            player.skills.append(Skill(self.learned_name(self.focus, suit), suit, self.rules["learning.rating"]))
            self.scene.skill = len(player.skills) - 1
            self.scene.learned = True
            self._to_roll()
        else:
            helper, skill = divmod(action - ASK, 10)
            self.scene.skill, self.scene.helper = skill, helper
            self.phase = "scene-help"

    def learned_name(self, player: int, suit: int) -> str:
        """The name a newly learned skill gets: ``Learned Hearts 1``, ``Learned Hearts 2``..."""
        taken = {s.name for s in self.players[player].skills}
        k = 1
        while f"Learned {SUITS[suit].capitalize()} {k}" in taken:
            k += 1
        return f"Learned {SUITS[suit].capitalize()} {k}"

    def _to_roll(self) -> None:
        assert self.scene is not None and self.scene.skill is not None
        if self.dice(self.focus, self.scene.skill, self.scene.helper is not None) == 0:
            self._roll(0)  # no dice, no 6: the skill is complicated (MN-2)
        else:
            self.phase = "scene-roll"

    def _roll(self, highest: int) -> None:
        assert self.scene is not None
        self.scene.roll = highest
        self.players[self.focus].bonus = 0  # extra dice are spent on this roll (MN-20)
        self._to_weave()

    def _to_weave(self) -> None:
        if self.players[self.focus].weavings > 0:
            self.phase = "scene-weave"
        else:
            self._finish_scene(NO_WEAVE)

    def _finish_scene(self, weave: int) -> None:
        assert self.scene is not None
        scene, player = self.scene, self.players[self.focus]
        if scene.failed:
            avoided = weave == WEAVE_AVOID
            if not avoided:
                player.skills[scene.skill].complicated = True  # type: ignore[index]
            if (scene.helper is not None and self.rules["help.helperSharesComplication"]
                    and not (avoided and self.rules["weaving.avoidCoversHelper"])):
                self.players[scene.helper].skills[scene.helper_skill].complicated = True  # type: ignore[index]
        if weave != NO_WEAVE:
            player.weavings -= 1
            if WEAVE_GIVE <= weave < WEAVE_REPAIR:
                self.players[weave - WEAVE_GIVE].bonus += 1
            elif weave >= WEAVE_REPAIR:
                player.skills[weave - WEAVE_REPAIR].complicated = False
        self._begin_scene(self.order().index(self.focus) + 1)

    def _begin_scene(self, index: int) -> None:
        """Focus on the next player of the round who can lead a scene, or go to the table (MN-13)."""
        order = self.order()
        while index < self.n and not self.can_play_scene(order[index]):
            index += 1
        self.scene = None
        if index >= self.n:
            self.phase = "table"
            self.focus = self.first
        else:
            self.phase = "scene-card"
            self.focus = order[index]

    def _start_round(self) -> None:
        self.round += 1
        self.attempts = 0
        self.group = None
        if self.rules["weaving.refresh"] == "round":
            for p in self.players:
                p.weavings = self.rules["weaving.perPlayer"]
        self._begin_scene(0)

    def _table(self, action: int) -> None:
        if action in (END, RETREAT):
            self.phase = "over"
            self.group = None
        elif action in (ROUND, REGROUP):
            self._start_round()
        else:  # GROUP or TRY_AGAIN
            self.attempts += 1
            self.group = Group(0, [None] * self.n, [None] * self.n)
            self._advance_group()

    def sibling_key(self, action: int) -> tuple[int, int] | None:
        """Moves that lead to the same future share a key (MN-35): the cards of one suit (``scene-card``), a suit
        and a skill (``group-skill`` with a card, MN-41); ``None`` for a move that has no siblings."""
        if self.phase == "scene-card" and action != DRAW:
            return (category(action), -1)
        if self.phase == "group-skill" and action >= GROUP_CARD:
            return (category((action - GROUP_CARD) // 10), self.group_skill_of(action))
        return None

    @staticmethod
    def group_skill_of(action: int) -> int:
        """The skill index a ``group-skill`` action brings (``group use "S"`` or ``group use "S" with CARD``)."""
        return (action - GROUP_CARD) % 10 if action >= GROUP_CARD else action - USE

    def _group_choice(self, action: int) -> None:
        group = self.group
        assert group is not None
        q = self.order()[group.turn]
        if action >= GROUP_CARD:
            card, skill = divmod(action - GROUP_CARD, 10)
            self.players[q].hand.remove(card)
            self.discard.append((card, q))
            group.cards[q], group.skills[q] = card, skill
        else:
            group.skills[q] = action - USE
        group.turn += 1
        self._advance_group()

    def _advance_group(self) -> None:
        group = self.group
        assert group is not None
        order = self.order()
        if self.draws_first() and any(group.cards[q] is None for q in order):
            self.phase = "group-draw"  # everyone draws before anyone chooses (MN-23)
            return
        while group.turn < self.n:
            q = order[group.turn]
            if self.mode == "deck-burner" and group.cards[q] is None:
                self.phase = "group-draw"
                return
            if self._group_options(q):
                self.phase = "group-skill"
                return
            group.turn += 1  # no skill available: they hope for the best (MN-23)
        self.phase = "group-roll"

    def _resolve_group(self, outcome: str) -> None:
        group = self.group
        assert group is not None
        for q, s in enumerate(group.skills):
            if s is not None:
                self.players[q].bonus = 0
        self.last = outcome
        if outcome == "victory":
            self.tally.victories += 1
            for p in self.players:  # MN-25: clear all complications
                for skill in p.skills:
                    skill.complicated = False
            if self.rules["weaving.refresh"] == "victory":
                for p in self.players:
                    p.weavings = self.rules["weaving.perPlayer"]
            self.phase = "after-victory"
        elif outcome == "defeat":
            self.tally.defeats += 1
            for q, s in enumerate(group.skills):  # MN-26: the suit each player used becomes injured
                if s is None:
                    continue
                used = self.players[q].skills[s]
                for skill in self.players[q].skills:
                    if skill is used or (self.rules["injury.scope"] == "suit" and skill.suit == used.suit):
                        skill.injured = True
            self.phase = "after-defeat"
        else:
            self.tally.draws += 1
            self.phase = "after-defeat" if self.rules["group.afterDraw"] == "as-defeat" else "after-victory"
        self.group = None

    # -- moves as text ------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        phase = self.phase
        if phase == "scene-card":
            return "draw" if action == DRAW else f"play {card_code(action)}"
        if phase in ("scene-draw", "group-draw"):
            return f"reveal {card_code(action - REVEAL)}"
        if phase == "deal":
            return f"draw {card_code(action - DEAL)}"
        if phase == "scene-roll":
            return f"roll {action - ROLL}"
        if phase == "group-roll":
            return f"result {RESULTS[action - RESULT]}"
        if phase == "scene-skill":
            if action == PASS:
                return "pass"
            if USE <= action < LEARN:
                return f'use "{self.players[self.focus].skills[action - USE].name}"'
            if LEARN <= action < PASS:
                return f"learn {SUITS[action - LEARN]}"
            helper, skill = divmod(action - ASK, 10)
            return f'use "{self.players[self.focus].skills[skill].name}" helped by {helper}'
        if phase == "scene-help":
            return f'help with "{self.players[self.scene.helper].skills[action - USE].name}"'  # type: ignore[union-attr]
        if phase == "group-skill":
            player = self.order()[self.group.turn]  # type: ignore[union-attr]
            if action >= GROUP_CARD:
                card, skill = divmod(action - GROUP_CARD, 10)
                return f'group use "{self.players[player].skills[skill].name}" with {card_code(card)}'
            return f'group use "{self.players[player].skills[action - USE].name}"'
        if phase == "scene-weave":
            if action == NO_WEAVE:
                return "no weave"
            if action == WEAVE_AVOID:
                return "weave avoid"
            if WEAVE_GIVE <= action < WEAVE_REPAIR:
                return f"weave give {action - WEAVE_GIVE}"
            return f'weave repair "{self.players[self.focus].skills[action - WEAVE_REPAIR].name}"'
        return TABLE_WORDS.get(action, f"action {action}")

    def parse_move(self, text: str, field: str = "move") -> int:
        """The action of a move string; case, spacing and ``10``/``T`` are forgiven."""
        if not isinstance(text, str):
            raise InvalidMoveError(field, text, "expected a move string")
        wanted = _canonical(text)
        for action in self.legal_actions():
            if _canonical(self.action_to_string(action)) == wanted:
                return action
        legal = ", ".join(self.action_to_string(a) for a in self.legal_actions()[:12])
        raise IllegalMoveError(field, text, f"not a legal move in phase {self.phase} (legal: {legal})")

    # -- information ------------------------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        """Everything ``player`` may know, as JSON: their view (``docs/formats/mnemonic.md``, MN-32)."""
        return self.view(player).to_json()

    def view(self, player: int) -> MnemonicView:
        """What ``player`` knows: the public facts, their own hand, the sizes of the other hands and the deck (the
        game builds it: :mod:`solver.mnemonic.view` builds on this module)."""
        return self.game.view_of(self, player)

    def resample_from_observation(self, player: int, rng: np.random.Generator) -> MnemonicState:
        """Redeal the cards ``player`` cannot see (other hands and the deck), uniformly among consistent deals:
        the same as ``self.view(player).resample(rng)`` (MN-32)."""
        return self.view(player).resample(rng)

    def default_observer(self) -> int:
        """Whom a hint advises when nobody is named: the player to act; at a chance event the focus player (whose
        draw or roll it is), so that the outcomes are listed from that player's information."""
        actor = self.current_player()
        if actor >= 0 or self.is_terminal():
            return super().default_observer()
        return self.focus

    # -- copies and serialisation -----------------------------------------------------------
    def clone(self) -> MnemonicState:
        copy = MnemonicState(self.game, self.rules, self.mode, [p.copy() for p in self.players])
        copy.deck = list(self.deck)
        copy_public(self, copy)
        return copy

    def to_json(self) -> dict[str, Any]:
        return state_to_json(self)

    def to_notation(self) -> str:
        return state_to_notation(self)


def copy_public(source: MnemonicState, target: MnemonicState) -> None:
    """Copy what every player sees from ``source`` to ``target``: the discard, round, phase, focus, attempts, scene,
    Group Scene, tally and last outcome (not the hands, not the deck)."""
    target.discard = list(source.discard)
    target.round, target.phase, target.focus, target.attempts = source.round, source.phase, source.focus, source.attempts
    target.scene = source.scene.copy() if source.scene else None
    target.group = source.group.copy() if source.group else None
    target.tally = source.tally.copy()
    target.last = source.last


def _canonical(text: str) -> str:
    text = " ".join(text.strip().split()).lower()
    return re.sub(r"\b10([hdcs])\b", r"t\1", text)
