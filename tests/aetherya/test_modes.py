"""Objects and Characters tiles, co-op and solo rules (AE-23..AE-39)."""

from __future__ import annotations

import numpy as np
import pytest

from solver import contract
from solver.aetherya.cards import CELL_NAMES, LETTERS
from solver.aetherya.game import AetheryaGame
from solver.aetherya.state import RING
from solver.aetherya.tiles import TILE_SLUGS, best_stone_value
from solver.errors import IllegalMoveError

from .helpers import advance_chance
from .test_state import K0, K1, build

L = LETTERS.index
K_BATTLE = "pfmd/sHEg/gGDr/oeph"


def objects_state(owned0=(), owned1=(), discard="SH", k0=K0, k1=K1, **extra):
    """Objects-mode state: each family's tiles on its own face-down ring cells, except the ones owned."""
    owned = [list(owned0), list(owned1)]
    territories, kingdoms = [], []
    for seat, kingdom in enumerate([k0, k1]):
        cells = [c for c in RING if kingdom.replace("/", "")[c].islower()]
        free = [t for t in TILE_SLUGS if t not in owned[seat]]
        territories.append({CELL_NAMES[c]: f"{t}@{seat}" for c, t in zip(cells, free)})
        leftover = free[len(cells):]
        extra.setdefault("_discard_tiles", []).extend(f"{t}@{seat}" for t in leftover)
        letters = list(kingdom.replace("/", ""))
        for c in cells[len(free):]:  # the territories whose tiles are owned were revealed
            letters[c] = letters[c].upper()
        kingdoms.append("/".join("".join(letters[i:i + 4]) for i in range(0, 16, 4)))
    tdisc = extra.pop("_discard_tiles")
    extra.setdefault("turn", 4 + 2 * max(len(o) for o in owned))
    data = build(kingdoms, discard, mode="objects", **extra)
    data["tiles"] = {"territories": territories, "owned": [[f"{t}@{s}" for t in owned[s]] for s in range(2)],
                     "discard": tdisc}
    return AetheryaGame(mode="objects").state_from_json(data)


def finish_turn_to(state, seat):
    while state.to_move != seat or state.phase != "choose":
        if state.is_chance_node():
            advance_chance(state, np.random.default_rng(0))
        elif state.phase == "end-turn":
            state.apply_move("end")
        else:
            raise AssertionError(state.phase)


# ---------------------------------------------------------------------- Objects and Characters
def test_tile_taken_or_refused_when_a_territory_is_revealed_AE23():
    """AE-23: revealing (or replacing) a territory offers its tile: taken (revealed, owned) or refused (discarded)."""
    state = objects_state()
    tile = state.territory_tiles[0][0]
    state.apply_move("take")
    state.apply_move("place a1")
    assert state.phase == "tile" and state.pending_tile == tile
    state.apply_move("tile take")
    assert tile in state.owned[0]
    state = objects_state()
    state.apply_move("draw")
    state.apply_action(2000 + L("R"))
    state.apply_move("reveal b1")
    tile = state.pending_tile
    state.apply_move("tile refuse")
    assert tile in state.tile_discard and tile not in state.owned[0]


def test_diplomatic_accord_cancels_the_conflicts_of_its_tribe_AE24():
    """AE-24: an Accord on a Tribe removes every conflict of that Tribe; it is discarded with the card."""
    state = objects_state(owned0=["accord"], k0=K_BATTLE)
    before = state.score(0)
    # b2 Human, c2 Elf, b3 Goblin, c3 Dwarf: conflicts E-D (c2-c3), G-H (b3-b2), G-D (b3-c3)
    assert before.conflicts == -6
    state.apply_move("draw")
    state.apply_action(2000 + L("R"))
    state.apply_move("reveal a1")
    state.apply_move("tile refuse")
    assert "accord c2" in [state.action_to_string(a) for a in state.legal_actions()]
    state.apply_move("accord c2")
    assert state.score(0).conflicts == -4  # only the Elf's conflict is gone
    assert state.accords[0][6] >= 0
    # replacing the Elf discards the Accord with it
    finish_turn_to(state, 1)
    state.apply_move("draw")
    state.apply_action(2000 + L("R"))
    state.apply_move("reveal a1")
    state.apply_move("tile refuse")
    finish_turn_to(state, 0)
    state.apply_move("take")
    state.apply_move("place c2")
    assert state.accords[0][6] == -1 and any(t % 16 == 0 for t in state.tile_discard)


