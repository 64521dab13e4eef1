"""Chapter One, rule by rule, on positions typed by hand (ids refer to docs/rules/embers-of-memory.md).

Default-deck patterns used (top-left, top-right, bottom-left, bottom-right): C1a '#...', C1b '##..',
C3 '.#..', C4 '#..#', D2b '..##', D3 '...#', F4 '#..#', S1a '#...', S4 '#..#'.
"""

import pytest

from solver.errors import IllegalMoveError
from solver.game import CHANCE_PLAYER

from .helpers import DECK, check_zones, cid, one, play, state


def ids(cards):
    return [DECK.cards[c].id for c in cards]


def moves(s):
    return [s.action_to_string(a) for a in s.legal_actions()]


def test_EM10_EM12_observe_draws_and_demons_go_to_the_demon_row():
    """EM-10: the first draw is compulsory (a chance node over every card left, demons included); Fenrys
    then draws or stops. EM-12: on stopping, demons leave the memory row for the demon row."""
    s = state(phase="draw", row=[])
    assert s.current_player() == CHANCE_PLAYER
    outcomes = s.chance_outcomes()
    assert len(outcomes) == len(s.pile) and cid("Cd") in {a for a, _ in outcomes}
    assert all(abs(p - 1 / len(s.pile)) < 1e-12 for _, p in outcomes)
    play(s, "chance Cd")
    assert s.phase == "observe" and moves(s) == ["draw", "stop"]
    play(s, "draw", "chance C1a", "stop")
    assert ids(s.row) == ["C1a"] and [ids([d])[0] for d, _ in s.demons] == ["Cd"]
    assert s.phase == "blink" and moves(s) == ["add C1a@1,1"]  # EM-14: no discard before the first add
    check_zones(s)


def test_EM10_no_draw_from_an_empty_deck():
    """EM-10: with the deck empty Fenrys can only stop."""
    everything = [c.id for c in DECK.cards if c.id not in {"C4", "C1a", "D1a", "G2b", "S3", "F5"}]
    s = state(phase="observe", row=["C1a"], discard=everything)
    assert not s.pile and moves(s) == ["stop"]


def test_EM41_fenrys_cannot_add_any_card():
    """EM-41: the top layer of C1a@0,0 under D3@-1,-1 has one blocked quarter with clear quarters around
    it; no two-blocked card but '.##.' fits there, so C4 and S4 cannot be added: Aelin breaks."""
    s = state(phase="observe", mind=["C1a@0,0", "D3@-1,-1"], row=["C4", "S4"])
    play(s, "stop")
    assert s.result == "lost:no-placement" and s.is_terminal() and s.returns() == [0.0, 0.0]


def test_EM14_after_the_first_add_cards_may_be_discarded():
    """EM-14: once one card is added, each other card is added or discarded, in any order."""
    s = state(phase="blink", row=["S1a", "C1b"])
    assert moves(s) and all(m.startswith("add") for m in moves(s))
    play(s, "add S1a@1,1")
    assert "discard C1b" in moves(s)
    play(s, "discard C1b")
    assert s.turn == 1 and s.phase == "acknowledge" and ids(s.discard) == ["C1b"]


def test_EM13_EM20_EM21_taint_banish_and_reveal():
    """EM-13: a discarded Chains card is tainted under the Chains demon. EM-20: reliving Chains (C4 + C3 = 7)
    banishes the demon with its tainted cards to the discard pile. EM-21: Aelin may then turn a face-down
    Chains Resolve card; she decides, even on Fenrys's turn."""
    resolve = one()["resolve"]
    resolve[2] = {"card": "C5", "faceUp": False, "cards": []}
    s = state(phase="blink", row=["S1a", "C3", "C1b"], demons=[{"demon": "Cd", "tainted": ["C2b"]}], resolve=resolve)
    play(s, "add S1a@1,1", "discard C1b")
    assert ids(s.demons[0][1]) == ["C2b", "C1b"] and not s.discard
    play(s, "add C3@-1,0")
    assert s.demons == [] and ids(s.discard) == ["Cd", "C2b", "C1b"]
    assert s.phase == "reveal" and s.current_player() == 1 and moves(s) == ["reveal 3", "pass"]
    assert s.observation(0)["pending"] == {"suit": "Chains"}
    play(s, "reveal 3")
    assert s.rows[2].face_up and s.phase == "acknowledge"
    assert s.observation(0)["resolve"][2]["card"] == "C5"
    check_zones(s)


def test_EM22_the_reveal_question_is_asked_even_without_a_matching_card():
    """EM-22: after a relive Aelin is asked whenever she has a face-down card, so the question itself tells
    Fenrys nothing; here she holds no Chains card and can only pass."""
    s = state(phase="blink", row=["C3"])
    play(s, "add C3@-1,0")
    assert s.phase == "reveal" and moves(s) == ["pass"]


