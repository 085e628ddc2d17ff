"""The offline verifier: an honest export passes, and a changed roll, a changed action or a reordered row is
caught, each with a line saying where; a running game's export says plainly what it cannot check yet."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.ops.verify import check, main
from bot.service.play import GameService
from bot.service.records import Records, export
from bot.store.db import Database
from tests.records_helpers import PEOPLE, play_on, play_out

ROOT = Path(__file__).resolve().parent.parent


async def exported(db: Database, *, seed: int, stop_after: int | None = None, rolls: int = 2) -> dict[str, Any]:
    """A game played by seeded random play with table rolls among its moves, exported as the bot would."""
    svc = GameService(db)
    game_id = await play_out(svc, "legend", {}, PEOPLE[:3], seed, stop_after=10)
    for n in range(rolls):
        await svc.act(game_id, PEOPLE[n % 3].id, verb="roll", args={"expr": f"{n + 2}d6+1"})
    await play_on(svc, game_id, seed + 1, stop_after=None if stop_after is None else stop_after - 10)
    return export(await Records(db.sessions).game(game_id, 1), now=0.0)


def entry_index(data: dict[str, Any], kind: str, after: int = 1) -> int:
    return next(i for i, row in enumerate(data["log"]) if i >= after and row["kind"] == kind)


@pytest.mark.slow
async def test_an_honest_export_verifies(db: Database, tmp_path: Path, capsys: Any) -> None:
    data = await exported(db, seed=41)
    assert data["game"]["complete"] and data["game"]["status"] == "finished"
    report = check(data)
    assert report.ok and report.complete and report.checked == len(data["log"]) - 1
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    assert main([str(path)]) == 0
    assert "entries match" in capsys.readouterr().out
    # and through the bot's own entry point, as a player would run it
    done = subprocess.run([sys.executable, "-m", "bot", "verify", str(path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "every move and roll replays exactly" in done.stdout


async def test_a_changed_roll_is_caught(db: Database, tmp_path: Path, capsys: Any) -> None:
    data = await exported(db, seed=42)
    bad = copy.deepcopy(data)
    at = entry_index(bad, "roll")
    event = bad["log"][at]["events"][0]
    faces = event["dice"][0]
    faces[0] = faces[0] % 6 + 1  # another face, still a legal one
    event["total"] = sum(faces) + 1
    report = check(bad)
    assert not report.ok and len(report.mismatches) == 1
    assert report.mismatches[0].startswith(f"entry {at} (roll")
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    assert main([str(path)]) == 1
    out = capsys.readouterr().out
    assert out.count("MISMATCH") == 1 and "1 mismatch in" in out


async def test_a_changed_action_is_caught(db: Database) -> None:
    data = await exported(db, seed=43)
    bad = copy.deepcopy(data)
    at = entry_index(bad, "move", after=15)
    other = next(i for i in range(at + 1, len(bad["log"])) if bad["log"][i]["kind"] == "move"
                 and bad["log"][i]["action"] != bad["log"][at]["action"])
    bad["log"][at]["action"] = bad["log"][other]["action"]
    report = check(bad)
    assert not report.ok
    assert report.mismatches[0].startswith(f"entry {at} (move")
    assert sum(1 for m in report.mismatches if "(move," in m) == 1  # what follows from it is one line, not many


async def test_a_reordered_row_is_caught(db: Database) -> None:
    data = await exported(db, seed=44)
    bad = copy.deepcopy(data)
    at = entry_index(bad, "move", after=12)
    bad["log"][at], bad["log"][at + 1] = bad["log"][at + 1], bad["log"][at]
    report = check(bad)
    assert any("out of order" in m for m in report.mismatches)
    moved = copy.deepcopy(data)
    moved["game"]["result"] = {"winners": [9], "scores": {}, "summary": "forged"}
    assert any("result differs" in m for m in check(moved).mismatches)


async def test_a_running_games_export_keeps_secrets_and_says_what_it_checks(db: Database, tmp_path: Path,
                                                                            capsys: Any) -> None:
    data = await exported(db, seed=45, stop_after=25)
    game = data["game"]
    assert not game["complete"] and game["seed"] is None and game["state_sha256"] is None
    assert all(row["events"] is None for row in data["log"] if row["kind"] in ("move", "start"))
    report = check(data)
    assert report.ok and not report.complete
    path = tmp_path / "running.json"
    path.write_text(json.dumps(data))
    assert main([str(path)]) == 0
    out = capsys.readouterr().out
    assert "still running" in out and "export it again once it ends" in out
    bad = copy.deepcopy(data)
    roll = bad["log"][entry_index(bad, "roll")]["events"][0]
    roll["total"] += 1  # the dice no longer add up
    report = check(bad)
    assert not report.ok and "add up to" in report.mismatches[0]
    roll["total"] -= 1
    roll["dice"][0][0] = 7  # no six-sided die shows 7
    assert "cannot show" in check(bad).mismatches[0]


@pytest.mark.parametrize("text", ["not json", '{"format": "something else"}',
                                  '{"format": "tabula-game-log", "version": 99, "game": {}, "log": []}'])
def test_an_unreadable_file_exits_2(tmp_path: Path, text: str, capsys: Any) -> None:
    path = tmp_path / "odd.json"
    path.write_text(text)
    assert main([str(path)]) == 2
    assert "cannot be checked" in capsys.readouterr().err
    assert main([str(tmp_path / "missing.json")]) == 2
