"""The Prologue, parts one and two, on positions typed by hand (docs/rules/embers-of-memory.md, EM-50..EM-57)."""

from .helpers import DECK, PROLOGUE, check_zones, play


def ids(cards):
    return [DECK.cards[c].id for c in cards]


def moves(s):
    return [s.action_to_string(a) for a in s.legal_actions()]


def rest(*used):
    """Every memory card not in ``used`` (to put the deck in the discard pile)."""
    return [c.id for c in DECK.memory if c.id not in set(used)]


def part_one(**fields):
    base = {"chapter": "prologue", "part": 1, "turn": "rowan", "phase": "first", "mind": ["C4@0,0"],
            "row": ["C3", "S1a", "G4", "D1b"], "resolve": [{"card": "D1a"}, {"card": "G2b"}, {"card": "S3"}]}
    base.update(fields)
    return PROLOGUE.state_from_json(base)


def part_two(mind, resolve, **fields):
    used = {m.split("@")[0] for m in mind} | {r["card"] for r in resolve} | {c for r in resolve for c in r["cards"]}
    base = {"chapter": "prologue", "part": 2, "turn": "aelin", "phase": "acknowledge", "mind": mind,
            "resolve": [dict(r, faceUp=True) for r in resolve], "discard": rest(*used)}
    base.update(fields)
    return PROLOGUE.state_from_json(base)


def test_EM50_setup_deals_mind_resolve_and_row():
    """EM-50: one Mind card, three face-down Resolve cards, four cards in the memory row; Rowan starts."""
    s = PROLOGUE.new_initial_state(11)
    assert len(s.mind) == 1 and len(s.rows) == 3 and len(s.row) == 4 and len(s.pile) == 35 - 8
    assert s.current_player() == 0 and s.role(0) == "rowan" and s.phase == "first"
    assert not any(r.face_up for r in s.rows) and not s.demons
    check_zones(s)


def test_EM18_EM19_EM51_a_turn_of_part_one():
    """EM-18: add a card, then add or discard another, then draw back to four (EM-19). EM-51: reliving
    (C4 + C3 = 7) flips the first face-down Resolve card."""
    s = part_one()
    assert all(m.startswith("add") for m in moves(s))
    play(s, "add C3@-1,0")
    assert s.rows[0].face_up and not s.rows[1].face_up and s.phase == "second"
    assert "discard G4" in moves(s)
    play(s, "discard G4")
    assert s.phase == "draw" and ids(s.discard) == ["G4"]
    play(s, "chance F1a", "chance F2a")
    assert len(s.row) == 4 and s.turn == 1 and s.phase == "first"  # Aelin's turn


def test_EM52_EM53_winning_part_one_starts_part_two():
    """EM-52: the third face-up Resolve card wins part one at once; EM-53: the memory row and the deck go
    to the discard pile, the Mind stays, and Aelin arranges the Resolve into strength rows."""
    s = part_one(resolve=[{"card": "D1a", "faceUp": True}, {"card": "G2b", "faceUp": True}, {"card": "S3"}])
    play(s, "add C3@-1,0")
    assert s.part == 2 and s.phase == "arrange" and s.current_player() == 1
    assert not s.pile and not s.row and len(s.discard) == 35 - 5
    assert len(moves(s)) == 6 and "arrange S3,D1a,G2b" in moves(s)
    play(s, "arrange S3,D1a,G2b")
    assert ids([r.resolve for r in s.rows]) == ["S3", "D1a", "G2b"] and s.phase == "acknowledge"
    check_zones(s)


def test_EM50_losing_part_one():
    """EM-50: an empty deck at the start of a turn loses; so does a turn with no card that can be added."""
    s = part_one(phase="second", row=["S1a", "G4", "D1b"], discard=rest("C4", "S1a", "G4", "D1b", "D1a", "G2b", "S3"))
    play(s, "discard G4")
    assert s.result == "lost:deck-empty"
    unplaceable = ["C4", "S4", "F4"]  # '#..#' cannot go on C1a@0,0 under D3@-1,-1, nor can '##.#'
    s = part_one(phase="draw", mind=["C1a@0,0", "D3@-1,-1"], row=unplaceable,
                 discard=rest("C1a", "D3", *unplaceable, "C5", "S5", "D1a", "G2b", "S3"))
    assert sorted(a for a, _ in s.chance_outcomes()) == sorted(DECK.card(c, "t").index for c in ("C5", "S5"))
    play(s, "chance C5")
    assert s.result == "lost:no-placement"


def test_EM56_part_two_takes_and_strength_rows():
    """EM-56: take a visible card; at most 7 joins the current row, over 7 is discarded; players alternate,
    Aelin first (EM-57)."""
    s = part_two(["C4@0,0", "S1a@1,1", "S4@-1,-1"],
                 [{"card": "D1a", "cards": []}, {"card": "G2b", "cards": []}, {"card": "S3", "cards": []}])
    play(s, "take C4")
    assert ids(s.rows[0].cards) == ["C4"] and s.turn == 1 and s.phase == "split"  # C4 linked S1a and S4
    play(s, "keep S4")
    assert s.turn == 0 and s.phase == "acknowledge"  # Rowan's turn now
    play(s, "take S4")
    assert ids(s.rows[0].cards) == ["C4"] and "S4" in ids(s.discard)  # 1 + 4 + 4 > 7


def test_EM55_EM56_part_two_ends():
    """EM-56: the third complete row wins, even with the last card of the Mind (in part two only an empty
    Mind at the start of a turn loses, EM-55)."""
    s = part_two(["C4@0,0"], [{"card": "D1a", "cards": ["S5", "F1a"]}, {"card": "G2b", "cards": ["G5"]},
                              {"card": "S3", "cards": []}], completed=2)
    play(s, "take C4")
    assert s.result == "won"
    s = part_two(["C4@0,0"], [{"card": "D1a", "cards": []}, {"card": "G2b", "cards": []},
                              {"card": "S3", "cards": []}])
    play(s, "take C4")
    assert s.result == "lost:mind-empty"


def test_EM54_a_mind_split_during_part_one_is_settled_before_the_first_take():
    """EM-54: part one has no splitting; a Mind left split is settled by Aelin right after arranging."""
    s = part_two(["C4@0,0", "S4@5,5"], [{"card": "D1a", "cards": []}, {"card": "G2b", "cards": []},
                                        {"card": "S3", "cards": []}], phase="arrange")
    play(s, "arrange D1a,G2b,S3")
    assert s.phase == "split"
    play(s, "keep C4")
    assert s.phase == "acknowledge" and s.turn == 1 and ids([e[0] for e in s.mind]) == ["C4"]
