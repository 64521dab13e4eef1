"""docs/sessions/mnemonic.md: the table session replays command by command, with the output the page shows."""

from pathlib import Path

from .helpers import session_script

SESSION_DOC = Path(__file__).resolve().parents[2] / "docs" / "sessions" / "mnemonic.md"


def test_the_documented_session_replays(tmp_path):
    script = session_script()
    documented = script.documented_session(SESSION_DOC.read_text(encoding="utf-8"))
    assert [command for command, _ in documented] == [command for _, command in script.SESSION]
    for (command, shown), (_, _, status, output) in zip(documented, script.session_transcript(str(tmp_path))):
        printed = output + (f"[exit status {status}]\n" if status else "")
        assert script.without_times(printed) == script.without_times(shown), command
    assert (tmp_path / "game.jsonl").exists()
