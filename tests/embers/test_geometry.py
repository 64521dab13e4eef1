"""Adding cards, overlap, visibility, reliving and splitting, on hand-checked Minds (docs/rules/embers-of-memory.md).

Patterns of the default deck used here (top-left, top-right, bottom-left,
bottom-right; '#' blocked): C1a '#...', C2a '###.', C2b '#.#.', C3 '.#..',
C4 '#..#', C5 '##.#', D3 '...#', F4 '#..#', G3 '...#', G4 '.##.', S4 '#..#'.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.embers import mind as M
from solver.embers.cards import load_deck, pattern_text

DECK = load_deck()


def card(card_id):
    return DECK.card(card_id, "test").index


def mind_of(*entries):
    return [(card(c), x, y) for c, x, y in entries]


def legal(mind, *row):
    return {(DECK.cards[c].id, x, y) for c, x, y in M.legal_placements(DECK, mind, [card(r) for r in row])}


def test_default_deck_patterns_used_here():
    """EM-1: the patterns the hand-checked cases below rely on."""
    expected = {"C1a": "#...", "C2a": "###.", "C2b": "#.#.", "C3": ".#..", "C4": "#..#", "C5": "##.#",
                "D3": "...#", "F4": "#..#", "G3": "...#", "G4": ".##.", "S4": "#..#"}
    assert {k: pattern_text(DECK.card(k, "t").blocked) for k in expected} == expected


def test_EM4_EM5_placements_on_one_card_by_hand():
    """EM-3/EM-4/EM-5: C4 '#..#' at (0,0). A '#...' card must put its blocked top-left on a blocked
    quarter, (0,0) or (1,1); at (0,0) its clear bottom-right would lie on C4's blocked one, so only (1,1).
    A '...#' card fits only at (-1,-1). An identical '#..#' card fits exactly on top, or corner to corner."""
    mind = mind_of(("C4", 0, 0))
    assert legal(mind, "C1a") == {("C1a", 1, 1)}
    assert legal(mind, "D3") == {("D3", -1, -1)}
    assert legal(mind, "F4") == {("F4", -1, -1), ("F4", 0, 0), ("F4", 1, 1)}
    assert legal(mind, "C1a", "D3", "F4") == legal(mind, "C1a") | legal(mind, "D3") | legal(mind, "F4")


def test_EM3_a_card_must_overlap_a_card():
    """EM-3: an empty Mind has no legal placement; no legal placement is merely adjacent."""
    assert M.legal_placements(DECK, [], [card("C4")]) == []
    mind = mind_of(("C4", 0, 0))
    for _, x, y in M.legal_placements(DECK, mind, [c.index for c in DECK.memory]):
        assert abs(x) <= 1 and abs(y) <= 1


def test_EM4_matching_uses_the_top_segment():
    """EM-4/EM-6: after S4 '#..#' goes on top of C4 at (1,1), the quarter (1,1) shows S4's blocked top-left,
    the quarter (2,2) S4's blocked bottom-right: a '#...' card now also fits at (2,2)."""
    mind = mind_of(("C4", 0, 0), ("S4", 1, 1))
    assert ("C1a", 2, 2) in legal(mind, "C1a")
    assert ("C1a", 1, 1) not in legal(mind, "C1a")  # its clear bottom-right would cover S4's blocked one


def _top(mind):
    top = {}
    for c, x, y in mind:
        b = DECK.cards[c].blocked
        for s, (dx, dy) in enumerate(((0, 0), (1, 0), (0, 1), (1, 1))):
            top[(x + dx, y + dy)] = bool(b >> s & 1)
    return top


def _rule_check(top, blocked, x, y):
    overlaps = [(bool(blocked >> s & 1), top[(x + dx, y + dy)])
                for s, (dx, dy) in enumerate(((0, 0), (1, 0), (0, 1), (1, 1))) if (x + dx, y + dy) in top]
    return bool(overlaps) and all(a == b for a, b in overlaps) and any(a and b for a, b in overlaps)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 34), st.integers(-2, 2), st.integers(-2, 2)), min_size=1, max_size=8,
                unique_by=lambda t: t[0]),
       st.lists(st.integers(0, 34), min_size=1, max_size=6, unique=True))
