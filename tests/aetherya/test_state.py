"""The Aetherya rules engine: contract, invariants and one test per game-rule interpretation (AE-17..)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from solver.aetherya.cards import LETTERS, deck_counts
from solver.aetherya.game import AetheryaGame
from solver.aetherya.state import COOP_ROW, SOLO_ROWS
from solver.errors import IllegalMoveError, ImpossibleStateError, InvalidInputError, NotationError, SolverError
from solver.registry import load_game
from solver.testing import random_simulation

from .helpers import advance_chance, play_random

CONFIGS = ["aetherya", "aetherya(players=3)", "aetherya(players=4)", "aetherya(mode=objects)",
           "aetherya(mode=objects,players=4)", "aetherya(mode=coop)", "aetherya(mode=coop,players=3)",
           "aetherya(mode=coop,players=4)", "aetherya(mode=solo)"]


def build(kingdoms: list[str], discard: list[str] | str = "", mode: str = "base", **extra) -> dict:
    """A JSON state in phase 'choose' whose draw pile is whatever the kingdoms and discard leave."""
    players = len(kingdoms) if mode != "solo" else 1
    deck = deck_counts(2 if mode == "solo" else players)
    piles = discard if isinstance(discard, list) else [discard]
    used = "".join(k.replace("/", "") for k in kingdoms) + "".join(piles) + extra.pop("_also", "")
    for ch in used.upper():
        deck[LETTERS.index(ch)] -= 1
    assert min(deck) >= 0, deck
    legends = extra.pop("legendRow", ["human-elf", "humans-2", "forests-3", "plains-3", "goblins-2", "elves-2",
                                      "dwarves-2", "four-tribes"])
    data = {"mode": mode, "players": players, "phase": "choose", "toMove": 0, "turn": 3, "kingdoms": kingdoms,
            "drawPile": "".join(LETTERS[k] * n for k, n in enumerate(deck)), "discard": piles,
            "legendRow": legends, "legends": [[] for _ in range(players)]}
    from solver.aetherya.cards import LEGENDS
    placed = set(legends) | {x for h in extra.get("legends", []) for x in h}
    for key in ("box", "legendDiscard", "written"):
        placed |= set(extra.get(key, []))
    for row in extra.get("ageRows", []):
        placed |= set(row)
    data["legendDeck"] = [leg.slug for leg in LEGENDS if leg.slug not in placed]
    data.update(extra)
    return data


K0 = "pfmd/sHEg/gDGr/oeph"
K1 = "ffmm/pSMs/hPFd/oeeg"


def base_state(discard: str = "SH", **extra):
    return AetheryaGame().state_from_json(build([K0, K1], discard, **extra))


# ---------------------------------------------------------------------- contract and invariants
@pytest.mark.parametrize("spec", CONFIGS)
def test_random_simulation_contract(spec):
    """The OpenSpiel-style contract holds on seeded random games of every mode (JSON, notation, resampling)."""
    game = load_game(spec)
    report = random_simulation(game, games=2, seed=7, check=lambda s: s.check_invariants(), check_every=4)
    assert report.terminal == 2


@pytest.mark.parametrize("spec", CONFIGS)
def test_no_card_lost_or_duplicated_over_many_games(spec):
    """Invariant: every card, Legend and tile is in exactly one place after every step (many seeded games)."""
    game = load_game(spec)
    rng = np.random.default_rng(11)
    for _ in range(60):
        play_random(game.new_root_state(), rng)


def test_setup_chance_nodes_from_the_root():
    """AE-17: the root is a chance node; Legends, starting cards, territories and the first discard are dealt by chance."""
    game = AetheryaGame()
    state = game.new_root_state()
    assert state.is_chance_node() and state.phase == "legends"
    state = advance_chance(state, np.random.default_rng(1))
    assert state.phase == "arrange" and len(state.row) == 8
    assert all(len(set(cards)) == 4 for cards in state.start)
    assert len(state.legal_actions()) == 24


def test_starting_cards_are_four_different_kinds_AE17():
    """AE-17: each starting card is drawn among the kinds the player does not hold yet."""
    game = AetheryaGame(players=4)
    for seed in range(30):
        state = game.new_initial_state(seed)
        assert all(len(set(cards)) == 4 for cards in state.start)
        assert state.phase == "arrange" and not state.is_chance_node()


def test_start_card_chance_excludes_held_kinds_AE17():
    """AE-17: while dealing, the chance outcomes for a starting card skip the kinds already held."""
    state = AetheryaGame().new_root_state()
    rng = np.random.default_rng(3)
    while state.phase == "legends":
        state.apply_action(state.legal_actions()[0])
    state.apply_action(2000 + 4)  # a Human
    kinds = [a - 2000 for a, _ in state.chance_outcomes()]
    assert 4 not in kinds and len(kinds) == 9
    advance_chance(state, rng)


def test_deck_size_by_player_count():
    """AE-14: 2 x players copies of each kind."""
    for players in (2, 3, 4):
        state = AetheryaGame(players=players).new_initial_state(0)
        assert sum(state.card_counts()) == 20 * players
    assert sum(AetheryaGame(mode="solo").new_initial_state(0).card_counts()) == 40


# ---------------------------------------------------------------------- the turn
def test_take_then_place_replaced_card_goes_to_discard_AE18():
    """AE-18: the taken discard must be placed; the replaced card goes to the discard."""
    state = base_state("SH")
    assert state.legal_actions() == sorted(state.legal_actions())
    assert {state.action_to_string(a) for a in state.legal_actions()} == {"take", "draw"}
    state.apply_move("take")
    moves = {state.action_to_string(a) for a in state.legal_actions()}
    assert not any(m.startswith("reveal") for m in moves)  # a taken card must be placed
    state.apply_move("place a1")  # face-down Plains replaced by the Human
    assert state.kingdoms[0][0] == LETTERS.index("H") and not state.hidden[0] & 1
    assert state.discards[0] == [LETTERS.index("S"), LETTERS.index("P")]


def test_no_replacing_a_card_by_one_of_the_same_kind_AE18():
    """AE-18: a revealed card may not be replaced by one of its own kind; a face-down one may."""
    state = base_state("SH")  # the top discard is a Human
    state.apply_move("take")
    moves = {state.action_to_string(a) for a in state.legal_actions()}
    assert "place b2" not in moves  # b2 is a face-up Human
    assert "place d4" in moves  # d4 is a face-down Human: allowed
    with pytest.raises(IllegalMoveError, match="place b2"):
        state.apply_move("place b2")


def test_portals_and_dragons_are_locked_AE18():
    """AE-18: a face-up Portal or Dragon is never replaced."""
    state = AetheryaGame().state_from_json(build(["pfmd/sOEg/gDRr/oeph", K1], "SH"))
    state.apply_move("take")
    moves = {state.action_to_string(a) for a in state.legal_actions()}
    assert "place b2" not in moves and "place c3" not in moves
    assert "place d3" in moves  # a face-down Dragon is still an Unexplored Territory


def test_draw_then_discard_and_reveal_AE18():
    """AE-18: a drawn card may be discarded; the player then reveals one Unexplored Territory."""
    state = base_state("SH")
    state.apply_move("draw")
    assert state.is_chance_node()
    state.apply_action(2000 + LETTERS.index("R"))
    state.apply_move("reveal a1")
    assert state.discards[0][-1] == LETTERS.index("R")
    assert state.kingdoms[0][0] == LETTERS.index("P") and not state.hidden[0] & 1


def test_one_legend_per_turn_and_refill_AE21():
    """AE-21: at most one Legend per turn, from the face-up row, refilled from the deck."""
    # b2 Human next to c2 Elf (human-elf) and to a Human at b1 after the placement (humans-2)
    state = AetheryaGame().state_from_json(build(["pfmd/sHEg/gDGr/oeph", K1], "SH"))
    state.apply_move("take")
    state.apply_move("place b1")
    moves = {state.action_to_string(a) for a in state.legal_actions()}
    assert {"claim human-elf", "claim humans-2", "end"} <= moves
    state.apply_move("claim humans-2")
    assert state.is_chance_node() and state.phase == "refill"
    advance_chance(state, np.random.default_rng(0))
    assert len(state.row) == 8 and state.held[0] == [4]
    assert state.to_move == 1 and state.phase == "choose"  # the second claim was not offered


def test_legends_are_checked_on_revealed_cards_only_AE12():
    """AE-12: a face-down card never satisfies a Legend."""
    state = AetheryaGame().state_from_json(build(["pfmd/sHEg/gDGr/oeph", K1], "SH"))
    assert 4 not in state.claimable(0)  # the Human at d4 is face down


def test_discard_reformed_into_draw_pile_AE19():
    """AE-19: when the draw pile runs out, the discard is shuffled into a new pile at the end of the turn,
    and its first card starts the new discard; the new pile's contents are public."""
    data = build([K0, K1], "SH")
    pile = data["drawPile"]
    data["discard"] = ["SH" + pile[:-1]]
    data["drawPile"] = pile[-1]
    state = AetheryaGame().state_from_json(data)
    state.apply_move("draw")
    state.apply_action(state.legal_actions()[0])
    state.apply_move("reveal a1")
    state.apply_move("end")  # decline the Legends on offer
    assert state.phase == "reform" and state.pile_known
    advance_chance(state, np.random.default_rng(0))
    assert state.phase == "choose" and len(state.discards[0]) == 1 and sum(state.pile) == len(pile) + 1
    obs = state.observation(1)
    assert isinstance(obs["drawPile"], str) and len(obs["drawPile"]) == sum(state.pile)