def test_staff_of_command_tames_a_wild_dragon_within_the_cap_AE25():
    """AE-25: the Staff tames a wild Dragon; at most 3 Dragons count as tamed."""
    kingdom = "pfmd/sHEg/gDRr/oeph"  # c3 Dragon: neighbours D b3, E c2, G? no: wild
    state = objects_state(owned0=["staff"], k0=kingdom)
    assert state.score(0).dragons == -3
    state.apply_move("draw")
    state.apply_action(2000 + L("O"))
    state.apply_move("reveal a1")
    state.apply_move("tile refuse")
    state.apply_move("staff c3")
    assert state.score(0).dragons == 3


def test_magic_sword_wins_a_battle_legend_one_against_one_AE26():
    """AE-26: with the Sword discarded, a Battle Legend needs one card of each kind connected."""
    state = objects_state(owned0=["sword"], k0=K_BATTLE, legendRow=["elf-dwarf", "humans-2", "forests-3", "plains-3",
                                                       "goblins-2", "elves-2", "dwarves-2", "four-tribes"])
    state.apply_move("draw")
    state.apply_action(2000 + L("O"))
    state.apply_move("reveal a1")
    state.apply_move("tile refuse")
    moves = [state.action_to_string(a) for a in state.legal_actions()]
    assert "claim elf-dwarf sword" in moves and "claim elf-dwarf" not in moves
    state.apply_move("claim elf-dwarf sword")
    assert 11 in state.held[0] and not any(t % 16 == 2 for t in state.owned[0])


def test_griffin_exchanges_a_territory_tile_AE27():
    """AE-27: the Griffin takes a face-down tile anywhere and lies face up in its place; the owner of that
    kingdom recovers it by revealing the territory."""
    state = objects_state(owned0=["griffin"])
    target = state.territory_tiles[1][0]
    state.apply_move("draw")
    state.apply_action(2000 + L("O"))
    state.apply_move("reveal b1")
    state.apply_move("tile refuse")
    state.apply_move("griffin p1 a1")
    assert target in state.owned[0] and state.face_up_tiles[1] & 1
    assert state.observation(1)["tiles"]["territories"][1]["a1"] == "griffin@0"
    finish_turn_to(state, 1)
    state.apply_move("draw")
    state.apply_action(2000 + L("O"))
    state.apply_move("reveal a1")
    assert state.pending_tile == 3  # griffin of family 0
    state.apply_move("tile take")
    assert 3 in state.owned[1]


def test_divine_hammer_swaps_two_cards_even_locked_AE28():
    """AE-28: the Hammer swaps two face-up cards of different kinds, Portals and Dragons included."""
    kingdom = "pfmd/sOEg/gDRr/oeph"
    state = objects_state(owned0=["hammer"], k0=kingdom)
    state.apply_move("draw")
    state.apply_action(2000 + L("O"))
    state.apply_move("reveal a1")
    state.apply_move("tile refuse")
    state.apply_move("hammer b2 c3")
    assert state.kingdoms[0][5] == L("R") and state.kingdoms[0][10] == L("O")
    assert not any(t % 16 == 4 for t in state.owned[0])


def test_palantir_peek_is_private_and_survives_resampling_AE29():
    """AE-29: the Palantir shows one face-down tile per turn to its owner only."""
    state = objects_state(owned0=["palantir"])
    state.apply_move("draw")
    state.apply_action(2000 + L("O"))
    state.apply_move("reveal a1")
    state.apply_move("tile refuse")
    state.apply_move("peek p1 b1")
    assert not any(state.action_to_string(a).startswith("peek") for a in state.legal_actions())
    truth = f"{TILE_SLUGS[state.territory_tiles[1][1] % 16]}@1"
    assert state.observation(0)["tiles"]["territories"][1]["b1"] == truth
    assert state.observation(1)["tiles"]["territories"][1]["b1"] == "?"
    rng = np.random.default_rng(0)
    for _ in range(10):
        assert state.resample_from_observation(0, rng).territory_tiles[1][1] == state.territory_tiles[1][1]


def test_power_stones_keep_the_units_digit_AE30():
    """AE-30: the Stones score the units digit of their sum on the Legends line."""
    state = objects_state(owned0=["stone1", "stone2", "stone3", "stone4"])
    assert state.stones(0) == 0 and state.score(0).legends == 0
    state = objects_state(owned0=["stone2", "stone3", "stone4"])
    assert state.score(0).legends == 9
    assert best_stone_value(0, [1, 2, 3, 4]) == (9, [2, 3, 4])
    assert best_stone_value(4, [1, 2]) == (7, [1, 2])
    assert best_stone_value(9, [1]) == (9, [])


