"""docs/sessions/mnemonic.md: the table session replays command by command, with the output the page shows."""

from pathlib import Path

from solver.mnemonic.examples import SESSION, documented_session, session_transcript, without_times

SESSION_DOC = Path(__file__).resolve().parents[2] / "docs" / "sessions" / "mnemonic.md"


def test_the_documented_session_replays(tmp_path):
    documented = documented_session(SESSION_DOC.read_text(encoding="utf-8"))
    assert [command for command, _ in documented] == [command for _, command in SESSION]
    for (command, shown), (_, _, status, output) in zip(documented, session_transcript(str(tmp_path))):
        printed = output + (f"[exit status {status}]\n" if status else "")
        assert without_times(printed) == without_times(shown), command
    assert (tmp_path / "game.jsonl").exists()