def test_game_ends_when_a_player_has_no_territory_left_AE20():
    """AE-20: the game ends at once when a player has no face-down card; every card is turned over."""
    state = AetheryaGame().state_from_json(build(["PFMD/SHEG/GDGR/OEPh", K1], "SH", turn=22))
    state.apply_move("draw")
    state.apply_action(state.legal_actions()[0])
    state.apply_move("reveal d4")
    assert state.is_terminal() and state.hidden == [0, 0]
    assert state.returns() == [float(state.score(0).total), float(state.score(1).total)]
    assert state.legal_actions() == []
    with pytest.raises(IllegalMoveError):
        state.apply_action(0)


def test_tie_break_by_best_categories_AE13():
    """AE-13: ties are broken by the best category, then the next."""
    state = AetheryaGame().new_initial_state(5)
    rng = np.random.default_rng(5)
    play_random(state, rng)
    keys = [state.score(p).rank_key() for p in range(2)]
    assert state.winners() == [p for p in range(2) if keys[p] == max(keys)]


# ---------------------------------------------------------------------- information
def test_observation_hides_face_down_cards_and_draw_order_AE22():
    """AE-22: observations hide face-down cards and the unreformed pile, and show discards and the held card."""
    state = base_state("SH")
    obs = state.observation(1)
    assert obs["kingdoms"][0].count("?") == 12 and obs["drawPile"] == sum(state.pile)
    assert obs["discard"] == ["SH"] and obs["legendDeck"] == len(state.legend_deck)  # a count: the order is hidden
    assert obs["view"] == 1 and state.game.parse_position(obs).to_json() == obs  # the observation is a view
    state.apply_move("draw")
    state.apply_action(2000 + LETTERS.index("O"))
    assert state.observation(1)["hold"] == {"card": "O", "from": "draw"}


