"""MN-48: each player's character as entered at a real table (the game's ``skills``: ``H3D2C2S1/H1S5``), through
the game, the command line, the engine and the table server; the notation carries it; the hint reads it; nothing
entered keeps the rule data's characters and every dealt session byte for byte."""

import io
import json

import numpy as np
import pytest
from starlette.testclient import TestClient

from solver import contract
from solver.cli import main
from solver.engine import Engine
from solver.mnemonic.game import MnemonicGame
from solver.errors import InvalidInputError
from solver.registry import load_game
from solver.search import Limits, SearchContext
from solver.datafiles import unrestrict
from solver.web.server import build_app

from .helpers import random_action


def skills_of(position, player):
    """``[(name, suit, rating), ...]`` of ``player``'s character in ``position`` (a state or a view)."""
    return [(s["name"], s["suit"], s["rating"]) for s in position.to_json()["players"][player]["skills"]]


def test_mn48_nothing_entered_keeps_the_rule_datas_characters_and_every_session():
    plain = load_game("mnemonic")
    assert load_game("mnemonic(skills=)").spec() == "mnemonic"
    for seed in (0, 3, 11):
        assert load_game("mnemonic(skills=)").new_initial_state(seed).to_json() == \
            plain.new_initial_state(seed).to_json()
        dashes = load_game("mnemonic(skills=-/-/-)").new_initial_state(seed)
        assert dashes.to_json() == plain.new_initial_state(seed).to_json()


def test_mn48_entered_characters_replace_the_made_ones_and_change_nothing_else():
    plain = load_game("mnemonic(players=3)")
    entered = load_game("mnemonic(players=3,skills=H3D2C2S1/-/h1 s5)")
    for seed in (1, 7):
        a, b = plain.new_initial_state(seed).to_json(), entered.new_initial_state(seed).to_json()
        assert b["players"][1] == a["players"][1]                      # "-": the rule data's character
        assert [p["hand"] for p in b["players"]] == [p["hand"] for p in a["players"]]  # the same deal
        assert b["deck"] == a["deck"]
    start = entered.new_table(2)
    assert skills_of(start, 0) == [("Fight With Hands", "hearts", 3), ("Bargain", "diamonds", 2),
                                   ("Endure", "clubs", 2), ("Sneak", "spades", 1)]
    assert skills_of(start, 2) == [("Fight With Hands", "hearts", 1), ("Sneak", "spades", 5)]
    two_hearts = load_game("mnemonic(players=1,skills=H2H4)").new_table(0)
    assert skills_of(two_hearts, 0) == [("Fight With Hands", "hearts", 2), ("Comfort", "hearts", 4)]


@pytest.mark.parametrize("skills, field, words", [
    ("H3X2", "game.skills[0]", "suit letter"),
    ("H3/D6", "game.skills[1]", "between 1 and 5"),
    ("H0", "game.skills[0]", "between 1 and 5"),
    ("H1H1H1H1", "game.skills[0]", "at most 3 hearts"),
    ("H1H2D1D2C1C2S1S2H3", "game.skills[0]", "at most 8 skills"),
    ("/", "game.skills[0]", "suit letter"),
])
def test_mn48_a_mistyped_character_is_refused_naming_the_field(skills, field, words):
    with pytest.raises(InvalidInputError) as caught:
        load_game(f"mnemonic(skills={skills})")
    assert caught.value.field == field and words in str(caught.value)


def test_mn48_more_characters_than_players_is_refused():
    game = load_game("mnemonic(players=2,skills=H1/H2/H3)")
    with pytest.raises(InvalidInputError) as caught:
        game.new_table(0)
    assert caught.value.field == "game.skills" and "3 characters for 2 players" in str(caught.value)


@pytest.mark.parametrize("spec, written", [
    ("mnemonic(players=2,skills=H5D1/C4S3S1)", "skills=Endure=C4,Sneak=S3,Recall=S1"),
    ("mnemonic(mode=into-the-grey,players=3,skills=-/H1D1C1S1/S5)", "P Player_3 w1 b0 hand=- skills=Sneak=S5"),
])
def test_mn48_entered_skills_round_trip_through_json_and_notation(spec, written):
    game = load_game(spec)
    state = game.new_initial_state(4)
    rng = np.random.default_rng(4)
    for _ in range(12):
        if state.is_terminal():
            break
        for position in (state, state.view(0), state.view(1)):
            text = position.to_notation()
            again = game.parse_position(text)
            assert again.to_notation() == text and again.to_json() == position.to_json()
            assert game.parse_position(json.loads(json.dumps(position.to_json()))).to_notation() == text
        state.apply_action(random_action(state, rng))
    assert written in game.new_table(0).to_notation()