def test_EM3_EM4_EM5_every_position_checked_against_the_rules(mind, row):
    """EM-3/EM-4/EM-5: the decoded kernel placements are exactly the positions the three rules allow."""
    found = set(M.legal_placements(DECK, mind, row))
    top = _top(mind)
    for c in row:
        for x in range(-5, 6):
            for y in range(-5, 6):
                assert ((c, x, y) in found) == _rule_check(top, DECK.cards[c].blocked, x, y)


def test_EM7_overlap_needs_a_shared_quarter():
    """EM-7: cards two quarters apart are adjacent, not overlapping; one quarter apart diagonally they overlap."""
    assert M.group_strength(DECK, mind_of(("C3", 0, 0), ("C4", 2, 0)), 1) == 4
    assert M.group_strength(DECK, mind_of(("C3", 0, 0), ("C4", 1, 1)), 1) == 7


def test_EM11_visibility():
    """EM-11: a card is visible while one of its quarters is uncovered; an exact cover or two
    cards covering all four quarters hide it."""
    assert M.visible_cards(mind_of(("C4", 0, 0), ("F4", 0, 0))) == [card("F4")]
    assert M.visible_cards(mind_of(("C4", 0, 0), ("F4", 1, 1))) == [card("C4"), card("F4")]
    hidden = mind_of(("C3", 0, 0), ("C4", -1, 0), ("F4", 1, 0))  # C4 covers the left column, F4 the right one
    assert M.visible_cards(hidden) == [card("C4"), card("F4")]


def test_EM15_relive_by_hand():
    """EM-15: a relive is a same-suit group, connected by overlap, containing the card just added, worth exactly 7."""
    assert M.relives(DECK, mind_of(("C3", 0, 0), ("C4", 1, 0)))  # 3 + 4
    assert not M.relives(DECK, mind_of(("C3", 0, 0), ("C4", 2, 0)))  # adjacent only
    # every connected same-suit card counts: 3 + 1 + 4 = 8, although 3 + 4 would be 7
    assert not M.relives(DECK, mind_of(("C3", 0, 0), ("C1a", 1, 1), ("C4", -1, 0)))
    # a chain of the same suit connects: C3 - C2b - C2a, 3 + 2 + 2
    assert M.relives(DECK, mind_of(("C3", 0, 0), ("C2b", 1, 0), ("C2a", 2, 0)))
    # another suit does not carry the chain: C3 and C4 are linked only through G4
    assert not M.relives(DECK, mind_of(("C3", 0, 0), ("G4", 1, 0), ("C4", 2, 0)))
    # only the group of the card just added counts (C3 + C4 are 7, but the top card is a Glass card)
    assert not M.relives(DECK, mind_of(("C3", 0, 0), ("C4", 1, 0), ("G4", 2, 0)))


def test_EM15_covered_cards_count_for_reliving():
    """EM-15: C2a is hidden under G4, yet C5 overlaps it (they share quarters): 2 + 5 = 7."""
    mind = mind_of(("C2a", 0, 0), ("G4", 0, 0), ("C5", 1, 0))
    assert card("C2a") not in M.visible_cards(mind)
    assert M.relives(DECK, mind)
    assert sorted(M.same_suit_group(DECK, mind, 2)) == sorted([card("C2a"), card("C5")])


def test_EM8_split_counts_only_visible_cards():
    """EM-8: A-B-C is a chain through B; once B is covered by E and F (and C), only visible cards
    count, and the Mind falls into three sections {C4, G4}, {C3}, {F4}."""
    mind = mind_of(("C4", 0, 0), ("S4", 1, 1), ("C3", 2, 2), ("G4", 0, 1), ("F4", 2, 0))
    assert card("S4") not in M.visible_cards(mind)
    parts = M.sections(mind)
    assert parts == [[card("C4"), card("G4")], [card("C3")], [card("F4")]]
    assert len(M.sections(mind_of(("C4", 0, 0), ("S4", 1, 1), ("C3", 2, 2)))) == 1


def test_render_shows_the_top_layer():
    """The text rendering shows top segments: '#' blocked, '.' clear."""
    assert M.render(DECK, mind_of(("C4", 0, 0), ("C1a", 1, 1))) == ["#.", ".#.", " .."]


@pytest.mark.parametrize("bad", [[(0, 0, 0), (0, 70, 0)]])
def test_a_mind_wider_than_the_bitboards_is_rejected(bad):
    """The kernels refuse Minds wider than 60 quarters instead of answering wrongly."""
    with pytest.raises(ValueError):
        M.legal_placements(DECK, bad, [1])