def test_resample_keeps_the_observation_and_the_deck():
    """Re-sampling shuffles only unknown cards: the observation and the card counts are unchanged."""
    state = base_state("SH")
    rng = np.random.default_rng(0)
    seen = set()
    for _ in range(20):
        sample = state.resample_from_observation(0, rng)
        assert sample.observation(0) == state.observation(0)
        sample.check_invariants()
        seen.add(tuple(sample.kingdoms[1]))
    assert len(seen) > 1


# ---------------------------------------------------------------------- serialisation and errors
def test_json_and_notation_round_trip():
    state = base_state("SH")
    text = state.to_notation()
    assert text.startswith("base:2 ")
    again = AetheryaGame().state_from_notation(text)
    assert again.to_json() == state.to_json()
    assert AetheryaGame().parse_state(json.loads(json.dumps(state.to_json()))).to_notation() == text


def test_parse_state_loads_the_mode_of_the_state():
    """A state of another mode loads its own game (the CLI and engine accept any mode)."""
    state = AetheryaGame(mode="coop", players=3).new_initial_state(1)
    parsed = AetheryaGame().parse_state(state.to_json())
    assert parsed.mode == "coop" and parsed.players == 3
    assert AetheryaGame().parse_state(state.to_notation()).to_json() == state.to_json()


@pytest.mark.parametrize("mutate, field", [
    (lambda d: d.update(kingdoms=["pfmd/sHEg/gDGr/oepX", K1]), "state.kingdoms[0]"),
    (lambda d: d.update(kingdoms=["pfmd/shEg/gDGr/oeph", K1]), "state.kingdoms[0]"),
    (lambda d: d.update(drawPile=d["drawPile"] + "P"), "state"),
    (lambda d: d.update(legendRow=["human-elf", "nope"]), "state.legendRow[1]"),
    (lambda d: d.update(legendRow=d["legendRow"] + [d["legendDeck"][0]]), "state.legendRow"),
    (lambda d: d.update(phase="dance"), "state.phase"),
    (lambda d: d.update(toMove=5), "state.toMove"),
    (lambda d: d.update(colour="red"), "state.colour"),
    (lambda d: d.update(players=3), "state.players"),
    (lambda d: d.update(hold={"card": "H", "from": "draw"}), "state.hold"),
])
def test_malformed_and_impossible_states_name_the_field(mutate, field):
    data = build([K0, K1], "SH")
    mutate(data)
    with pytest.raises(SolverError) as err:
        AetheryaGame().state_from_json(data)
    assert err.value.field.startswith(field), (err.value.field, str(err.value))