def test_mn48_the_hint_reads_the_entered_skills_and_a_state_and_its_view_agree(tmp_path):
    """hint(state) == hint(view) with entered characters, and the entered ratings change the chance of Victory (in
    a session of one round that needs a complication for its Group Scene, MN-45 and MN-39, where it is far from
    certain: at rating 5 a scene seldom fails, so the Adversary seldom has a die to face)."""
    rules = tmp_path / "rules.json"
    overrides = {"planner.sessionRounds": 1, "group.needsComplication": True}
    rules.write_text(json.dumps(MnemonicGame().rules.with_overrides(overrides).to_json()))
    values = {}
    for skills in ("H1D1C1S1/H1D1C1S1", "H5D5C5S5/H5D5C5S5"):
        game = MnemonicGame(players=2, skills=skills, rules=str(rules))
        state = game.new_initial_state(2)
        actor = state.current_player()
        ctx = lambda: SearchContext(limits=Limits(nodes=20_000), seed=1)  # noqa: E731
        on_state = contract.hint(game, state, ctx(), top=100, horizon=(0, 1)).to_json()
        on_view = contract.hint(game, state.view(actor), ctx(), top=100, horizon=(0, 1)).to_json()
        for answer in (on_state, on_view):
            answer.get("rootInfo", {}).pop("seconds", None)
            for level in answer.get("rootInfo", {}).get("levels", []):
                level.pop("seconds", None)
        assert on_state == on_view
        values[skills] = on_state["moveInfos"][0]["value"]
    assert abs(values["H5D5C5S5/H5D5C5S5"] - values["H1D1C1S1/H1D1C1S1"]) > 0.2


def test_mn48_the_command_line_takes_skills_for_a_real_table(capsys):
    assert main(["mnemonic", "new", "--table", "--player", "1", "--players", "2", "--skills", "H3D2C2S1/S4",
                 "--notation"]) == 0
    out = capsys.readouterr().out
    assert "P Player_1 w1 b0 hand=- skills=Fight_With_Hands=H3,Bargain=D2,Endure=C2,Sneak=S1" in out
    assert "P Player_2 w1 b0 hand=- skills=Sneak=S4" in out
    assert main(["mnemonic", "new", "--table", "--player", "0", "--skills", "H9"]) == 1
    err = capsys.readouterr().err.strip()
    assert "game.skills[0]" in err and "\n" not in err


def test_mn48_the_engine_and_the_table_server_start_a_real_table_with_the_entered_skills(tmp_path):
    out = io.StringIO()
    Engine(out, threads=1).serve([json.dumps({"id": 1, "action": "new", "game": "mnemonic(players=2,skills=H4/D3C1)",
                                              "table": True, "player": 0})])
    answer = json.loads(out.getvalue().splitlines()[0])
    assert answer["state"]["players"][1]["skills"][1] == {"name": "Endure", "suit": "clubs", "rating": 1,
                                                           "status": "ok"}
    try:
        app = build_app(threads=1, db=tmp_path / "games.sqlite3")   # a server reads data files from its own places
        with TestClient(app, base_url="http://127.0.0.1:8765") as client:
            body = {"game": "mnemonic(players=2,skills=H4/D3C1)", "seed": 1, "mode": "table",
                    "seats": [{"player": 0, "by": "human"}, {"player": 1, "by": "human"}]}
            created = client.post("/api/games", json=body).json()
            for seat in created["seats"]:
                page = client.get(f"/api/games/{created['id']}/{seat['key']}").json()
                players = page["view"]["players"]
                assert [s["rating"] for s in players[0]["skills"]] == [4]
                assert [(s["suit"], s["rating"]) for s in players[1]["skills"]] == [("diamonds", 3), ("clubs", 1)]
    finally:
        unrestrict()                                                  # ... until this process serves no more


def test_mn48_the_batched_environment_refuses_entered_characters():
    """The step kernel deals characters made from the rules: a game with entered skills is refused, naming the field,
    rather than silently dealt other characters."""
    from solver.errors import UnsupportedActionError
    from solver.mnemonic import rows
    assert rows.config(load_game("mnemonic(players=2)")).shape == (rows.CONFIG_LEN,)
    with pytest.raises(UnsupportedActionError) as caught:
        rows.config(load_game("mnemonic(players=2,skills=H3/S2)"))
    assert caught.value.field == "game.skills"