def test_EM15_no_relive_without_exactly_seven():
    """EM-15: C4 + C1b = 5 is no relive; nothing happens to the Chains demon."""
    s = state(phase="blink", row=["C1b"], demons=[{"demon": "Cd", "tainted": []}])
    play(s, "add C1b@1,1")
    assert [ids([d]) for d, _ in s.demons] == [["Cd"]] and s.phase == "acknowledge"


def test_EM16_EM23_EM8_aelin_takes_a_card_and_the_mind_splits():
    """EM-16: taking C4 (1 + 4 <= 7) adds it to the current row; EM-23: Aelin is asked about turning her
    Resolve card (here D1a, not Chains: she can only pass); EM-8: C4 was the link between S1a and C3, so
    the Mind splits and Aelin keeps a section; the other is discarded."""
    s = state(turn="aelin", phase="acknowledge", mind=["C4@0,0", "S1a@1,1", "C3@-1,0"], added=True)
    assert sorted(moves(s)) == ["take C3", "take C4", "take S1a"]
    play(s, "take C4")
    assert ids(s.rows[0].cards) == ["C4"] and s.phase == "reveal" and moves(s) == ["pass"]
    play(s, "pass")
    assert s.phase == "split" and s.current_player() == 1
    assert sorted(moves(s)) == ["keep C3", "keep S1a"]
    play(s, "keep C3")
    assert ids(s.discard) == ["S1a"] and ids([e[0] for e in s.mind]) == ["C3"]
    assert s.phase == "draw" and s.turn == 0  # Speak: 5 is not 7, so Fenrys plays


def test_EM16_EM24_over_seven_is_discarded_and_bounds_the_resolve():
    """EM-16: 1 (D1a) + 3 + 5 > 7, so S5 is discarded; EM-13: tainted under the Stags demon; EM-24: Fenrys
    learns the face-down Resolve card is at least 8 - 3 - 5 = 0 -> no news, while with row [C3] and S4
    taken the bound is 1."""
    s = state(turn="aelin", phase="acknowledge", mind=["C4@0,0", "S4@1,1"], added=True,
              demons=[{"demon": "Sd", "tainted": []}])
    s.rows[0].cards.append(cid("C3"))
    play(s, "take S4")
    assert s.rows[0].cards == [cid("C3")] and ids(s.demons[0][1]) == ["S4"]
    assert s.rows[0].at_least == 1
    assert s.observation(0)["resolve"][0]["atLeast"] == 1


def test_EM17_speak_completes_the_row():
    """EM-17: 1 (D1a) + 4 + 2 = 7 completes the first row; the second becomes current."""
    s = state(turn="aelin", phase="acknowledge", mind=["C4@0,0", "D2b@-1,-1"], added=True)
    s.rows[0].cards.append(cid("F4"))
    play(s, "take D2b", "pass")
    assert s.completed == 1 and s.phase == "draw"


def _end_of_day(day, **extra):
    rows = [{"card": "D1a", "cards": ["S5", "F1a"]}, {"card": "G2b", "cards": ["G5"]},
            {"card": "S3", "cards": ["C4"]}, {"card": "F5", "cards": []}]
    return state(day=day, turn="aelin", phase="acknowledge", mind=["D2b@0,0", "S1a@1,1"], added=True,
                 resolve=rows, completed=3, **extra)


def test_EM31_EM32_EM34_days_end():
    """EM-31: after the fourth row the day ends: Mind and rows are discarded, Stags cards (S1a in the Mind,
    S5 and S3 in the rows) are tainted under
    the Stags demon and then corrupted (out of the game), demons go back with the discard pile into the deck.
    EM-32: the new day's Mind card and four Resolve cards are dealt from the memory cards only."""
    s = _end_of_day(1, demons=[{"demon": "Sd", "tainted": ["S2b"]}], discard=["G1a"])
    play(s, "take D2b", "pass")
    assert s.day == 2 and s.phase == "deal"
    assert ids(s.box) == ["S2b", "S1a", "S5", "S3"]
    assert not s.discard and not s.demons and not s.mind and cid("Sd") in s.pile and cid("G1a") in s.pile
    assert all(not DECK.cards[a].is_demon for a, _ in s.chance_outcomes())
    play(s, "chance C1a", "chance C2a", "chance C2b", "chance C3", "chance C5")
    assert s.mind == [(cid("C1a"), 0, 0)] and ids([r.resolve for r in s.rows]) == ["C2a", "C2b", "C3", "C5"]
    assert s.phase == "arrange" and s.current_player() == 1  # EM-34: Aelin places her new Resolve column
    play(s, "arrange C5,C2a,C3,C2b")
    assert ids([r.resolve for r in s.rows]) == ["C5", "C2a", "C3", "C2b"]
    assert s.phase == "draw" and s.turn == 0 and s.completed == 0
    check_zones(s)


def test_EM45_surviving_the_third_day_wins():
    """EM-45: when the third day ends, the players win."""
    s = _end_of_day(3)
    play(s, "take D2b", "pass")
    assert s.result == "won" and s.returns() == [1.0, 1.0]


