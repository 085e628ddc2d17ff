"""`python -m bot arena` plays seat-swapped games between Tabula's levels and prints what it measured (issue 26)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_arena_prints_win_rates_with_intervals_moves_per_second_and_time_per_decision() -> None:
    run = subprocess.run([sys.executable, "-m", "bot", "arena", "legend", "--a", "normal", "--b", "easy", "--games",
                          "2", "--iterations", "4", "--depth", "10"], cwd=ROOT, capture_output=True, text=True,
                         timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "legend, 2 seats, 2 games" in out
    assert "normal (1 seat) against easy: won" in out and "95% CI" in out and "its share" in out
    assert "moves/s" in out and "time per decision: normal median" in out


def test_the_arena_refuses_a_game_it_does_not_know_in_one_line() -> None:
    run = subprocess.run([sys.executable, "-m", "bot", "arena", "chess"], cwd=ROOT, capture_output=True, text=True,
                         timeout=60, check=False)
    assert run.returncode != 0 and "Traceback" not in run.stderr