def test_trafficker_and_thief_AE31_AE32():
    """AE-31: the Trafficker swaps one of your Stones for an opponent's non-Stone tile.
    AE-32: the Thief steals an Object only (not the Griffin, the Trafficker or the Thief)."""
    state = objects_state(owned0=["trafficker", "thief", "stone1"], owned1=["griffin", "palantir", "stone4"])
    state.apply_move("draw")
    state.apply_action(2000 + L("O"))
    state.apply_move("reveal a1")
    state.apply_move("tile refuse")
    moves = [state.action_to_string(a) for a in state.legal_actions()]
    assert "thief p1 palantir" in moves and "thief p1 stone4" in moves and "thief p1 griffin" not in moves
    assert "trafficker stone1 p1 griffin" in moves and "trafficker stone1 p1 stone4" not in moves
    state.apply_move("trafficker stone1 p1 griffin")
    assert state.stones(1) == 5 and any(t % 16 == 3 for t in state.owned[0])
    state.apply_move("thief p1 stone4")
    assert state.stones(0) == 4 and state.stones(1) == 1


# ---------------------------------------------------------------------- co-op
def coop_state(**extra):
    data = build([K0, K1], ["SH", "D"], mode="coop", legendRow=["human-elf", "forests-3", "plains-3", "goblins-2"],
                 **extra)
    return AetheryaGame(mode="coop").state_from_json(data)


def test_coop_two_discard_piles_AE36():
    """AE-36: take from either discard pile; discard onto either."""
    state = coop_state()
    assert {state.action_to_string(a) for a in state.legal_actions()} == {"take", "take2", "draw"}
    state.apply_move("take2")
    state.apply_move("place a1 pile2")
    assert state.discards == [[L("S"), L("H")], [L("P")]]


def test_coop_legends_are_written_mandatorily_into_the_box_AE37():
    """AE-37: every Legend the kingdom meets is written at the end of the turn, into the box (no points)."""
    state = coop_state()
    state.apply_move("take2")  # a Dwarf
    state.apply_move("place a1")
    assert state.phase == "refill" and state.box == [1]  # human-elf (b2 H next to c2 E)
    advance_chance(state, np.random.default_rng(0))
    assert len(state.row) == 4 and state.to_move == 1
    assert state.score(0).legends == 0


def test_coop_group_discard_when_nobody_wrote_AE38():
    """AE-38: after a round without a Legend written, the group discards a face-up Legend (objective grows)."""
    data = build([K0, K1], ["SH", "D"], mode="coop", legendRow=["goblin-elf", "forests-3", "plains-3", "goblins-2"])
    data["toMove"] = 1
    state = AetheryaGame(mode="coop").state_from_json(data)
    state.apply_move("draw")
    state.apply_action(2000 + L("R"))
    state.apply_move("reveal a1")
    assert state.phase == "legend-discard" and state.to_move == 1
    state.apply_move("discard-legend plains-3")
    advance_chance(state, np.random.default_rng(0))
    assert state.legend_discard == [12] and state.to_move == 0
    assert state.returns()[0] == min(state.score(0).total, state.score(1).total) - 4


def test_coop_ends_when_the_draw_pile_is_exhausted_AE39():
    """AE-39: the co-op game ends when the draw pile is exhausted (no reshuffle); team score = lowest - objective."""
    data = build([K0, K1], ["SH", "D"], mode="coop", legendRow=["goblin-elf", "forests-3", "plains-3", "goblins-2"])
    pile = data["drawPile"]
    data["drawPile"], data["discard"] = pile[0], ["SH" + pile[1:], "D"]
    state = AetheryaGame(mode="coop").state_from_json(data)
    state.apply_move("draw")
    state.apply_action(state.legal_actions()[0])
    state.apply_move("reveal a1")
    assert state.is_terminal()
    assert state.returns() == [float(min(state.score(0).total, state.score(1).total))] * 2


# ---------------------------------------------------------------------- solo
SOLO_ROWS_JSON = [["human-elf", "humans-2", "elves-2", "dwarves-2"],
                  ["goblins-2", "four-tribes", "plains-3", "swamps-3", "forests-3"],
                  ["human-dwarf", "goblin-human", "goblin-elf", "goblin-dwarf", "elf-dwarf", "mountains-3"]]


