"""Each rule and interpretation of docs/rules/mnemonic.md on small hand-built positions."""

from fractions import Fraction

import pytest

from solver.errors import IllegalMoveError
from solver.game import CHANCE_PLAYER
from solver.mnemonic.cards import PROMPTS, card_code, parse_card, prompt
from solver.mnemonic.game import MnemonicGame
from solver.mnemonic.cards import grey_deal_classes

HAND5 = {"deckBurner.handSize": 5}
NO_GROUP_CARD = {"intoTheGrey.groupCard": "none"}  # Into the Grey Group Scenes without cards (MN-23)


def test_mn8_the_deck_has_54_cards_and_the_prompt_table(game):
    """MN-8: 52 cards, two jokers, and the rulebook's prompt for every rank."""
    assert len({card_code(c) for c in range(54)}) == 54
    assert prompt(parse_card("7H")) == "A secret, dearly kept." and prompt(parse_card("RJ")) == PROMPTS["Joker"]
    assert prompt(parse_card("10s")) == "An opening to somewhere new."
    assert prompt(parse_card("QD")).startswith("An ally")


def test_mn9_into_the_grey_deals_face_then_number_then_jokers_round_the_table():
    """MN-9: with 3 players the 16 face cards go 6/5/5, then 36 numbers 12 each, the jokers to players 2 and 3."""
    assert grey_deal_classes(3) == [(6, 12, 0), (5, 12, 1), (5, 12, 1)]
    assert grey_deal_classes(4) == [(4, 9, 1), (4, 9, 1), (4, 9, 0), (4, 9, 0)]
    state = MnemonicGame(mode="into-the-grey", players=3).new_initial_state(5)
    assert not state.deck and [len(p.hand) for p in state.players] == [18, 18, 18]
    faces = [sum(1 for c in p.hand if c < 52 and c % 13 >= 9) for p in state.players]
    jokers = [sum(1 for c in p.hand if c >= 52) for p in state.players]
    assert faces == [6, 5, 5] and jokers == [0, 1, 1]


def test_mn10_deck_burner_draws_from_a_full_deck(game, tmp_path):
    """MN-10: by default no hand is dealt; every scene starts by drawing."""
    state = game.new_initial_state(1)
    assert len(state.deck) == 54 and all(not p.hand for p in state.players)
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["draw"]
    rules = game.rules.to_json()
    rules["deckBurner"]["handSize"] = 3
    path = tmp_path / "rules.json"
    import json
    path.write_text(json.dumps(rules))
    dealt = MnemonicGame(rules=str(path)).new_initial_state(1)
    assert [len(p.hand) for p in dealt.players] == [3, 3, 3] and len(dealt.deck) == 45


def test_mn11_a_draw_is_uniform_over_the_cards_left(build, mn):
    """MN-11: the deck is an unordered pile; drawing reveals each remaining card with probability 1/size."""
    state = build([mn.player("Fight=H1"), mn.player("Sneak=S1")])
    state.apply_move("draw")
    assert state.current_player() == CHANCE_PLAYER
    outcomes = state.chance_outcomes_exact()
    assert len(outcomes) == 54 and {p for _, p in outcomes} == {Fraction(1, 54)}


def test_mn12_round_order_and_first_player(build, mn):
    """MN-12: focus passes round the table; with rotateFirstPlayer the next round starts one seat on."""
    state = build([mn.player("A=H1", "7H 8H"), mn.player("B=H1", "9H TH")], rules=HAND5)
    mn.play(state, "play 7H", 'use "A"', "roll 6", "no weave")
    assert state.focus == 1 and state.phase == "scene-card"
    mn.play(state, "play 9H", 'use "B"', "roll 6", "no weave")
    assert state.phase == "table" and state.current_player() == 0
    rotating = build([mn.player("A=H1", "7H 8H"), mn.player("B=H1", "9H TH")],
                     rules={**HAND5, "round.rotateFirstPlayer": True})
    mn.play(rotating, "play 7H", 'use "A"', "roll 6", "no weave", "play 9H", 'use "B"', "roll 6", "no weave",
            "round")
    assert rotating.round == 2 and rotating.focus == 1 and rotating.first == 1


