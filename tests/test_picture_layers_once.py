"""No static layer is drawn twice in one process (issue 23): whole seeded games of every game, each move told as
the bot and the terminal tell it (story, board, cards), in a fresh process with no picture folder, with an
empty one, and with the folder that run filled — which draws no layer at all."""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from bot.bench import picture_configs

pytestmark = pytest.mark.slow  # whole games and picture sweeps: left out of the quick subset

ROOT = Path(__file__).resolve().parent.parent


def _run(state: str, folder: Path, *more: str) -> dict[str, Any]:
    """One process of ``python -m bot.bench``'s whole-game picture run: its figures as JSON."""
    done = subprocess.run([sys.executable, "-m", "bot.bench", "--picture-run", state, "--folder", str(folder),
                           "--seed", "3", *more], cwd=ROOT, capture_output=True, text=True, timeout=1200, check=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def test_a_whole_seeded_game_draws_no_static_layer_twice_in_one_process(tmp_path: Path) -> None:
    folder = tmp_path / "pictures"
    with ThreadPoolExecutor(2) as pool:  # the first run after an upgrade (layers drawn and written meanwhile),
        empty_run = pool.submit(_run, "empty", folder)  # and a process with no folder at all
        none_run = pool.submit(_run, "none", tmp_path / "unused")
        empty, none = empty_run.result(), none_run.result()
    keys = {c.key for c in picture_configs()}
    for run in (empty, none):
        assert set(run["games"]) == keys
        assert all(g["finished"] and g["pictures"] > 0 for g in run["games"].values()), run["games"]
        assert run["drawn_twice"] == [], (run["state"], run["drawn_twice"])
        assert run["layers_drawn"] > 0  # the count sees the layers drawn
    assert not (tmp_path / "unused").exists()
    warm = _run("warm", folder, "--moves", "40")  # after a restart on the folder the first run filled
    assert set(warm["games"]) == keys and warm["layers_drawn"] == 0, warm["drawn_twice"]  # read back, none drawn
