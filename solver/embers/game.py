"""Embers of Memory: the game object, its engine services and its hooks into the shared command line.

Services (``docs/formats/embers.md``):

* ``hint``: ranked moves for Fenrys or Aelin from that player's view (:mod:`solver.embers.hints`);
* ``solve``: the optimal Blink plan of a Chapter One position (CP-SAT proof, or exhaustive search);
* ``score``: where a position stands (strength rows, Mind, demons, deck, result);
* ``legal_moves``: the move strings of the player to move (on a view: what may be entered next);
* puzzles (``blink``), self-play, pictures, and the ``campaign`` command.

A state or view may be given as JSON or notation; its ``chapter`` picks the rules, so the default game
``embers`` reads Prologue positions too.
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

import numpy as np

from solver.embers import mind as mindlib
from solver.embers.cards import SUITS, Deck, load_deck, pattern_text
from solver.embers.state import AELIN, TARGET, EmbersState
from solver.errors import InvalidInputError, UnsupportedActionError
from solver.game import Game, Information, Option, Parameter, State, Utility, View, split_view_notation
from solver.results import HintResult, SolveResult
from solver.search import SearchContext
from solver.validate import as_bool, as_choice, as_int, as_object, check_keys, get, join

SOLVE_KEYS = ("state", "method", "fullInformation")
METHODS = ("cpsat", "exhaustive")
CHAPTERS = ("one", "prologue")


class EmbersGame(Game):
    """Embers of Memory: A Throne of Glass Game (Osprey), a re-theme of The Ravens of Thri Sahashri."""

    name = "embers"
    long_name = "Embers of Memory"
    utility = Utility.IDENTICAL
    information = Information.IMPERFECT
    min_players = 2
    max_players = 2
    PARAMETERS = {
        "chapter": Parameter("one", str, "'one' (Chapter One, the full game) or 'prologue' (parts one and two)",
                             choices=("one", "prologue")),
        "deck": Parameter("default", str, "deck file (docs/formats/embers.md); 'default' is the shipped, "
                                          "invented deck", data_file=True),
    }
    MODE_PARAMETER = "chapter"
    VERB_OPTIONS = {
        "solve": (Option("method", "--method", str, "cpsat", "cpsat (a CP-SAT proof) or exhaustive (the compiled "
                                                              "branch-and-bound search)", choices=METHODS),
                  Option("fullInformation", "--full-information", bool, False,
                         "plan with Aelin's real Resolve cards (a full state is needed)")),
        "selfplay": (Option("planNodes", "--plan-nodes", int, 1_000_000, "node budget of the compiled plan search "
                                                                         "per Blink for the hint policies", lo=1,
                            hi=10**9),),
        "new": (Option("campaign", "--campaign", str, None, "campaign file: deal a game of its chapter, with the "
                                                            "cards no longer in the memory deck left in the box",
                       engine=False),),
    }
    VERB_ALIASES = {"apply": ("play",)}
    PUZZLE_KINDS = ("blink",)
    SELFPLAY_POLICIES = ("hint", "greedy", "random", "full-information", "hint+greedy", "greedy+hint")
    SELFPLAY_DEFAULT = ("hint", "greedy")

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.deck: Deck = load_deck(self.params["deck"])

    # -- states and views -------------------------------------------------------------
    def new_initial_state(self, seed: int) -> EmbersState:
        state = EmbersState(self)
        state.deal_initial(seed)
        return state

    def new_game(self, seed: int, campaign: str | None = None) -> EmbersState:
        """A dealt game (``new --seed S``); with a campaign file, a game of its chapter (EM-60, EM-63)."""
        game, box = self._for_campaign(campaign)
        state = EmbersState(game)
        state.box = box
        state.deal_initial(seed)
        return state

    def new_table(self, player: int, campaign: str | None = None) -> View:
        """A real table's start as ``player`` sees it: nothing dealt yet (EM-35); the deals are entered as they
        happen (``chance ID``, or ``chance ?`` for a Resolve card the player does not see)."""
        game, box = self._for_campaign(campaign)
        state = EmbersState(game)
        state.box = box
        state.start_table()
        return state.view(player)

    def _for_campaign(self, path: str | None) -> tuple[EmbersGame, list[int]]:
        if path is None:
            return self, []
        from solver.embers.campaign import PLAYABLE, load_campaign
        campaign = load_campaign(path)
        chapter = campaign.chapter if self.params["chapter"] == self.PARAMETERS["chapter"].default \
            else self.params["chapter"]
        if chapter not in PLAYABLE:
            raise UnsupportedActionError("--campaign", chapter, f"chapter {chapter}'s rules are on captivity cards "
                                                                "we do not have")
        game = self.for_chapter(chapter)
        return game, [game.deck.card(c, "campaign").index for c in campaign.out_of_play(game.deck)]

    def state_from_json(self, obj: Any, field: str = "state") -> EmbersState:
        from solver.embers.notation import state_from_json
        return state_from_json(self, obj, field)

    def state_from_notation(self, text: str, field: str = "state") -> EmbersState:
        from solver.embers.notation import state_from_notation
        return state_from_notation(self, text, field)

    def for_chapter(self, chapter: Any) -> EmbersGame:
        """This game with another chapter (same deck)."""
        if chapter == self.params["chapter"] or chapter not in ("one", "prologue"):
            return self
        return EmbersGame(chapter=chapter, deck=self.params["deck"])

    def parse_state(self, payload: Any, field: str = "state") -> State:
        """A state from JSON or notation; its chapter (``"chapter"`` or ``embers/prologue/N``) picks the rules."""
        if isinstance(payload, dict) and "chapter" in payload and "view" not in payload:
            chapter = as_choice(payload["chapter"], join(field, "chapter"), CHAPTERS)
            return self.for_chapter(chapter).state_from_json(payload, field)
        if isinstance(payload, str) and payload.strip().startswith("embers/"):
            return self._for_head(payload).state_from_notation(payload, field)
        return super().parse_state(payload, field)

    def _for_head(self, text: str) -> EmbersGame:
        head = text.strip().split(" ", 1)[0]
        return self.for_chapter("prologue" if head.startswith("embers/prologue") else "one"
                                if head.startswith("embers/one") else self.params["chapter"])

    def view_from_json(self, obj: Any, field: str = "state") -> View:
        """A player's view from its JSON (``"view": N``; ``docs/formats/embers.md``)."""
        from solver.embers.notation import state_from_json
        from solver.embers.view import EmbersView
        obj = as_object(obj, field)
        observer = as_int(get(obj, "view", field), f"{field}.view", 0, 1)
        game = self.for_chapter(as_choice(obj.get("chapter", self.params["chapter"]), f"{field}.chapter", CHAPTERS))
        body = {k: v for k, v in obj.items() if k not in ("view", "role", "deckCount")}
        table = state_from_json(game, body, field, observer=observer)
        view = EmbersView(game, observer, table)  # type: ignore[arg-type]
        if "role" in obj and obj["role"] != view.role():
            raise InvalidInputError(f"{field}.role", obj["role"], f"player {observer} is {view.role()} here")
        if "deckCount" in obj:
            count = as_int(obj["deckCount"], f"{field}.deckCount", 0, 1000)
            if count != len(table.pile):
                raise InvalidInputError(f"{field}.deckCount", count, f"the cards listed leave {len(table.pile)} "
                                                                     "in the deck")
        return view

    def view_from_notation(self, text: str, field: str = "state") -> View:
        """A player's view from its notation (``view:N embers/one ...`` with ``?`` for unseen Resolve cards)."""
        from solver.embers.notation import notation_to_json
        observer, body = split_view_notation(text, field)
        game = self._for_head(body)
        obj = notation_to_json(game, body, field)
        return game.view_from_json({"view": observer, **obj}, field)

    # -- services ---------------------------------------------------------------------
    def hint_view(self, view: View, ctx: SearchContext, *, top: int = 3, **options: Any) -> HintResult:
        from solver.embers.hints import hint_view
        return hint_view(view, ctx, top=top)

    def hint_full(self, state: State, ctx: SearchContext, *, top: int = 3, player: int | None = None,
                  **options: Any) -> HintResult:
        from solver.embers.hints import hint_full
        return hint_full(_own(state), ctx, top=top, player=player)

    def solve(self, payload: Any, ctx: SearchContext, method: str | None = None,
              fullInformation: bool | None = None) -> SolveResult:  # noqa: N803 - the option's documented key
        """The optimal Blink plan: a state or Fenrys's view, or ``{"state": STATE, "method": "cpsat"|"exhaustive",
        "fullInformation": bool}`` (``docs/formats/embers.md``); ``method`` and ``fullInformation`` are also
        the verb's options."""
        from solver.embers.solve import solve_blink
        chosen, full = "cpsat", False
        if isinstance(payload, dict) and "state" in payload and "view" not in payload:
            check_keys(payload, SOLVE_KEYS, "state")
            chosen = as_choice(payload.get("method", "cpsat"), "state.method", METHODS)
            full = as_bool(payload.get("fullInformation", False), "state.fullInformation")
            payload = get(payload, "state", "")
        chosen = chosen if method is None else as_choice(method, "method", METHODS)
        full = full if fullInformation is None else as_bool(fullInformation, "fullInformation")
        position = self.parse_position(payload)
        if isinstance(position, View):
            if full and position.masked():  # type: ignore[attr-defined]
                raise InvalidInputError("fullInformation", True, "a full-information plan needs Aelin's real "
                                                                 "Resolve cards: give the full state, not Fenrys's view")
            position = position.resample(np.random.default_rng(ctx.seed))  # Fenrys's plan reads only his view
        return solve_blink(_own(position), ctx, method=chosen, full_information=full)

    def score(self, payload: Any) -> dict[str, Any]:
        """Where a position stands: result, day, strength rows, the Mind, demons and the deck."""
        position = self.parse_position(payload)
        if isinstance(position, View):
            return position_summary(position.table, set(position.masked()),  # type: ignore[attr-defined]
                                    to_move=position.current_player())
        state = _own(position)
        return position_summary(state, {i for i, r in enumerate(state.rows) if state.guessed and not r.face_up})

    def legal_moves(self, payload: Any) -> list[str]:
        position = self.parse_position(payload)
        if isinstance(position, EmbersState):
            require_known_resolve(position, "list Aelin's choices")
        return super().legal_moves(position)

    def apply(self, position: State | View, moves: list[str], field: str = "moves") -> State | View:
        """``position`` advanced by ``moves``; a guessed state refuses Aelin's moves (their outcome is unknown)."""
        current = position.clone()
        for i, text in enumerate(moves):
            if isinstance(current, EmbersState):
                require_known_resolve(current, f"apply {field}[{i}] {text!r}")
            if current.is_terminal():
                from solver.errors import IllegalMoveError
                raise IllegalMoveError(f"{field}[{i}]", text, "the game is over")
            current.apply_move(text, f"{field}[{i}]")
        return current

    # -- puzzles and self-play ------------------------------------------------------------
    def generate_puzzle(self, kind: str, difficulty: str, rng: np.random.Generator) -> dict[str, Any]:
        """A Blink puzzle with a unique optimal plan, graded by the solver's work (EM-77, EM-78)."""
        from solver.embers.puzzles import generate_puzzle
        return generate_puzzle(self.for_chapter("one"), difficulty, rng)

    def check_puzzle(self, puzzle: dict[str, Any], answer: Any) -> dict[str, Any]:
        from solver.embers.puzzles import check_answer
        return check_answer(self.for_chapter("one"), puzzle, answer)

    def puzzle_position(self, puzzle: dict[str, Any]) -> EmbersState:
        """The Blink to play the answer from (its Resolve cards face up: they play no part, and no relive then
        waits for Aelin's reveal); :meth:`check_puzzle` takes the moves played there as a list."""
        from solver.embers.puzzles import puzzle_position
        return puzzle_position(self.for_chapter("one"), puzzle)

    def describe_puzzle(self, puzzle: dict[str, Any]) -> str:
        from solver.embers.puzzles import describe_puzzle
        return describe_puzzle(self.for_chapter("one"), puzzle)

    def puzzle_answer(self, puzzle: dict[str, Any]) -> str:
        solution = puzzle.get("solution") or []
        return f"{'; '.join(solution)} (relives {puzzle.get('relives')})"

    def selfplay_game(self, policies: tuple[str, ...], rng: np.random.Generator, **options: Any) -> dict[str, Any]:
        """One Chapter One deal played by each policy label (``hint``, ``greedy``, ... or ``FENRYS+AELIN``), on the
        same deal and draws (paired): ``outcomes`` are wins (0/1)."""
        from solver.embers.selfplay import selfplay_game
        return selfplay_game(self, policies, rng, plan_nodes=int(options.get("planNodes", 1_000_000)))

    # -- pictures -------------------------------------------------------------------------
    def svg(self, position: State | View, hint: dict[str, Any] | None = None, **options: Any) -> str:
        """The Mind in its layers, the rows, the Resolve, demons and piles, drawn from ``position.to_json()``."""
        from solver.embers.picture import position_svg
        if options:
            key = sorted(options)[0]
            raise InvalidInputError(f"options.{key}", options[key], "Embers pictures take no options")
        return position_svg(self, position, hint)

    def puzzle_svg(self, puzzle: dict[str, Any], solution: bool = False) -> str:
        from solver.embers.picture import puzzle_svg
        return puzzle_svg(self.for_chapter("one"), puzzle, solution)

    # -- text -----------------------------------------------------------------------------
    def describe(self, position: State | View, player: int | None = None) -> str:
        from solver.embers.text import describe
        if player is not None and isinstance(position, State):
            position = position.view(player)
        return describe(position)

    def render_text(self, verb: str, result: Any) -> str | None:
        from solver.embers.text import render_score, render_solve
        if verb == "score":
            return render_score(result)
        if verb == "solve":
            return render_solve(result.to_json())
        return None

    # -- command line and demo ------------------------------------------------------------------
    def add_cli(self, commands: argparse._SubParsersAction) -> None:
        from solver.embers import cli
        cli.add_commands(self, commands)

    def demo(self, out: TextIO) -> None:
        from solver.embers.cli import demo
        demo(self, out)


