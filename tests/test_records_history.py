"""History and replay read the log through the engine: a take-back strikes its move and the replay leaves it
out (as ``bot.service.gamelog.effective`` and the service's replay do), Tabula's moves and timeouts are marked, pages
stay within Discord's limits, and stats count people only."""

from __future__ import annotations

import json
from dataclasses import replace

import msgspec
import pytest

from bot.service.gamelog import effective
from bot.service.play import SYSTEM_USER, GameService
from bot.service.records import (
    PAGE_LINES,
    LogRow,
    Records,
    Tally,
    build,
    frame,
    history_lines,
    history_page,
    pages,
    standings,
    stats_text,
    tally_player,
    walk,
)
from bot.store.db import Database
from bot.store.records import FinishedGame
from rules.core import SeatInfo
from tests.records_helpers import PEOPLE, play_on, play_out


async def stored_game(db: Database, seed: int, **kw: object) -> tuple[GameService, Records, int]:
    svc = GameService(db)
    game_id = await play_out(svc, "legend", {}, PEOPLE[:2], seed, **kw)  # type: ignore[arg-type]
    return svc, Records(db.sessions), game_id


def undo_row(seq: int, target: int, seat: int) -> LogRow:
    return LogRow(seq=seq, user_id=PEOPLE[0].id, seat=seat, action=json.dumps({"type": "tabula.undo",
                                                                               "undoes": target}), events="[]")


async def test_a_take_back_is_struck_and_left_out_of_the_replay(db: Database) -> None:
    svc, records, game_id = await stored_game(db, 51, stop_after=12)
    game = await records.game(game_id, 1)
    rows = list(game.rows)
    last = rows[-1]
    rows.append(undo_row(last.seq + 1, last.seq, last.seat or 0))
    taken = build(game.facts, rows)
    assert not taken.timeline.problems and all(e.problem is None for e in taken.timeline.entries)
    # the state after the take-back is the game without that move, exactly as the service's replay reads it
    expected = game.timeline.after(len(game.timeline.entries) - 1)
    assert msgspec.json.encode(taken.timeline.final) == msgspec.json.encode(expected)
    assert [r.seq for r in effective(rows)] == [r.seq for r in effective(game.rows)][:-1]
    lines = history_lines(taken)
    number = len(rows) - 2
    assert lines[-2].startswith(f"~~{number}. ") and lines[-2].endswith("~~ (taken back)")
    assert lines[-1] == f"{number + 1}. ↩ {game.name_of(last.seat)} took back move {number}"
    # a take-back of a move in the middle: the later moves are played again on the state without it
    middle = rows[3]
    rows2 = [*game.rows, undo_row(last.seq + 1, middle.seq, 0)]
    again = build(game.facts, rows2)
    seats = [SeatInfo(index=s.seat, name=s.name) for s in game.seats]
    direct = walk(game.rules, seats, game.options, game.seed, [r for r in game.rows if r.seq != middle.seq])
    ok = all(e.problem is None for e in again.timeline.entries)
    if ok:  # when the later moves still fit without it, the position is the log replayed without that move
        assert msgspec.json.encode(again.timeline.final) == msgspec.json.encode(direct.final)
    else:
        assert any("no longer fits" in (e.problem or "") for e in again.timeline.entries)
    # a take-back that names no earlier move is a problem of the log, and changes nothing
    wrong = build(game.facts, [*game.rows, undo_row(last.seq + 1, last.seq + 5, 0)])
    assert wrong.timeline.entries[-1].problem is not None
    assert msgspec.json.encode(wrong.timeline.final) == msgspec.json.encode(game.timeline.final)
    assert await svc.replay(game_id) == game.timeline.final


async def test_tabulas_moves_and_timeouts_are_marked(db: Database) -> None:
    _svc, records, game_id = await stored_game(db, 52, stop_after=8, tabula=1)
    game = await records.game(game_id, 1)
    lines = history_lines(game)
    assert any(line.split(". ", 1)[1].startswith("🤖 Tabula") for line in lines)
    person_row = next(r for r in game.rows[1:] if r.user_id > 0)
    rows = [replace(r, user_id=SYSTEM_USER) if r is person_row else r for r in game.rows]
    timed = history_lines(build(game.facts, rows))
    number = game.rows.index(person_row)
    assert timed[number - 1].startswith(f"{number}. ⏱ ") and "time ran out" in timed[number - 1]