def test_mn13_a_player_without_a_card_skips_their_scene(build, mn):
    """MN-13: hand empty and deck empty: that player's scene is skipped."""
    rest = [c for c in range(54) if card_code(c) not in ("7H",)]
    discard = " ".join(f"{card_code(c)}@1" for c in rest)
    state = build([mn.player("A=H1", "7H"), mn.player("B=H1", "")], discard=discard, rules=HAND5)
    mn.play(state, "play 7H", 'use "A"', "roll 6", "no weave")
    assert state.phase == "table"
    assert mn.moves(state) == ["end"]  # no card for a new round, Deck Burner cannot draw for a Group Scene


def test_mn14_a_skill_must_match_the_suit_and_be_available(build, mn):
    """MN-14: only available skills of the card's suit; complicated (and, by default, injured) skills are out."""
    state = build([mn.player("Fight=H2,Mend=H1c,Hurt=H3i,Sneak=S2", "7H"), mn.player("B=D1")], rules=HAND5)
    state.apply_move("play 7H")
    assert mn.moves(state) == ['use "Fight"']


def test_mn14_joker_matches_nothing_by_default_and_everything_when_wild(build, mn):
    """MN-14: a Joker has no suit (joker: no-suit) unless the rules make it wild."""
    plain = build([mn.player("Fight=H2,Sneak=S1", "RJ"), mn.player("B=D1")], rules=HAND5)
    plain.apply_move("play RJ")
    assert mn.moves(plain) == ["pass", 'use "Fight" helped by 1', 'use "Sneak" helped by 1']
    wild = build([mn.player("Fight=H2,Sneak=S1", "RJ"), mn.player("B=D1")], rules={**HAND5, "joker": "wild"})
    wild.apply_move("play RJ")
    assert mn.moves(wild) == ['use "Fight"', 'use "Sneak"']


def test_mn15_help_only_without_a_match_and_the_helper_shares_the_risk(build, mn):
    """MN-15: ask for help only without a matching skill; on a failure both skills are complicated."""
    state = build([mn.player("Fight=H2c,Sneak=S1", "7H", weavings=0), mn.player("Bargain=D3,Endure=C1")],
                  rules={**HAND5, "learning.allowed": False})
    state.apply_move("play 7H")
    assert mn.moves(state) == ["pass", 'use "Sneak" helped by 1']
    state.apply_move('use "Sneak" helped by 1')
    assert state.current_player() == 1 and mn.moves(state) == ['help with "Bargain"', 'help with "Endure"']
    state.apply_move('help with "Endure"')
    assert state.dice(0, 1, helped=True) == 1  # the helper does not roll (help.extraDice 0)
    state.apply_move("roll 5")
    assert state.players[0].skills[1].complicated and state.players[1].skills[1].complicated
    assert not state.players[1].skills[0].complicated


def test_mn15_help_extra_dice_and_no_shared_complication_are_configurable(build, mn):
    """MN-15: help.extraDice adds dice; helperSharesComplication false spares the helper."""
    rules = {**HAND5, "learning.allowed": False, "help.extraDice": 2, "help.helperSharesComplication": False}
    state = build([mn.player("Fight=H2c,Sneak=S1", "7H", weavings=0), mn.player("Bargain=D3")], rules=rules)
    mn.play(state, "play 7H", 'use "Sneak" helped by 1', 'help with "Bargain"')
    assert state.dice(0, 1, helped=True) == 3
    assert dict(state.chance_outcomes_exact())[606] == Fraction(6 ** 3 - 5 ** 3, 6 ** 3)
    state.apply_move("roll 2")
    assert state.players[0].skills[1].complicated and not state.players[1].skills[0].complicated