def test_EM25_EM42_taking_the_last_card_breaks_aelin():
    """EM-42 (timing EM-25): the Mind is checked before Speak, so taking the last card loses even though it
    would complete the fourth row."""
    s = _end_of_day(1)
    s.mind = [(cid("D2b"), 0, 0)]
    play(s, "take D2b", "pass")
    assert s.result == "lost:mind-empty"


def test_EM43_not_enough_cards_for_a_new_day():
    """EM-43: every memory card of the day but C4 is tainted and corrupted; with C1a from the discard pile
    only two memory cards are left to shuffle, too few for the new Mind and Resolve."""
    kept = {"D2b", "S1a", "D1a", "S5", "F1a", "G2b", "G5", "S3", "C4", "F5", "C1a"}
    box = [c.id for c in DECK.memory if c.id not in kept]
    demons = [{"demon": d, "tainted": []} for d in ("Dd", "Sd", "Fd", "Gd")]
    s = _end_of_day(1, box=box, demons=demons, discard=["Cd", "C1a"])
    play(s, "take D2b", "pass")
    assert s.result == "lost:setup-short"
    check_zones(s)


def test_EM40_an_empty_deck_at_the_start_of_fenrys_turn():
    """EM-40: Aelin's turn ends with the deck empty: Aelin breaks when Fenrys's turn starts."""
    used = {"C4", "S1a", "D1a", "G2b", "S3", "F5"}
    s = state(turn="aelin", phase="acknowledge", mind=["C4@0,0", "S1a@1,1"], added=True,
              discard=[c.id for c in DECK.cards if c.id not in used])
    play(s, "take S1a", "pass")
    assert s.result == "lost:deck-empty"


def test_EM9_a_discarded_section_can_reveal_another_split():
    """EM-9: F4 lies exactly under S4 (same pattern). Keeping C4 discards S4 (tainted under the Stags
    demon), which uncovers F4: the Mind is split again and Aelin chooses again."""
    s = state(phase="split", added=True, row=["G3"], mind=["C4@0,0", "F4@5,5", "S4@5,5"],
              demons=[{"demon": "Sd", "tainted": []}])
    assert sorted(moves(s)) == ["keep C4", "keep S4"]
    play(s, "keep C4")
    assert ids(s.demons[0][1]) == ["S4"]
    assert s.phase == "split" and sorted(moves(s)) == ["keep C4", "keep F4"]
    play(s, "keep F4")
    assert ids(s.discard) == ["C4"] and s.phase == "blink" and s.turn == 0  # Fenrys continues his Blink


def test_EM8_keep_accepts_any_card_of_the_section():
    """The move 'keep X' may name any visible card of the section: 'keep F4' is 'keep C4,F4'. (S4 lies
    exactly under F4, same pattern, so it is hidden and stays with the kept section.)"""
    s = state(phase="split", added=True, row=["G3"], mind=["C4@0,0", "S4@1,1", "C3@-1,2", "G4@3,0", "F4@1,1"])
    assert sorted(moves(s)) == ["keep C3", "keep C4,F4", "keep G4"]
    assert s.parse_move("keep F4") == s.parse_move("keep C4,F4") == s.parse_move("keep C4")
    play(s, "keep F4")
    assert sorted(ids(s.discard)) == ["C3", "G4"] and ids([e[0] for e in s.mind]) == ["C4", "S4", "F4"]


def test_illegal_moves_are_refused_with_the_move_quoted():
    """A move the rules forbid raises IllegalMoveError quoting it; the state is unchanged."""
    s = state(phase="blink", row=["C1b"])
    before = s.to_json()
    with pytest.raises(IllegalMoveError) as err:
        s.apply_move("add C1b@0,0")
    assert "add C1b@0,0" in str(err.value)
    with pytest.raises(IllegalMoveError):
        s.apply_move("discard C1b")  # EM-14: the first card must be added
    assert s.to_json() == before


def test_EM34_aelin_orders_her_resolve_before_fenrys_plays():
    """EM-34: 'Deal four cards to Aelin. Without showing Fenrys, Aelin places them face down in a vertical
    column': a new game (and each new day) starts with Aelin choosing the order of her four Resolve cards (24
    orders, top row first); Fenrys sees none of them; then Fenrys's turn starts with a draw."""
    from .helpers import GAME
    s = GAME.new_initial_state(4)
    assert s.phase == "arrange" and s.current_player() == 1 and len(s.legal_actions()) == 24
    dealt = ids([r.resolve for r in s.rows])
    assert all(r["card"] == "?" for r in s.observation(0)["resolve"])
    wanted = [dealt[3], dealt[1], dealt[0], dealt[2]]
    play(s, "arrange " + ",".join(wanted))
    assert ids([r.resolve for r in s.rows]) == wanted
    assert s.phase == "draw" and s.current_player() == CHANCE_PLAYER and s.turn == 0
    check_zones(s)