def _own(position: Any) -> EmbersState:
    if not isinstance(position, EmbersState):
        raise InvalidInputError("state", type(position).__name__, "expected an Embers of Memory state")
    return position


def require_known_resolve(state: EmbersState, what: str) -> None:
    """Refuse to decide what depends on face-down Resolve cards that were typed as ``"?"`` (a guess is not
    the truth): Aelin's takes and reveals, and full-information analyses. (A player's view has entries of its
    own for these: ``docs/formats/embers.md``.)"""
    if state.guessed and state.current_player() == AELIN and state.phase in ("acknowledge", "reveal"):
        raise InvalidInputError("state.resolve", "?", f"cannot {what}: the outcome depends on Aelin's face-down "
                                                      "Resolve cards, which this state gives as '?' (give Fenrys's "
                                                      "view, \"view\": 0, to enter what he sees)")


def position_summary(state: EmbersState, masked: set[int], to_move: int | None = None) -> dict[str, Any]:
    """The ``score`` answer: a readable account of a position (JSON). Resolve cards the position does not know
    (``masked``) stay unknown (``"?"``, row total ``null``)."""
    deck = state.deck
    rows = []
    for i, row in enumerate(state.rows):
        unknown = i in masked
        rows.append({"row": i + 1, "resolve": "?" if unknown else deck.cards[row.resolve].id,
                     "faceUp": row.face_up, "cards": [deck.cards[c].id for c in row.cards],
                     "total": None if unknown else state.row_total(row),
                     "complete": i < state.completed, "current": i == state.completed})
    parts = mindlib.sections(state.mind) if state.mind else []
    placeable: dict[str, list[str]] = {}
    memory_row = [c for c in state.row if not deck.cards[c].is_demon]
    for card, x, y in mindlib.legal_placements(deck, state.mind, memory_row) if state.mind else []:
        placeable.setdefault(deck.cards[card].id, []).append(f"{x},{y}")
    mover = state.current_player() if to_move is None else to_move
    return {
        "result": state.result, "returns": state.returns() if state.is_terminal() else None,
        "chapter": state.chapter, "part": state.part if state.chapter == "prologue" else None, "day": state.day,
        "phase": state.phase, "toMove": None if state.is_terminal() else
        ("chance" if mover < 0 else state.role(mover)),
        "rowsCompleted": state.completed, "rows": rows,
        "mind": {"cards": len(state.mind), "visible": [deck.cards[c].id for c in mindlib.visible_cards(state.mind)],
                 "sections": [[deck.cards[c].id for c in p] for p in parts], "split": len(parts) > 1,
                 "picture": mindlib.render(deck, state.mind)},
        "placements": placeable,
        "demons": [{"demon": deck.cards[d].id, "suit": SUITS[deck.cards[d].suit],
                    "tainted": [deck.cards[c].id for c in t]} for d, t in state.demons],
        "deckCount": len(state.pile), "discardCount": len(state.discard),
        "corrupted": [deck.cards[c].id for c in state.box],
        "target": TARGET,
    }


def describe_card(deck: Deck, card: int) -> str:
    """``C4 Chains 4 #..#`` or ``Cd demon of Chains``."""
    c = deck.cards[card]
    return f"{c.id} demon of {c.suit_name}" if c.is_demon else f"{c.id} {c.suit_name} {c.strength} " \
                                                               f"{pattern_text(c.blocked)}"


GAME = EmbersGame