def test_mn16_learning_a_skill_of_the_cards_suit(build, mn):
    """MN-16: without a matching skill a player may learn one of the card's suit, rated learning.rating."""
    state = build([mn.player("Fight=H2", "7S", weavings=0), mn.player("B=D1")], rules=HAND5)
    state.apply_move("play 7S")
    assert "learn spades" in mn.moves(state)
    state.apply_move("learn spades")
    learned = state.players[0].skills[-1]
    assert (learned.name, learned.suit, learned.rating) == ("Learned Spades 1", 3, 1)
    state.apply_move("roll 3")
    assert learned.complicated
    full = build([mn.player("A=H1,B=H1,C=H1,D=H1,E=H1,F=H1,G=H1,I=H1", "7S"), mn.player("B=D1")], rules=HAND5)
    full.apply_move("play 7S")
    assert not any(m.startswith("learn") for m in mn.moves(full))  # skills.maxPerCharacter reached


def test_mn17_nothing_to_use_means_a_scene_without_a_roll(build, mn):
    """MN-17: no matching skill, nobody able to help, learning off: 'pass', nothing is complicated."""
    state = build([mn.player("Fight=H2", "7S", weavings=0), mn.player("B=D1c")],
                  rules={**HAND5, "learning.allowed": False})
    state.apply_move("play 7S")
    assert mn.moves(state) == ["pass"]
    state.apply_move("pass")
    assert state.adversary_pool() == 1 and state.focus == 1


def test_mn17_passing_is_optional_while_help_is_possible_unless_the_rules_say_otherwise(build, mn):
    """MN-17: asking for help is optional ('you *can* ask'), so 'pass' stays offered beside it by default;
    scene.passWithoutMatch false offers it only when nothing else is possible."""
    players = [mn.player("Fight=H2", "7S", weavings=0), mn.player("B=D1")]
    default = build(players, rules={**HAND5, "learning.allowed": False})
    default.apply_move("play 7S")
    assert mn.moves(default) == ["pass", 'use "Fight" helped by 1']
    strict = build([mn.player("Fight=H2", "7S", weavings=0), mn.player("B=D1")],
                   rules={**HAND5, "learning.allowed": False, "scene.passWithoutMatch": False})
    strict.apply_move("play 7S")
    assert mn.moves(strict) == ['use "Fight" helped by 1']
    matching = build([mn.player("Fight=H2", "7H", weavings=0), mn.player("B=D1")], rules=HAND5)
    matching.apply_move("play 7H")
    assert "pass" not in mn.moves(matching)


def test_mn18_roll_dice_keep_the_highest_a_six_succeeds(build, mn):
    """MN-18: rating + pending extra dice; the chance outcome is the highest die; below 6 complicates."""
    state = build([mn.player("Fight=H2", "7H", weavings=0, bonus=1), mn.player("B=D1")], rules=HAND5)
    mn.play(state, "play 7H", 'use "Fight"')
    outcomes = dict(state.chance_outcomes_exact())
    assert outcomes == {600 + v: Fraction(v ** 3 - (v - 1) ** 3, 216) for v in range(1, 7)}
    state.apply_move("roll 6")
    assert not state.players[0].skills[0].complicated and state.players[0].bonus == 0
    again = build([mn.player("Fight=H2", "7H", weavings=0), mn.player("B=D1")], rules=HAND5)
    mn.play(again, "play 7H", 'use "Fight"', "roll 5")
    assert again.players[0].skills[0].complicated and again.adversary_pool() == 1


def test_mn19_weaving_avoids_the_complication_or_gives_a_die(build, mn):
    """MN-19: after the roll: avoid (only after a failure), give another player a die, or nothing."""
    state = build([mn.player("Fight=H2", "7H 8H"), mn.player("B=D1"), mn.player("C=D1")], rules=HAND5)
    mn.play(state, "play 7H", 'use "Fight"', "roll 6")
    assert mn.moves(state) == ["no weave", "weave give 1", "weave give 2"]
    state.apply_move("weave give 2")
    assert state.players[2].bonus == 1 and state.players[0].weavings == 0
    failed = build([mn.player("Fight=H2", "7H"), mn.player("B=D1")], rules=HAND5)
    mn.play(failed, "play 7H", 'use "Fight"', "roll 3")
    assert "weave avoid" in mn.moves(failed)
    failed.apply_move("weave avoid")
    assert not failed.players[0].skills[0].complicated and failed.players[0].weavings == 0