def test_bad_notation_and_moves_raise_clear_errors():
    with pytest.raises(NotationError):
        AetheryaGame().state_from_notation("base:2 ph=choose zz=1")
    with pytest.raises(NotationError):
        AetheryaGame().state_from_notation("hello")
    state = base_state("SH")
    with pytest.raises(IllegalMoveError, match="'fly'"):
        state.apply_move("fly")
    with pytest.raises(InvalidInputError):
        state.apply_move(3)
    with pytest.raises(IllegalMoveError):
        state.apply_action(999)
    with pytest.raises(SolverError):
        state.apply_action("take")


def test_game_parameters_are_validated():
    with pytest.raises(SolverError):
        load_game("aetherya(mode=solo,players=2)")
    with pytest.raises(SolverError):
        load_game("aetherya(mode=chess)")
    with pytest.raises(SolverError):
        load_game("aetherya(mode=objects,tiles=/nonexistent.json)")
    assert load_game("aetherya(players=1)").mode == "solo"
    assert load_game("aetherya(mode=solo)").num_players == 1


# ---------------------------------------------------------------------- co-op and solo setup
@pytest.mark.parametrize("players", [2, 3, 4])
def test_coop_row_sizes_and_two_discards_AE36(players):
    """AE-36 (errata): the co-op Legend row has 4 cards at 2 players, 3 at 3, 2 at 4; two discard piles."""
    state = AetheryaGame(mode="coop", players=players).new_initial_state(players)
    assert len(state.row) == COOP_ROW[players]
    while state.phase == "arrange":
        state.apply_action(state.legal_actions()[0])
        advance_chance(state, np.random.default_rng(0))
    assert len(state.discards) == 2 and all(len(d) == 1 for d in state.discards)


def test_solo_rows_of_4_5_6_AE33():
    """AE-33 (errata): the solo Legend rows hold 4, 5 and 6 cards."""
    state = AetheryaGame(mode="solo").new_initial_state(2)
    assert [len(r) for r in state.rows] == list(SOLO_ROWS)


def test_the_notation_example_of_the_docs_parses():
    """A user typing the position from docs/formats/aetherya.md gets that position and its moves."""
    from pathlib import Path
    doc = Path(__file__).resolve().parents[2] / "docs" / "formats" / "aetherya.md"
    line = next(l.strip() for l in doc.read_text().splitlines() if l.strip().startswith("base:2 "))
    state = AetheryaGame().state_from_notation(line)
    assert state.to_notation() == line
    assert AetheryaGame().legal_moves(line) == ["take", "draw"]
    assert state.score(0).total == base_state().score(0).total


def _dealt_json(spec: str, seed: int = 1) -> dict:
    from solver.aetherya.playout import advance_to_turn_start
    state = load_game(spec).new_initial_state(seed)
    return advance_to_turn_start(state, np.random.default_rng(seed)).to_json()


def _upper_all(d: dict, seat: int) -> None:
    d["kingdoms"][seat] = d["kingdoms"][seat].upper()


