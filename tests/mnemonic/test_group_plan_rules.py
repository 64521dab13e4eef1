"""Make the Plan (MN-23, MN-40, MN-41): who draws when in Deck Burner, and what a skill costs in Into the Grey."""

import json

import pytest

from solver.errors import IllegalMoveError, ImpossibleStateError
from solver.game import CHANCE_PLAYER
from solver.mnemonic.cards import card_code
from solver.mnemonic.cards import grey_deal_classes


def grey_discard(players: int, hands: dict[int, list[str]]) -> str:
    """Every card not in ``hands``, each player having played what the Into the Grey deal leaves them (MN-9)."""
    from solver.mnemonic.cards import card_class, parse_card
    held = {parse_card(c) for cards in hands.values() for c in cards}
    piles = {cls: [c for c in range(54) if card_class(c) == cls and c not in held] for cls in range(3)}
    entries = []
    for q, dealt in enumerate(grey_deal_classes(players)):
        counts = list(dealt)
        for code in hands.get(q, []):
            counts[card_class(parse_card(code))] -= 1
        for cls in range(3):
            entries += [f"{card_code(piles[cls].pop())}@{q}" for _ in range(counts[cls])]
    return " ".join(entries)


def test_mn40_deck_burner_everyone_draws_before_anyone_chooses(build, mn):
    """MN-40 (deckBurner.groupDraws all-first): 'everyone must first draw a card': the first player chooses
    knowing every card drawn."""
    state = build([mn.player("H=H3,H2=H1,S=S1c"), mn.player("D=D2,C=C1")], phase="table")
    mn.play(state, "group", "reveal 7H")
    assert state.phase == "group-draw" and state.current_player() == CHANCE_PLAYER
    state.apply_move("reveal 8D")
    assert state.current_player() == 0 and mn.moves(state) == ['group use "H"', 'group use "H2"']
    mn.play(state, 'group use "H2"', 'group use "D"')
    assert state.phase == "group-roll" and state.group_pools() == [1, 2]
    assert [(card_code(c), by) for c, by in state.discard[-2:]] == [("7H", 0), ("8D", 1)]


def test_mn40_in_turn_draws_interleave(build, mn):
    """MN-40 (in-turn): each player draws just before choosing."""
    state = build([mn.player("H=H3,S=S1c"), mn.player("D=D2")], phase="table",
                  rules={"deckBurner.groupDraws": "in-turn"})
    mn.play(state, "group", "reveal 7H")
    assert state.current_player() == 0 and mn.moves(state) == ['group use "H"']
    mn.play(state, 'group use "H"')
    assert state.phase == "group-draw"


def test_mn40_a_typed_all_first_plan_must_draw_in_table_order(build, mn, game):
    state = build([mn.player("H=H3,S=S1c"), mn.player("D=D2")], phase="table")
    mn.play(state, "group", "reveal 7H")
    obj = state.to_json()
    obj["group"]["cards"] = [None, "7H"]
    obj["discard"][-1]["by"] = 1
    with pytest.raises(ImpossibleStateError) as info:
        game.state_from_json(obj)
    assert info.value.field.startswith("state.group.cards")
    obj = state.to_json()
    obj["group"]["turn"] = 1
    with pytest.raises(ImpossibleStateError):
        game.state_from_json(obj)


def test_mn41_into_the_grey_group_scene_discards_a_card_of_the_skills_suit(build, mn):
    """MN-41 (intoTheGrey.groupCard discard): 'To use a skill, discard a card of the skill's suit'
    (game-facts §4): the move names the card, which goes to the discard; a player with no card of an
    available skill's suit contributes nothing."""
    hands = {0: ["2H", "4D"], 1: ["3C"]}
    state = build([mn.player("A=H3,B=S1c", "2H 4D"), mn.player("D=D2,E=H1", "3C")], mode="into-the-grey",
                  phase="table", discard=grey_discard(2, hands))
    state.apply_move("group")
    assert state.current_player() == 0 and mn.moves(state) == ['group use "A" with 2H']
    state.apply_move('group use "A" with 2H')
    assert state.phase == "group-roll" and state.group_pools() == [3, 0]  # 3C matches none of player 1's skills
    assert [card_code(c) for c in state.players[0].hand] == ["4D"]
    assert (card_code(state.discard[-1][0]), state.discard[-1][1]) == ("2H", 0)
    with pytest.raises(IllegalMoveError):
        build([mn.player("A=H3,B=S1c", "2H 4D"), mn.player("D=D2,E=H1", "3C")], mode="into-the-grey",
              phase="table", discard=grey_discard(2, hands)).apply_move('group use "A"')


def test_mn41_without_group_cards_any_available_skill_is_brought(build, mn):
    hands = {0: ["2H", "4D"], 1: ["3C"]}
    state = build([mn.player("A=H3,B=S1c", "2H 4D"), mn.player("D=D2,E=H1", "3C")], mode="into-the-grey",
                  phase="table", discard=grey_discard(2, hands), rules={"intoTheGrey.groupCard": "none"})
    mn.play(state, "group", 'group use "A"')
    assert mn.moves(state) == ['group use "D"', 'group use "E"']
    state.apply_move('group use "D"')
    assert state.group_pools() == [3, 2] and [card_code(c) for c in state.players[0].hand] == ["2H", "4D"]


def test_mn41_a_typed_grey_plan_is_checked(build, mn, game):
    hands = {0: ["2H", "4D"], 1: ["3C"]}
    state = build([mn.player("A=H3,B=S1c", "2H 4D"), mn.player("D=D2,E=H1", "3C")], mode="into-the-grey",
                  phase="table", discard=grey_discard(2, hands))
    mn.play(state, "group", 'group use "A" with 2H')
    obj = json.loads(json.dumps(state.to_json()))
    assert game.state_from_json(obj).to_json() == obj
    assert game.state_from_notation(state.to_notation()).to_json() == obj
    wrong = json.loads(json.dumps(obj))
    wrong["group"]["cards"][0] = None
    with pytest.raises(ImpossibleStateError) as info:
        game.state_from_json(wrong)
    assert info.value.field == "state.group.cards[0]"
    wrong = json.loads(json.dumps(obj))
    wrong["players"][0]["skills"][0]["suit"] = "spades"  # the 2H no longer matches skill A
    with pytest.raises(ImpossibleStateError) as info:
        game.state_from_json(wrong)
    assert info.value.field == "state.group.skills[0]"