def test_mn19_weaving_budget_refresh_and_repair(build, mn):
    """MN-19: weaving.refresh 'round' restores the budget; repairOutsideVictory 'weaving' adds a repair."""
    rules = {**HAND5, "weaving.refresh": "round", "complications.repairOutsideVictory": "weaving"}
    state = build([mn.player("Fight=H2,Sneak=S1c", "7H 8H", weavings=1), mn.player("B=D1", "9D TD", weavings=0)],
                  rules=rules)
    mn.play(state, "play 7H", 'use "Fight"', "roll 6")
    assert 'weave repair "Sneak"' in mn.moves(state)
    mn.play(state, 'weave repair "Sneak"', "play 9D", 'use "B"', "roll 6")
    assert not state.players[0].skills[1].complicated and state.players[0].weavings == 0
    state.apply_move("round")
    assert [p.weavings for p in state.players] == [1, 1]


def test_mn20_extra_dice_wait_for_the_next_roll_even_in_a_group_scene(build, mn):
    """MN-20: a woven die stays pending through a scene without a roll and is spent on the Group Scene roll."""
    state = build([mn.player("Fight=H2"), mn.player("Sneak=S1c", bonus=1)], mode="into-the-grey",
                  phase="table", discard=" ".join(f"{card_code(c)}@{c % 2}" for c in range(54)),
                  rules={"group.maxAttempts": 1, **NO_GROUP_CARD})
    mn.play(state, "group", 'group use "Fight"')
    assert state.group_pools() == [2, 0]  # player 1 has no skill: no roll, the die waits
    state.apply_move("result defeat")
    assert state.players[1].bonus == 1


def test_mn21_table_choices_and_who_speaks(build, mn):
    """MN-21: after the round the first player chooses Group Scene, another round or end."""
    state = build([mn.player("A=H1", "7H 8H"), mn.player("B=H1", "9H TH")], rules=HAND5)
    mn.play(state, "play 7H", 'use "A"', "roll 6", "no weave", "play 9H", 'use "B"', "roll 2", "no weave")
    assert state.current_player() == 0 and mn.moves(state) == ["group", "round", "end"]


def test_mn39_a_group_scene_without_a_complication_by_default(build, mn):
    """MN-39: by default the table may face an empty Adversary's pool ("Well, you could"); the restrictive
    reading group.needsComplication = true forbids it."""
    strict = build([mn.player("A=H1", "7H 8H"), mn.player("B=H1", "9H TH")],
                   rules={**HAND5, "group.needsComplication": True})
    mn.play(strict, "play 7H", 'use "A"', "roll 6", "no weave", "play 9H", 'use "B"', "roll 3", "weave avoid")
    assert strict.adversary_pool() == 0 and mn.moves(strict) == ["round", "end"]
    free = build([mn.player("A=H1", "7H 8H"), mn.player("B=H1", "9H TH")], rules=HAND5)
    assert free.rules["group.needsComplication"] is False
    mn.play(free, "play 7H", 'use "A"', "roll 6", "no weave", "play 9H", 'use "B"', "roll 6", "no weave")
    assert free.adversary_pool() == 0 and mn.moves(free) == ["group", "round", "end"]
    mn.play(free, "group", "reveal 2C", "reveal 2D")
    assert free.phase == "group-roll" and dict(free.chance_outcomes_exact()) == {702: 1}  # nobody rolls: draw


def test_mn22_the_adversary_pool_counts_complications(build, mn):
    """MN-22: one Adversary die per complicated skill, whoever holds it; injuries do not count."""
    state = build([mn.player("A=H1c,B=S2c,C=D1i"), mn.player("D=C3ci,E=H2")])
    assert state.adversary_pool() == 3