def solo_state(kingdom="pfmd/sHEg/gDGr/oeph", discard="SH", **extra):
    data = build([kingdom], discard, mode="solo", legendRow=[], ageRows=SOLO_ROWS_JSON, **extra)
    data.pop("legends")
    return AetheryaGame(mode="solo").state_from_json(data)


def test_solo_draw_two_keep_one_AE33():
    """AE-33: draw two (both from the pile, or the discard top and the pile top), discard one, play the other;
    a kept discard card must be placed."""
    state = solo_state()
    assert {state.action_to_string(a) for a in state.legal_actions()} == {"draw2", "take+draw"}
    state.apply_move("take+draw")
    state.apply_action(2000 + L("O"))
    assert {state.action_to_string(a) for a in state.legal_actions()} == {"keep H", "keep O"}
    state.apply_move("keep H")
    assert state.discards[0][-1] == L("O")
    assert not any(state.action_to_string(a).startswith("reveal") for a in state.legal_actions())
    state = solo_state()
    state.apply_move("draw2")
    state.apply_action(2000 + L("O"))
    state.apply_action(2000 + L("R"))
    state.apply_move("keep R")
    assert any(state.action_to_string(a).startswith("reveal") for a in state.legal_actions())


def test_solo_age_fails_without_all_legends_AE34():
    """AE-34: an Age that ends before all its Legends are written ends the campaign with 0."""
    state = solo_state(kingdom="PFMD/SHEG/GDGR/OEPh", turn=11)
    state.apply_move("draw2")
    state.apply_action(state.legal_actions()[0])
    state.apply_action(state.legal_actions()[0])
    state.apply_action(state.legal_actions()[0])
    state.apply_move("reveal d4")
    assert state.is_terminal() and state.failed and state.returns() == [0.0]


def test_solo_age_success_then_swap_block_and_new_age_AE35():
    """AE-35: a finished Age scores kingdom - objective; the Age 2/3 swap, the kept 2x2 and 12 new territories."""
    state = solo_state(kingdom="PFMD/SHEG/GDGR/OEPh", turn=11, written=["human-elf", "humans-2", "elves-2", "dwarves-2"])
    state.apply_move("draw2")
    state.apply_action(state.legal_actions()[0])
    state.apply_action(state.legal_actions()[0])
    state.apply_action(state.legal_actions()[0])
    state.apply_move("reveal d4")
    assert not state.failed and state.age == 1 and state.phase == "swap"
    board = state.score(0).total
    assert state.age_scores == [board - 8]
    state.apply_move("swap plains-3 mountains-3")
    assert 14 in state.rows[1] and 12 in state.rows[2]
    assert len(state.legal_actions()) == 9 and state.phase == "block"
    state.apply_move("block a1")
    assert [state.kingdoms[0][c] for c in (5, 6, 9, 10)] == [L("P"), L("F"), L("S"), L("H")]
    advance_chance(state, np.random.default_rng(0))
    assert state.phase == "choose" and bin(state.hidden[0]).count("1") == 12
    assert sum(state.pile) == 40 - 16 - 1
    state.check_invariants()


def test_solo_age_ends_when_the_pile_is_exhausted_AE34():
    """AE-34: the Age also ends when the draw pile is exhausted; the territories are revealed."""
    data_state = solo_state(written=["human-elf", "humans-2", "elves-2", "dwarves-2"])
    data = data_state.to_json()
    pile = data["drawPile"]
    data["drawPile"], data["discard"] = pile[:1], ["SH" + pile[1:]]
    state = AetheryaGame(mode="solo").state_from_json(data)
    assert {state.action_to_string(a) for a in state.legal_actions()} == {"take+draw"}
    state.apply_move("take+draw")
    state.apply_action(state.legal_actions()[0])
    state.apply_action(state.legal_actions()[0])
    state.apply_action(state.legal_actions()[-1])
    assert state.age == 1 and state.hidden[0] == 0 and state.phase == "swap"


