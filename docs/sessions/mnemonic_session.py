"""The documented Mnemonic table session and pictures, made by running the commands they show.

``python docs/sessions/mnemonic_session.py`` (from the project's root) rewrites
``docs/sessions/mnemonic.md`` and the pictures ``docs/pictures/mnemonic-*.svg``;
the tests run the same commands and compare (``tests/mnemonic/test_session_doc.py``,
``tests/mnemonic/test_pictures.py``). Wall-clock figures (``in 0.87 s``) are the
only part of the output that differs from run to run.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import sys
import tempfile
from pathlib import Path

from solver import cli

ROOT = Path(__file__).resolve().parents[2]
SESSION_DOC = ROOT / "docs" / "sessions" / "mnemonic.md"
NODES = "--nodes 30000"

#: (comment, command): a two-player Into the Grey session from player 0's seat, to its end, then its review
SESSION: list[tuple[str, str]] = [
    ("Deal a two-player Into the Grey session and keep player 0's view of it in a record (player 0 is "
     "`Player 1` at the table):",
     "memory-solver mnemonic new --mode into-the-grey --players 2 --seed 4 --player 0 --record game.jsonl"),
    ("What player 0 knows: their 27 cards, everyone's skills, the size of the other hand.",
     "memory-solver mnemonic show game.jsonl"),
    ("Player 0 leads the first scene. Which card?", f"memory-solver mnemonic hint game.jsonl {NODES}"),
    ("The hint keeps the 3-dice skills fresh for the Group Scene and risks the 2-dice Sneak:",
     'memory-solver mnemonic apply game.jsonl "play 2S" --record game.jsonl'),
    ("", f"memory-solver mnemonic hint game.jsonl {NODES}"),
    ("The dice are rolled at the table: the highest is a 4, so Sneak will be complicated unless player 0 weaves.",
     'memory-solver mnemonic apply game.jsonl \'use "Sneak"\' "roll 4" --record game.jsonl'),
    ("", f"memory-solver mnemonic hint game.jsonl {NODES}"),
    ("Player 0 keeps the weaving anyway (the review will weigh this):",
     'memory-solver mnemonic apply game.jsonl "no weave" --record game.jsonl'),
    ("Player 1's scene. Player 0 cannot see that hand, so an entry that cannot be theirs is refused:",
     'memory-solver mnemonic apply game.jsonl "play 9D"'),
    ("Player 1 plays the 7 of diamonds, uses Bargain and rolls a 6; no weaving:",
     'memory-solver mnemonic apply game.jsonl "play 7D" \'use "Bargain"\' "roll 6" "no weave" '
     "--record game.jsonl"),
    ("The round is over: player 0 speaks for the table.", f"memory-solver mnemonic hint game.jsonl {NODES}"),
    ("Player 0 calls the Group Scene now rather than the hint's `round` (the review will weigh this too):",
     'memory-solver mnemonic apply game.jsonl "group" --record game.jsonl'),
    ("Make the Plan: player 0 discards a card of the skill's suit (MN-41).",
     f"memory-solver mnemonic hint game.jsonl {NODES}"),
    ("Player 0 brings Fight With Hands with the 2 of hearts; player 1 brings Bargain with the 3 of diamonds:",
     'memory-solver mnemonic apply game.jsonl \'group use "Fight With Hands" with 2H\' '
     '\'group use "Bargain" with 3D\' --record game.jsonl'),
    ("The odds of the Group Scene's result:", f"memory-solver mnemonic hint game.jsonl {NODES}"),
    ("", 'memory-solver mnemonic apply game.jsonl "result victory" --record game.jsonl'),
    ("", f"memory-solver mnemonic hint game.jsonl {NODES}"),
    ("The table ends the session on its Victory:",
     'memory-solver mnemonic apply game.jsonl "end" --record game.jsonl'),
    ("The review judges each of player 0's decisions from what they knew then, biggest mistakes first:",
     f"memory-solver mnemonic review game.jsonl {NODES}"),
]

INTRO = """# A Mnemonic table session

A whole Into the Grey session for two, played from one seat as a new user would: `new` deals the session and
keeps player 0's view in a record; every move of both players and every roll is entered with `apply` as it
happens at the table; player 0 asks `hint` at each of their decisions; `review` judges the record. Nothing here
reads player 1's hand: the hints and the review see only player 0's view (`hand=?27`).

The commands ran in an empty directory; the output is exactly as printed, except the search times (`in 0.87 s`),
which vary. `tests/mnemonic/test_session_doc.py` replays them; `python docs/sessions/mnemonic_session.py` rewrites
this page.

