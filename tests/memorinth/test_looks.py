"""A Memorinth card entered by what it shows (issue 22, MR-30): the spelling ``sun-NES-R-gN`` round trips for every
side, malformed ones are refused naming the field and the value, a real table's deal and reveals take it (cards
alike are one choice and never have to be told apart), and the old numbers keep working."""

from __future__ import annotations

import pytest

from solver.errors import IllegalMoveError, InvalidMoveError, UnknownCardError
from solver.memorinth import looks
from solver.memorinth.deck import load_deck
from solver.memorinth.game import MemorinthGame
from solver.memorinth.layout import DEAL_CARD

DECK = load_deck("default")
#: two forest cards of the default deck whose Sun sides are alike (sun-NS-P) and whose Moon sides differ
ALIKE = (3, 9)


def table_view(player: int = 0):
    """``player``'s view of a real table before the deal (``new --table``)."""
    return MemorinthGame(chance_setup=True).new_initial_state(0).view(player)


def test_every_side_of_the_deck_round_trips_through_its_spelling():
    for k, card in enumerate(DECK.cards):
        for face, side in enumerate(card.sides):
            spelled = looks.spell(DECK, side, face)
            assert looks.is_look(spelled)
            assert looks.parse(DECK, spelled, "move") == (face, side), spelled
            assert looks.parse(DECK, spelled.lower(), "move") == (face, side)  # any case
            assert looks.spell_side(DECK, 2 * k + face) == spelled


def test_letters_in_any_order_spell_the_same_side():
    face, side = looks.parse(DECK, "moon-SEN-gES", "move")
    assert looks.spell(DECK, side, face) == "moon-NES-gES"
    assert looks.parse(DECK, "sun-WE-HX", "move") == looks.parse(DECK, "sun-EW-XH", "move")
    assert looks.parse(DECK, "sun-0", "move")[1].paths == 0


@pytest.mark.parametrize("token, reason", [
    ("sun", "expected a side as it shows"),
    ("day-NES", "expected a side as it shows"),
    ("sun-", "the path ends are missing"),
    ("sun-NEZ", "'Z' is not a path end"),
    ("sun-NN", "'N' is named twice"),
    ("moon-NE-Q", "'Q' is not a character of this deck"),
    ("moon-NE-R-R", "at most one part of characters"),
    ("moon-NE-gN-gE", "at most one part of characters and one of goblins"),
])
def test_a_malformed_spelling_names_the_field_and_the_value(token, reason):
    with pytest.raises(InvalidMoveError) as caught:
        looks.parse(DECK, token, "moves[3]", f"deal card {token}")
    message = str(caught.value)
    assert message.startswith("moves[3]:") and reason in message and f"deal card {token}" in message


def test_mr30_a_real_table_deals_by_what_each_card_shows_and_cards_alike_are_one_choice():
    """The deal entered card by card as the cells show them, never by number: the view keeps a card for each cell
    that shows what was entered, and a card whose Sun side is like another's is given either."""
    view = table_view()
    truth = MemorinthGame(chance_setup=True).new_initial_state(0)
    dealt = []
    for _ in range(24):
        outcome = truth.legal_actions()[len(dealt) * 7 % len(truth.legal_actions())]
        truth.apply_action(outcome)
        cell = looks.FOREST_CELLS[len(dealt)]
        card = outcome - DEAL_CARD
        face = looks.cell_face(cell)
        spelled = looks.spell(DECK, DECK.cards[card].sides[face], face)
        view.apply_move(f"deal card {spelled}")
        dealt.append(spelled)
    shown = [looks.spell(DECK, DECK.cards[int(k)].sides[looks.cell_face(c)], looks.cell_face(c))
             for c, k in zip(looks.FOREST_CELLS, view.to_json()["dealt"])]
    assert shown == dealt


def test_cards_alike_never_have_to_be_told_apart():
    """a1 shows sun-NS-P (cards 3 and 9 both show it): the view gives it card 3; when b1 then shows card 3's Moon
    side, a1 is given card 9 instead, since the player cannot tell which of the two lies on a1."""
    first, second = ALIKE
    assert DECK.cards[first].sides[0] == DECK.cards[second].sides[0]
    view = table_view()
    view.apply_move("deal card sun-NS-P")
    assert view.to_json()["dealt"] == [DECK.cards[first].ident]
    moon = looks.spell(DECK, DECK.cards[first].sides[1], 1)
    assert f"deal card {DECK.cards[first].ident}" in view.legal_moves()  # its number too: a1 can take card 9
    view.apply_move(f"deal card {moon}")
    assert view.to_json()["dealt"] == [DECK.cards[second].ident, DECK.cards[first].ident]
    # the picture offers a look once: 23 Sun looks for 24 cards, then one fewer for each card dealt
    offered = looks.deal_choices(DECK, [])
    assert len(offered) == len({DECK.cards[k].sides[0] for k in range(1, 25)}) == 23


def test_a_side_every_card_of_which_lies_elsewhere_is_refused_naming_the_field():
    view = table_view()
    view.apply_move("deal card sun-NES-B")  # card 1 on a1
    with pytest.raises(IllegalMoveError) as caught:
        view.apply_move("deal card moon-NSW-P", "MOVE[1]")  # card 1's Moon side: card 1 lies on a1
    assert str(caught.value).startswith("MOVE[1]:") and "lies elsewhere" in str(caught.value)
    with pytest.raises(IllegalMoveError) as caught:
        view.apply_move("deal card sun-NESW", "MOVE[1]")  # b1 shows a Moon side
    assert "b1 shows its moon side" in str(caught.value)
    with pytest.raises(IllegalMoveError, match="no card of deck 'default' shows that side"):
        view.apply_move("deal card moon-NES", "MOVE[1]")
    with pytest.raises(UnknownCardError, match="'99'"):
        view.apply_move("deal card 99", "MOVE[1]")