def test_mn23_deck_burner_plan_draws_then_matches(build, mn):
    """MN-23: everyone draws first (deckBurner.groupDraws all-first), then each chooses a skill matching the
    drawn suit; otherwise they contribute nothing."""
    discard = "2H@0 3H@1"
    state = build([mn.player("Fight=H3,Sneak=S2"), mn.player("Bargain=D2c")], phase="table", discard=discard)
    state.apply_move("group")
    assert state.phase == "group-draw" and state.current_player() == CHANCE_PLAYER
    state.apply_move("reveal 7S")
    assert state.phase == "group-draw"  # player 1 draws before player 0 chooses
    state.apply_move("reveal QD")
    assert state.current_player() == 0 and mn.moves(state) == ['group use "Sneak"']
    mn.play(state, 'group use "Sneak"')  # player 1's only diamond skill is complicated
    assert state.phase == "group-roll" and state.group_pools() == [2, 0]
    odds = state.group_odds()
    assert odds.victory + odds.defeat + odds.draw == 1 and state.adversary_pool() == 1


def test_mn24_group_roll_uses_the_exact_odds(build, mn):
    """MN-24: the Group Scene's chance outcomes are the exact odds of MN-3..MN-6."""
    state = build([mn.player("Fight=H3"), mn.player("Sneak=S2"), mn.player("X=C1c,Y=C1c,Z=D1c,W=D1c")],
                  mode="into-the-grey", phase="table", rules=NO_GROUP_CARD,
                  discard=" ".join(f"{card_code(c)}@{c % 3}" for c in range(54)))
    mn.play(state, "group", 'group use "Fight"', 'group use "Sneak"')
    exact = dict(state.chance_outcomes_exact())
    assert exact[700] == Fraction(3511399, 10077696)


def test_mn25_victory_clears_every_complication(build, mn):
    """MN-25: Victory clears all complications (not injuries); then a new round or the end."""
    state = build([mn.player("A=H3,B=S1c,C=D1ci"), mn.player("D=C2c")], mode="into-the-grey", phase="table",
                  rules=NO_GROUP_CARD,
                  discard=" ".join(f"{card_code(c)}@{c % 2}" for c in range(54)))
    mn.play(state, "group", 'group use "A"', "result victory")
    skills = [s for p in state.players for s in p.skills]
    assert not any(s.complicated for s in skills) and skills[2].injured
    assert state.phase == "after-victory" and mn.moves(state) == ["end"]  # no cards left for a round


def test_mn26_defeat_injures_the_suit_each_player_used(build, mn):
    """MN-26: Defeat injures every skill of the suit used (injury.scope suit); scope 'skill' only the one used."""
    grey = dict(mode="into-the-grey", phase="table", discard=" ".join(f"{card_code(c)}@{c % 2}" for c in range(54)))
    state = build([mn.player("A=H3,A2=H1,B=S1c"), mn.player("D=C2,E=D1")], rules=NO_GROUP_CARD, **grey)
    mn.play(state, "group", 'group use "A"', 'group use "E"', "result defeat")
    assert [s.injured for s in state.players[0].skills] == [True, True, False]
    assert [s.injured for s in state.players[1].skills] == [False, True]
    assert state.phase == "after-defeat" and mn.moves(state) == ["try again", "retreat"]
    narrow = build([mn.player("A=H3,A2=H1,B=S1c"), mn.player("D=C2,E=D1")],
                   rules={"injury.scope": "skill", **NO_GROUP_CARD}, **grey)
    mn.play(narrow, "group", 'group use "A"', 'group use "E"', "result defeat")
    assert [s.injured for s in narrow.players[0].skills] == [True, False, False]


def test_mn27_a_draw_hurts_nobody_and_offers_the_defeat_choices(build, mn):
    """MN-27: Draw: no injury, complications stay, then try again / regroup / retreat (afterDraw as-defeat)."""
    grey = dict(mode="into-the-grey", phase="table", discard=" ".join(f"{card_code(c)}@{c % 2}" for c in range(54)))
    state = build([mn.player("A=H3,B=S1c"), mn.player("D=C2")], rules=NO_GROUP_CARD, **grey)
    mn.play(state, "group", 'group use "A"', 'group use "D"', "result draw")
    assert state.phase == "after-defeat" and state.adversary_pool() == 1
    assert not any(s.injured for p in state.players for s in p.skills)
    other = build([mn.player("A=H3,B=S1c"), mn.player("D=C2")], rules={"group.afterDraw": "as-victory", **NO_GROUP_CARD},
                  **grey)
    mn.play(other, "group", 'group use "A"', 'group use "D"', "result draw")
    assert other.phase == "after-victory" and other.adversary_pool() == 1