The hint's value is the chance that a Group Scene still to come ends in Victory within the planning horizon
(MN-33). After the Victory the table ends the session: the hint prefers `round` (the chance of another
Victory, for a table playing on for more of the story), but the session is already won (MN-31), so the review
does not grade the decision (MN-49).
"""


def run_command(command: str) -> tuple[int, str]:
    """Run one ``memory-solver`` command line in-process; its exit status and everything it printed."""
    argv = shlex.split(command)
    assert argv[0] == "memory-solver"
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        status = cli.main(argv[1:])
    return status, out.getvalue()


def session_transcript(directory: str) -> list[tuple[str, str, int, str]]:
    """Run the session in ``directory``: (comment, command, status, output) per step."""
    here = os.getcwd()
    os.chdir(directory)
    try:
        return [(comment, command, *run_command(command)) for comment, command in SESSION]
    finally:
        os.chdir(here)


def session_markdown(transcript: list[tuple[str, str, int, str]]) -> str:
    parts = [INTRO]
    for comment, command, status, output in transcript:
        if comment:
            parts.append(comment + "\n")
        shown = f"$ {command}\n{output}" + (f"[exit status {status}]\n" if status else "")
        parts.append("```console\n" + shown + "```\n")
    return "\n".join(parts)


def documented_session(text: str) -> list[tuple[str, str]]:
    """(command, output) pairs from the page's console blocks."""
    out = []
    for block in re.findall(r"```console\n(.*?)```\n", text, flags=re.S):
        command, _, output = block.partition("\n")
        assert command.startswith("$ ")
        out.append((command[2:], output))
    return out


def without_times(text: str) -> str:
    return re.sub(r"in [0-9.]+ s\b", "in ? s", text)


#: the session's position after player 0's roll, the full state (every hand) and player 0's view of it
WEAVE_STATE = ("mnemonic into-the-grey r1 scene-weave f0 a0 t0/0/0 last=- | discard 2S@0 | scene card=2S skill=Sneak "
               "roll=4 | P Player_1 w1 b0 hand=2H,4H,5H,6H,8H,9H,TH,JH,6D,9D,JD,AD,2C,6C,8C,QC,KC,AC,4S,5S,6S,7S,8S,"
               "QS,KS,BJ skills=Fight_With_Hands=H3,Bargain=D3,Endure=C3,Sneak=S2 | P Player_2 w1 b0 hand=3H,7H,QH,"
               "KH,AH,2D,3D,4D,5D,7D,8D,TD,QD,KD,3C,4C,5C,7C,9C,TC,JC,3S,9S,TS,JS,AS,RJ skills=Fight_With_Hands=H3,"
               "Bargain=D3,Endure=C3,Sneak=S1")
#: player 0's view when player 1 leads a scene: the cards player 1 may play are laid out to click
OTHER_VIEW = ("view:0 mnemonic into-the-grey r1 scene-card f1 a0 t0/0/0 last=- | discard 2S@0 | P Player_1 w1 b0 "
              "hand=2H,4H,5H,6H,8H,9H,TH,JH,6D,9D,JD,AD,2C,6C,8C,QC,KC,AC,4S,5S,6S,7S,8S,QS,KS,BJ "
              "skills=Fight_With_Hands=H3,Bargain=D3,Endure=C3,Sneak=S2c | P Player_2 w1 b0 hand=?27 "
              "skills=Fight_With_Hands=H3,Bargain=D3,Endure=C3,Sneak=S1")
#: the pictures of docs/formats/mnemonic.md and the commands that make them
PICTURES = {
    "docs/pictures/mnemonic-state.svg": f'memory-solver mnemonic show "{WEAVE_STATE}" --svg',
    "docs/pictures/mnemonic-view-hint.svg": f'memory-solver mnemonic show "{WEAVE_STATE}" --player 0 --svg --hint '
                                            f"{NODES}",
    "docs/pictures/mnemonic-table.svg": f'memory-solver mnemonic show "{OTHER_VIEW}" --svg',
}


def picture_of(command: str) -> str:
    status, output = run_command(command)
    assert status == 0, output
    return output


def write_pictures(root: Path = ROOT) -> None:
    """Write the documented pictures under ``root`` (a checkout of the project)."""
    for path, command in PICTURES.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(picture_of(command), encoding="utf-8")


def main() -> None:
    """Regenerate the session page and the pictures in the checkout in the working directory
    (``python docs/sessions/mnemonic_session.py`` from the project's root)."""
    root = Path.cwd()
    session_doc = root / SESSION_DOC.relative_to(ROOT)
    with tempfile.TemporaryDirectory() as tmp:
        session_doc.parent.mkdir(parents=True, exist_ok=True)
        session_doc.write_text(session_markdown(session_transcript(tmp)), encoding="utf-8")
    write_pictures(root)
    sys.stdout.write(f"wrote {session_doc.relative_to(root)} and {', '.join(PICTURES)}\n")


if __name__ == "__main__":
    main()