def test_the_old_numbers_keep_working_and_mix_with_looks():
    view = table_view()
    view.apply_move("deal card 7")
    view.apply_move("deal card moon-ES-T-gS")  # card 2's Moon side
    assert view.to_json()["dealt"] == ["7", "2"]
    state = MemorinthGame(chance_setup=True).new_initial_state(0)
    state.apply_move("deal card sun-NES-B")
    state.apply_move("deal card 2")
    assert state.to_json()["dealt"] == ["1", "2"]


def test_a_full_state_takes_a_look_only_when_it_names_one_card():
    """A full state knows both sides of every card: cards alike on top but not underneath need their number."""
    state = MemorinthGame(chance_setup=True).new_initial_state(0)
    with pytest.raises(IllegalMoveError) as caught:
        state.apply_move("deal card sun-NS-P", "MOVE[0]")
    assert "differ underneath" in str(caught.value) and "deal card 3" in str(caught.value)
    state.apply_move("deal card 3")


def test_mr30_a_revealed_side_is_entered_by_what_it_shows():
    game = MemorinthGame()
    state = game.deal(3)
    view = state.view(0)
    view.apply_move("flip a1")
    assert view.phase == "reveal"
    idents = [card.ident for card in DECK.cards]
    numbers = [m for m in view.legal_moves() if not looks.is_look(m.split()[1])]
    shown = sorted({looks.spell_side(DECK, 2 * idents.index(m.split()[1][:-1]) + 1) for m in numbers})
    # the view lists each look once after the numbers (the web board's pictures click the looks)
    assert view.legal_moves() == numbers + [f"reveal {look}" for look in
                                            dict.fromkeys(looks.spell_side(DECK, 2 * idents.index(m.split()[1][:-1])
                                                                           + 1) for m in numbers)]
    with pytest.raises(IllegalMoveError, match="a1 shows a Sun side, so its underside is a Moon side"):
        view.clone().apply_move("reveal sun-NES-B", "MOVE[1]")
    with pytest.raises(InvalidMoveError, match=r"MOVE\[1\]: 'Z' is not a path end .*'reveal moon-NZ'"):
        view.clone().apply_move("reveal moon-NZ", "MOVE[1]")
    view.apply_move(f"reveal {shown[0]}")
    assert view.phase != "reveal" and "a1" in view.to_json()["seen"][0]
    assert looks.spell_side(DECK, 2 * idents.index(view.to_json()["board"][0].split()[0].split(":")[0][:-1]) + 1) \
        == shown[0]  # a1 now shows the Moon side entered


def test_the_cli_applies_cards_spelled_by_what_they_show_and_refuses_a_bad_one_in_one_line(capsys):
    from solver.cli import main
    assert main(["memorinth", "apply", "view:0 2p base SN | setup - | -", "deal card sun-NES-B",
                 "deal card moon-ES-T-gS"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "view:0 2p base SN | setup 1,2 | -"
    assert main(["memorinth", "apply", "view:0 2p base SN | setup - | -", "deal card sun-NEQ"]) != 0
    error = capsys.readouterr().err.strip()
    assert error.count("\n") == 0 and "MOVE[0]" in error and "'deal card sun-NEQ'" in error


def shown(view_json):
    """A view's JSON with each card named by what it shows (cards alike may have swapped numbers)."""
    idents = [card.ident for card in DECK.cards]

    def look(token):
        up, _, under = token.partition(":")
        face = "SM".index(up[-1])
        top = looks.spell_side(DECK, 2 * idents.index(up[:-1]) + face)
        if under in ("", "?"):
            return top + (":?" if under else "")
        return top + ":" + looks.spell_side(DECK, 2 * idents.index(under) + 1 - face)

    rows = [" ".join(look(t) for t in row.split()) for row in view_json["board"]]
    return {**view_json, "board": rows}


def test_mr30_a_real_table_entered_by_what_the_cards_show_replays_as_a_record(tmp_path):
    """The observer's record of a whole game, each card dealt and each side revealed entered by what it shows:
    saved, loaded and replayed it reaches the observer's view of the game, cards named by what they show."""
    from solver.memorinth.knowledge import table_entries
    from solver.record import Record, load_record_file

    from .test_views import random_game
    game = MemorinthGame(chance_setup=True)
    start, history, final = random_game(game, 5, steps=300)
    cell = iter(looks.FOREST_CELLS)
    idents = [card.ident for card in DECK.cards]
    entries = []
    for state, action in history:
        for entry in table_entries(state, action, 1):
            words = entry.split()
            if words[:2] == ["deal", "card"]:
                face = looks.cell_face(next(cell))
                entry = f"deal card {looks.spell(DECK, DECK.cards[idents.index(words[2])].sides[face], face)}"
            elif words[0] == "reveal":
                entry = f"reveal {looks.spell_side(DECK, 2 * idents.index(words[1][:-1]) + 'SM'.index(words[1][-1]))}"
            entries.append(entry)
    assert sum(e.startswith("deal card sun-") or e.startswith("deal card moon-") for e in entries) == 24
    assert any(e.startswith("reveal moon-") or e.startswith("reveal sun-") for e in entries)
    record = Record.start_of(game.new_table(1)).extended(entries, stamp=False)
    path = tmp_path / "table.jsonl"
    path.write_text(record.to_lines())
    again = load_record_file(str(path))
    assert [m.move for m in again.moves] == entries  # stored as typed: what the cards showed
    assert shown(again.final_position(game).to_json()) == shown(final.view(1).to_json())