def test_mn28_try_again_is_limited(build, mn):
    """MN-28: with group.maxAttempts set, at most that many Group Scenes between two rounds."""
    grey = dict(mode="into-the-grey", phase="table", discard=" ".join(f"{card_code(c)}@{c % 2}" for c in range(54)))
    state = build([mn.player("A=H3,B=S1c"), mn.player("D=C2")], rules={"group.maxAttempts": 2, **NO_GROUP_CARD},
                  **grey)
    mn.play(state, "group", 'group use "A"', 'group use "D"', "result draw", "try again", 'group use "A"',
            'group use "D"', "result draw")
    assert mn.moves(state) == ["retreat"]
    with pytest.raises(IllegalMoveError):
        state.apply_move("try again")


def test_mn28_try_again_has_no_cap_by_default(build, mn):
    """MN-28: by default (group.maxAttempts 0, the rulebook names no cap) the table may try again as often as it
    likes while someone can bring a skill; once nobody can, Try Again is not offered (nothing could change)."""
    grey = dict(mode="into-the-grey", phase="table", discard=" ".join(f"{card_code(c)}@{c % 2}" for c in range(54)))
    state = build([mn.player("A=H3,B=S1c"), mn.player("D=C2")], rules=NO_GROUP_CARD, **grey)
    assert state.rules["group.maxAttempts"] == 0
    mn.play(state, "group", 'group use "A"', 'group use "D"')
    for _ in range(8):  # Draws leave everything as it was: the table may keep trying
        mn.play(state, "result draw", "try again", 'group use "A"', 'group use "D"')
    assert state.attempts == 9
    mn.play(state, "result defeat")  # both suits used are injured: nobody can bring a skill any more
    assert mn.moves(state) == ["retreat"]
    assert MnemonicGame().state_from_json(state.to_json()).attempts == 9  # no cap on the recorded attempts


def test_mn29_injury_effects(build, mn):
    """MN-29: injured skills are unusable by default, roll one die fewer, or are unaffected."""
    def options(effect):
        s = build([mn.player("Fight=H3i", "7H", weavings=0), mn.player("B=D1")],
                  rules={**HAND5, "injury.effect": effect, "learning.allowed": False})
        s.apply_move("play 7H")
        return mn.moves(s), s
    assert options("unusable")[0] == ["pass"]
    moves, state = options("minus-one-die")
    assert moves == ['use "Fight"'] and state.dice(0, 0) == 2
    moves, state = options("none")
    assert moves == ['use "Fight"'] and state.dice(0, 0) == 3


def test_mn30_complications_stay_until_victory(build, mn):
    """MN-30: no repair outside Victory by default: a new round keeps the complications."""
    state = build([mn.player("A=H1c", "7H"), mn.player("B=H1", "9H")], rules=HAND5, phase="table")
    state.apply_move("round")
    assert state.players[0].skills[0].complicated and state.adversary_pool() == 1


def test_mn31_the_session_is_won_by_any_victory(build, mn):
    """MN-31: identical returns for everyone: 1 after a session with a Victory, else 0."""
    grey = dict(mode="into-the-grey", phase="table", discard=" ".join(f"{card_code(c)}@{c % 2}" for c in range(54)))
    won = build([mn.player("A=H3,B=S1c"), mn.player("D=C2")], rules=NO_GROUP_CARD, **grey)
    mn.play(won, "group", 'group use "A"', 'group use "D"', "result victory", "end")
    assert won.is_terminal() and won.returns() == [1.0, 1.0]
    lost = build([mn.player("A=H3"), mn.player("D=C2")], **grey)
    lost.apply_move("end")
    assert lost.returns() == [0.0, 0.0]