def test_solo_the_last_territory_ends_the_age_before_any_legend_is_written_AE34():
    """AE-34: turning the last face-down card ends the Age at once, before the turn's claims: the Elf placed on
    d4 completes elves-2, but the Age is over (a failure) and the Legend is never offered."""
    state = solo_state(kingdom="PFMD/SHEG/GDGP/OPEh", turn=11, written=["human-elf", "humans-2", "dwarves-2"])
    state.apply_move("draw2")
    state.apply_action(2000 + L("E"))
    state.apply_action(2000 + L("P"))
    state.apply_move("keep E")
    state.apply_move("place d4")
    assert state.is_terminal() and state.failed and state.returns() == [0.0]
    assert 5 in state.claimable(0)  # elves-2 (number 5) is met by the final kingdom: too late


def test_solo_single_draw_then_the_age_ends_after_the_turns_claims_AE33_AE34():
    """AE-33: with one card in the pile and an empty discard the turn is a single ``draw`` (no ``keep``), played
    as a drawn card; AE-34: the pile is then exhausted and the Age ends after that turn's claims, so the Legend
    the card completes is written and the Age is passed."""
    state = solo_state(kingdom="PFMD/SHEG/GDGP/OPeh", turn=11, written=["human-elf", "humans-2", "dwarves-2"])
    state.pile = [0] * len(state.pile)
    state.pile[L("E")] = 1
    state.discards[0] = []
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["draw"]
    state.apply_move("draw")
    assert state.chance_outcomes() == [(2000 + L("E"), 1.0)]
    state.apply_action(2000 + L("E"))
    assert state.phase == "place" and state.hold_from == "draw"
    assert any(state.action_to_string(a).startswith("reveal") for a in state.legal_actions())
    state.apply_move("place c1")
    assert {state.action_to_string(a) for a in state.legal_actions()} == {"claim elves-2", "end"}
    state.apply_move("claim elves-2")
    assert not state.failed and state.age == 1 and state.phase == "swap" and state.hidden[0] == 0


def test_solo_claim_only_from_the_current_age():
    state = solo_state()
    state.apply_move("draw2")
    state.apply_action(2000 + L("O"))
    state.apply_action(2000 + L("R"))
    state.apply_move("keep O")
    state.apply_move("reveal a1")
    moves = {state.action_to_string(a) for a in state.legal_actions()}
    assert "claim human-elf" in moves and "claim four-tribes" not in moves
    state.apply_move("claim human-elf")
    assert state.written == [1] and state.phase == "choose"
    with pytest.raises(IllegalMoveError):
        state.apply_move("claim humans-2")


def test_tile_family_files_AE40(tmp_path):
    """AE-40: the default family is one tile of each kind (not the printed family); other families load and are checked."""
    import json as _json
    from solver.aetherya.tiles import load_families, parse_tile_file
    from solver.errors import InvalidInputError
    assert load_families("default") == (tuple(range(12)),)
    path = tmp_path / "fam.json"
    path.write_text(_json.dumps({"format": "aetherya-tiles/1", "families": [["griffin"] * 12, ["stone4"] * 12]}))
    game = AetheryaGame(mode="objects", tiles=str(path))
    state = game.new_initial_state(0)
    assert sorted({t % 16 for t in state.expected_tiles()}) == [3, 9]
    with pytest.raises(InvalidInputError, match="tiles"):
        parse_tile_file({"format": "aetherya-tiles/1", "tiles": ["griffin"] * 11})
    with pytest.raises(InvalidInputError):
        parse_tile_file({"format": "aetherya-tiles/1", "tiles": ["griffin"] * 11 + ["dragon"]})


@pytest.mark.parametrize("kingdom, board, met", [("FPHF/MODE/GMRS/MFDh", 8, False), ("EGPD/FODM/ERPM/MDSh", 9, True)])
def test_solo_age_objective_is_strictly_greater_and_missing_it_is_no_failure_AE34(kingdom, board, met):
    """AE-34: the Age objective is a kingdom strictly greater than its Legends' points (8 here): 8 misses it
    (Age score 0), 9 meets it (score 1); either way, with every Legend written, the campaign goes on."""
    state = solo_state(kingdom=kingdom, turn=11, written=["human-elf", "humans-2", "elves-2", "dwarves-2"])
    state.apply_move("draw2")
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    state.apply_move("reveal d4")
    assert not state.failed and state.phase == "swap" and state.age_scores == [board - 8]
    sheet = contract.score(AetheryaGame(mode="solo"), state)["ages"]
    assert sheet == [{"age": 1, "legends": ["human-elf", "humans-2", "elves-2", "dwarves-2"], "objective": 8,
                      "kingdom": board, "score": board - 8, "objectiveMet": met}]
