"""Positions and commands typed from docs/formats/mnemonic.md work as documented."""

import json
from pathlib import Path

from solver.cli import main
from solver.mnemonic.game import MnemonicGame

DOC = (Path(__file__).resolve().parents[2] / "docs" / "formats" / "mnemonic.md").read_text(encoding="utf-8")


def blocks(language: str) -> list[str]:
    """The fenced code blocks opened with ```<language> (a line-by-line reading of the Markdown)."""
    out, current, opened = [], None, None
    for line in DOC.splitlines():
        if opened is None and line.strip().startswith("```"):
            opened = line.strip()[3:]
            current = []
        elif opened is not None and line.strip() == "```":
            if opened == language:
                out.append("\n".join(current))
            current, opened = None, None
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
        position = game.parse_position(json.loads(text))  # a state, or a view ("view": N)
        assert position.legal_moves() if hasattr(position, "observer") else position.legal_actions()
        assert game.parse_position(position.to_json()).to_json() == position.to_json()
        if hasattr(position, "observer"):
            assert position.to_json() == json.loads(text)


def test_the_notation_example_parses_and_round_trips():
    line = next(b.strip() for b in blocks("") if b.strip().startswith("mnemonic "))
    state = MnemonicGame().state_from_notation(line)
    assert state.to_notation() == line
    view_line = next(b.strip() for b in blocks("") if b.strip().startswith("view:"))
    assert MnemonicGame().parse_position(view_line).to_notation() == view_line


def test_the_odds_examples_print_what_the_doc_says(capsys):
    documented = [v for b in blocks("json") if '"mode"' not in b for v in json_values(b)]
    assert main(["mnemonic", "odds", "--players", "3,2,0", "--adversary", "4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == documented[0]
    assert main(["mnemonic", "odds", "--individual", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == documented[1]