@pytest.mark.slow
async def test_pages_stay_within_discords_limits(db: Database) -> None:
    _svc, records, game_id = await stored_game(db, 53)
    game = await records.game(game_id, 1)
    lines = await records.lines(game)
    assert len(lines) == len(game.rows) - 1
    starts = [0]
    for packed in pages(lines)[:-1]:
        starts.append(starts[-1] + len(packed))
    at: int | None = 0
    walked = []
    while at is not None:
        page = history_page(game, lines, at)
        assert len(page.text) < 2000
        walked.append(page.start)
        at = page.next
    assert walked[:len(starts)] == starts  # Next steps through the same pages as packing from the start
    newest = history_page(game, lines)
    assert newest.next is None and newest.end == len(lines) + 1  # the result's line closes the last page
    assert history_page(game, lines, newest.previous).end == newest.start
    assert history_page(game, lines, len(lines) + 50).start == newest.start  # past the end: the newest page
    long = ["x" * 170] * 40
    packed = pages(long)
    assert all(len(p) <= PAGE_LINES and sum(len(x) + 1 for x in p) <= 1750 for p in packed)
    assert sum(len(p) for p in packed) == 40
    start = frame(game, lines, 0)
    assert start.number == 0 and start.previous == 0 and start.first == 0
    end = frame(game, lines)
    assert end.number == end.last == len(lines) and end.next == end.last


def test_stats_count_people_only_and_rank_by_win_rate() -> None:
    def game(i: int, seats: dict[int, int], winners: list[int], moves: int = 10) -> FinishedGame:
        return FinishedGame(game_id=i, ruleset="legend", seats=seats, moves=moves, started_at=0.0,
                            finished_at=86400.0 * 2,
                            result=json.dumps({"winners": winners, "scores": {}, "summary": ""}))

    finished = [game(1, {0: 7, 1: -1}, [1]), game(2, {0: 7, 1: 8}, [0]), game(3, {0: 8, 1: 7}, [1]),
                game(4, {0: 8, 1: 7}, [0], moves=30)]
    board = standings(finished, 3)
    assert [(s.user_id, s.played, s.won) for s in board] == [(7, 4, 2), (8, 3, 1)]  # Tabula (-1) is no one
    assert standings(finished, 4)[0].user_id == 7 and len(standings(finished, 4)) == 1
    [per, total] = tally_player(finished, 7)
    assert (per.played, per.won, per.moves, per.days) == (4, 2, 60, 8.0)
    assert total == Tally(ruleset="", played=4, won=2, moves=60, days=8.0)
    text = stats_text([per, total], "Ann")
    assert "4 played, 2 won (50%) · on average 15 moves over 2.0 days" in text
    assert "All games" not in text  # one game only: no total line repeating it


async def test_a_growing_log_is_walked_on_from_where_it_was(db: Database) -> None:
    svc, records, game_id = await stored_game(db, 54, stop_after=10)
    early = await records.game(game_id, 1)
    await play_on(svc, game_id, 99, stop_after=7)
    later = await records.game(game_id, 1)
    assert len(later.rows) == len(early.rows) + 7
    assert later.timeline.entries[3].after is early.timeline.entries[3].after  # walked on, not walked again
    fresh = build(later.facts, later.rows)
    assert history_lines(later) == history_lines(fresh)
    assert msgspec.json.encode(later.timeline.final) == msgspec.json.encode(fresh.timeline.final)
    assert msgspec.json.encode(later.timeline.final) == msgspec.json.encode(await svc.replay(game_id))
    # a take-back logged later strikes a move walked earlier, and the earlier walk is left as it was
    rows = [*later.rows, undo_row(later.rows[-1].seq + 1, early.rows[-1].seq, early.rows[-1].seat or 0)]
    resumed = build(later.facts, rows, resume=later)
    assert history_lines(resumed) == history_lines(build(later.facts, rows))
    assert history_lines(resumed)[len(early.rows) - 2].startswith("~~")
    assert not history_lines(later)[len(early.rows) - 2].startswith("~~")
