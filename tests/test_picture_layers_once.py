"""No static layer is drawn twice in one process (issue 23): whole seeded games of every game, each move told as
the bot and the terminal tell it (story, board, cards), in a fresh process with no picture folder, where every
layer drawn must be kept in memory for the whole process (the path where 30 Champion boards drew the label
layer 410 times).

A picture folder's two states are checked by the memory run's two processes (``test_memory_long_play``: 60
games of the four, an empty folder then the folder that run filled): no layer drawn twice in the first, none
drawn at all in the second.  ``python -m bot.bench --pictures`` prints the figures of all three states."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.bench import picture_configs

pytestmark = pytest.mark.slow  # whole games and picture sweeps: left out of the quick subset

ROOT = Path(__file__).resolve().parent.parent


def _run(state: str, folder: Path) -> dict[str, Any]:
    """One process of ``python -m bot.bench``'s whole-game picture run: its figures as JSON."""
    done = subprocess.run([sys.executable, "-m", "bot.bench", "--picture-run", state, "--folder", str(folder),
                           "--seed", "3"], cwd=ROOT, capture_output=True, text=True, timeout=1200, check=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def test_a_whole_seeded_game_draws_no_static_layer_twice_in_one_process(tmp_path: Path) -> None:
    run = _run("none", tmp_path / "unused")  # a process with no folder at all (a container without a volume)
    assert set(run["games"]) == {c.key for c in picture_configs()}
    assert all(g["finished"] and g["pictures"] > 0 for g in run["games"].values()), run["games"]
    assert run["drawn_twice"] == [], run["drawn_twice"]
    assert run["layers_drawn"] > 0  # the count sees the layers drawn
    assert not (tmp_path / "unused").exists()
