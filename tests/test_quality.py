"""The conventions of DESIGN.md §7, checked: ruff clean everywhere, mypy --strict on rules/, render/, bot/ and cogs/."""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tempfile
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _mypy_version() -> str:
    try:
        return f"{version('mypy')} {sys.version}"
    except PackageNotFoundError:  # the test extras install it
        return sys.version


def test_ruff_is_clean() -> None:
    run = subprocess.run([sys.executable, "-m", "ruff", "check", "."], cwd=ROOT, capture_output=True, text=True,
                         check=False)
    assert run.returncode == 0, run.stdout + run.stderr


#: mypy's cache, outside the repository (nothing is written in its tree), one a machine and mypy version, as
#: pip keeps one wheel cache: a run after a small change checks again only what the change touches (about 3 s of
#: CPU instead of 17 s), also in a fresh clone (mypy compares the sources' hashes, not where they are or their
#: times); the first run on a machine checks all.  Its files are written whole (mypy replaces each atomically),
#: so two checkouts' runs at once cost a file checked twice at worst.
MYPY_CACHE = Path(tempfile.gettempdir()) / f"tabula-mypy-{hashlib.sha256(_mypy_version().encode()).hexdigest()[:16]}"


@pytest.mark.slow
def test_mypy_strict_on_rules_render_bot_and_cogs() -> None:
    run = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(MYPY_CACHE), "rules", "render",
                          "bot", "cogs"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
