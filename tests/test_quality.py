"""The conventions of DESIGN.md §7, checked: ruff clean everywhere, mypy --strict on rules/, render/, bot/ and cogs/."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_is_clean() -> None:
    run = subprocess.run([sys.executable, "-m", "ruff", "check", "."], cwd=ROOT, capture_output=True, text=True,
                         check=False)
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.slow
def test_mypy_strict_on_rules_render_bot_and_cogs() -> None:
    run = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "rules", "render", "bot",
                          "cogs"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
