"""docs/sessions/mnemonic.md: the table session replays command by command, with the output the page shows."""

import json
import shlex
from pathlib import Path

from solver.mnemonic.commands import DEMO_GAME, DEMO_NEW, DEMO_SESSION, demo_record

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


def test_the_demo_reviews_the_documented_session():
    """``memory-solver demo`` reviews the session of docs/sessions/mnemonic.md: the moves its apply commands
    recorded, from player 0's view of the same deal."""
    script = session_script()
    recorded = []
    for _, command in script.SESSION:
        argv = shlex.split(command)
        if "apply" in argv and "--record" in argv:
            moves = argv[argv.index("apply") + 2:]
            recorded += moves[:moves.index("--record")]
    assert DEMO_SESSION == tuple(recorded)
    new = shlex.split(script.SESSION[0][1])
    assert new[2:new.index("--record")] == list(DEMO_NEW)
    record = json.loads(demo_record())
    assert record["start"] == DEMO_GAME.new_game(4).view(0).to_json() and record["game"] == DEMO_GAME.spec()
