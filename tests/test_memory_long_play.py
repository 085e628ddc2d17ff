"""Memory after play, in a fresh process with the bot ready on the loopback Discord: the memory run the
documented figures come from (``python -m tests.ops_helpers memory N FOLDER``, there at 1,000 games), here at
60 games, which reach the plateau. Under 150 MB once the bot has been idle (a map's geometry let go), with an
empty picture folder (the first run after an upgrade) and with the folder that run filled: 135.7 and 127.8 MB on
2026-12-02, where the code of that afternoon read 166.6 and 151.1 MB.  Each process also counts the static layers it
drew: none twice with the folder empty, none at all once it is filled (``test_picture_layers_once`` checks
whole games with no folder)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TARGET_MB = 150


@pytest.mark.slow
def test_memory_after_play_stays_under_150_mb_with_an_empty_and_a_filled_picture_folder(tmp_path: Path) -> None:
    pictures = tmp_path / "pictures"
    for folder in ("empty", "filled"):
        run = subprocess.run([sys.executable, "-m", "tests.ops_helpers", "memory", "60", str(pictures)], cwd=ROOT,
                             capture_output=True, text=True, timeout=900)
        assert run.returncode == 0, run.stderr[-3000:]
        mem = json.loads(run.stdout.strip().splitlines()[-1])
        assert mem["idle_mb"] < TARGET_MB, (folder, mem)
        assert mem["ready_mb"] < mem["idle_mb"], (folder, mem)
        # No static layer drawn twice in one process, whatever the folder holds; none at all once it is filled.
        assert mem["drawn_twice"] == [], (folder, mem["drawn_twice"])
        assert (mem["layers_drawn"] > 0) if folder == "empty" else (mem["layers_drawn"] == 0), (folder, mem)
    assert any(pictures.iterdir()), "the first run kept its pictures in the folder"