@pytest.mark.parametrize("spec, mutate, field, words", [
    # a kingdom with 5 face-up cards before its owner's first turn (turn 0), or in setup
    ("aetherya", lambda d: d.update(turn=0, kingdoms=[d["kingdoms"][0][0].upper() + d["kingdoms"][0][1:],
                                                      d["kingdoms"][1]]), "state.kingdoms[0]", "5 face-up"),
    ("aetherya", lambda d: d.update(phase="first-discard", discard=[""], turn=0,
                                    drawPile=d["drawPile"] + d["discard"][0],
                                    kingdoms=[d["kingdoms"][0][0].upper() + d["kingdoms"][0][1:],
                                              d["kingdoms"][1]]), "state.kingdoms[0]", "only the centre"),
    ("aetherya", lambda d: d.update(phase="start"), "state.kingdoms[0]", "before the starting cards"),
    ("aetherya", lambda d: d.update(phase="first-discard"), "state.discard", "empty discard"),
    # the game is over once a seat has no face-down card
    ("aetherya", lambda d: (_upper_all(d, 1), d.update(turn=40)), "state.kingdoms[1]", "no face-down card"),
    ("aetherya", lambda d: d.update(claimed=True), "state.claimed", "claimed"),
    ("aetherya", lambda d: d.update(phase="refill"), "state.afterRefill", "refill"),
    ("aetherya", lambda d: d.update(legendDeck=d["legendDeck"] + d["legendRow"][-1:],
                                    legendRow=d["legendRow"][:-1]), "state.legendRow", "refilled"),
    ("aetherya", lambda d: d.update(legends=[[d["legendRow"][0]], [d["legendRow"][0]]],
                                    legendRow=d["legendRow"][1:] + d["legendDeck"][:1],
                                    legendDeck=d["legendDeck"][1:]), "state.legends", "two places"),
    ("aetherya(mode=coop,players=3)", lambda d: d.update(legends=[[d["legendDeck"][0]], [], []],
                                                         legendDeck=d["legendDeck"][1:]), "state.legends", "coop"),
    ("aetherya(mode=coop,players=3)", lambda d: d.update(phase="legend-discard", toMove=0, turn=0),
     "state.phase", "last seat"),
    ("aetherya(mode=solo)", lambda d: d.update(failed=True), "state.failed", "over"),
    ("aetherya(mode=solo)", lambda d: d.update(drawsNeeded=2), "state.drawsNeeded", "draw"),
    ("aetherya(mode=solo)", lambda d: d.update(phase="block"), "state.phase", "2x2"),
    ("aetherya(mode=solo)", lambda d: d.update(phase="swap", turn=5), "state.phase", "swap"),
    ("aetherya(mode=solo)", lambda d: d.update(players=2), "state.players", "1 player"),
    ("aetherya(mode=objects)", lambda d: d["tiles"].update(peeksUsed=1), "state.tiles.peeksUsed", "Palantir"),
    ("aetherya(mode=objects)", lambda d: d["tiles"].update(known=[["p1 b2"], []]), "state.tiles.known[0]",
     "face-down tile"),
    ("aetherya(mode=objects)", lambda d: (d["tiles"]["owned"][0].append(d["tiles"]["territories"][0].pop("a1"))),
     "state.tiles.territories[0]", "holds a tile"),
])
def test_impossible_states_are_rejected_naming_the_field(spec, mutate, field, words):
    """Impossible states (setup out of order, a seat without face-down card mid-game, flags outside their phase,
    Legends held twice or in co-op, solo and co-op phases out of place, Palantir peeks without a Palantir) raise
    ImpossibleStateError naming the field, instead of being analysed as if they were real."""
    data = _dealt_json(spec)
    mutate(data)
    with pytest.raises(SolverError) as err:
        load_game(spec).parse_state(data)
    assert err.value.field.startswith(field), (err.value.field, str(err.value))
    assert words in str(err.value), str(err.value)


def test_turn_is_inferred_when_omitted():
    """Without 'turn' the fewest turns consistent with the kingdoms is assumed (so a typed position loads)."""
    data = _dealt_json("aetherya")
    _upper = data["kingdoms"][0]
    data["kingdoms"][0] = _upper[0].upper() + _upper[1].upper() + _upper[2:]
    data.pop("turn")
    state = AetheryaGame().state_from_json(data)
    assert state.turn == 4 and state.to_move == 0


def test_every_setup_phase_round_trips_from_the_root():
    """The setup phases (Legends, starting cards, arrangements, territories, tiles, first discard) of every mode
    are valid states: their JSON reloads to the same state."""
    rng = np.random.default_rng(7)
    for spec in ("aetherya(players=3)", "aetherya(mode=objects)", "aetherya(mode=coop,players=4)",
                 "aetherya(mode=solo)"):
        game = load_game(spec)
        state = game.new_root_state()
        seen = set()
        while state.phase not in ("choose",):
            seen.add(state.phase)
            assert game.state_from_json(state.to_json()).to_json() == state.to_json()
            legal = state.legal_actions()
            if state.is_chance_node():
                state.apply_action(state.sample_chance_outcome(rng))
            else:
                state.apply_action(legal[int(rng.integers(len(legal)))])
        assert {"legends", "start", "arrange", "territories", "first-discard"} <= seen


@pytest.mark.parametrize("payload", [{"mode": "foo", "players": 2}, {"mode": "foo", "players": 9}, {"mode": 3}])
def test_an_unknown_mode_names_the_field_and_the_modes(payload):
    """Issue 16: {"mode": "foo", "players": 2} answered 'load the game with mode=foo'."""
    with pytest.raises(InvalidInputError) as info:
        AetheryaGame().parse_state(payload)
    assert info.value.field == "state.mode"
    assert "expected" in str(info.value) and "load the game" not in str(info.value)
    if isinstance(payload["mode"], str):
        assert "expected one of base, objects, coop, solo" in str(info.value)
