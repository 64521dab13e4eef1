"""Positions and commands typed from docs/formats/mnemonic.md work as documented."""

import json
from pathlib import Path

from solver.cli import main
from solver.mnemonic.game import MnemonicGame

DOC = (Path(__file__).resolve().parents[2] / "docs" / "formats" / "mnemonic.md").read_text(encoding="utf-8")


def blocks(language: str) -> list[str]:
    """The fenced code blocks opened with ```<language> (a line-by-line reading of the Markdown)."""
    out, current = [], None
    for line in DOC.splitlines():
        if current is None and line.strip() == f"```{language}":
            current = []
        elif current is not None and line.strip() == "```":
            out.append("\n".join(current))
            current = None
        elif current is not None:
            current.append(line)
    return out


def json_values(text: str) -> list[object]:
    decoder, values, at = json.JSONDecoder(), [], 0
    while at < len(text.strip()):
        while text[at].isspace():
            at += 1
        value, at = decoder.raw_decode(text, at)
        values.append(value)
        if not text[at:].strip():
            break
    return values


def test_the_json_state_example_parses_and_round_trips():
    examples = [b for b in blocks("json") if '"mode"' in b]
    assert examples
    game = MnemonicGame()
    for text in examples:
        state = game.state_from_json(json.loads(text))
        assert state.phase == "scene-skill" and state.legal_actions()
        assert game.state_from_json(state.to_json()).to_json() == state.to_json()


def test_the_notation_example_parses_and_round_trips():
    line = next(b.strip() for b in blocks("") if b.strip().startswith("mnemonic "))
    state = MnemonicGame().state_from_notation(line)
    assert state.to_notation() == line


def test_the_odds_examples_print_what_the_doc_says(capsys):
    documented = [v for b in blocks("json") if '"mode"' not in b for v in json_values(b)]
    assert main(["mnemonic", "odds", "--players", "3,2,0", "--adversary", "4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == documented[0]
    assert main(["mnemonic", "odds", "--individual", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == documented[1]
