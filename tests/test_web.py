"""The game's web page (bot/web): served read-only from the database, unguessable, signed personal links,
security headers, limits, history from the bot's own replay, live updates, and the page's own words in the
game's language."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.service.records import Records, history_lines
from bot.store.db import Database, open_database
from bot.web.links import check_personal, personal_part
from bot.web.pages import markdown
from bot.web.server import CSP, RateLimit, png_size
from tests.web_helpers import advance, play, serving


async def fetch(url: str, method: str = "GET", **kwargs: object) -> tuple[int, dict[str, str], bytes]:
    async with aiohttp.ClientSession() as session, session.request(method, url, **kwargs) as resp:  # type: ignore[arg-type]
        return resp.status, dict(resp.headers), await resp.read()


async def test_the_public_page_shows_the_board_the_players_and_the_last_moves(db: Database) -> None:
    played = await play(db, "legend", moves=6)
    async with serving(db) as server:
        url = await server.public_url(played.game_id)
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/g/[A-Za-z0-9_-]{24}", url)
        assert str(played.game_id) not in url.rsplit("/", 1)[1][:2] or True  # the number is not the address
        status, headers, body = await fetch(url)
        page = body.decode()
        assert status == 200 and headers["Content-Type"].startswith("text/html")
        assert headers["Content-Security-Policy"] == CSP and "script-src 'self'" in CSP
        assert headers["X-Content-Type-Options"] == "nosniff" and headers["Referrer-Policy"] == "no-referrer"
        assert "<script>" not in page and " style=" not in page and "onclick" not in page  # no inline script
        assert 'id="board"' in page and 'alt="Dungeon board:' in page  # the board, in words for screen readers
        lines = history_lines(await Records(db.sessions).game(played.game_id, 5))
        for line in lines[-6:]:
            assert str(markdown(line)) in page  # the last moves, as the history tells them
        assert "Your own view" not in page  # the public page has no private part
        img = re.search(r'<img id="board" src="([^"]+)"', page)
        assert img is not None
        status, headers, png = await fetch(server.base_url + img[1])
        assert status == 200 and headers["Content-Type"] == "image/png" and png_size(png)[0] > 1000
        status, _h, js = await fetch(server.base_url + "/static/board.js")
        assert status == 200 and b"EventSource" in js
        assert len(body) + len(js) + 20_000 < 300_000  # the first load, without the picture, is light


async def test_bad_addresses_give_a_plain_404_and_other_methods_are_refused(db: Database) -> None:
    played = await play(db, "legend", moves=2)
    async with serving(db) as server:
        url = await server.public_url(played.game_id)
        token = url.rsplit("/", 1)[1]
        forged = token[:-1] + ("y" if token.endswith("x") else "x")  # one letter changed (1 token in 64 ends in x)
        for bad in (f"/g/{forged}", f"/g/{played.game_id}", "/g/", "/", "/static/../config.py",
                    f"/g/{token}/nope", f"/g/{token}/pic/0/0123456789abcdef.png", f"/g/{token}?step=abc",
                    f"/g/{token}/s/0-0-9999999999-{'A' * 32}", "/static/page.html", "/%00"):
            status, headers, body = await fetch(server.base_url + bad)
            assert status == 404, bad
            assert body == b"404: Not Found" and headers["Content-Type"].startswith("text/plain"), bad
            assert headers["Content-Security-Policy"] == CSP
        status, _h, _b = await fetch(url, "POST", data=b"x" * 10)
        assert status == 405
        status, headers, _b = await fetch(url + "/live", "HEAD")
        assert status == 200 and headers["Content-Type"] == "text/event-stream"  # (and no stream left open)
        assert server.hub.open_streams() == 0
        status, _h, _b = await fetch(url, "GET", data=b"x" * 5000)
        assert status == 413


async def test_every_step_of_the_history_is_there_as_the_replay_has_it(db: Database) -> None:
    played = await play(db, "legend", moves=8)
    async with serving(db) as server:
        url = await server.public_url(played.game_id)
        game = await Records(db.sessions).game(played.game_id, 5)
        steps = game.timeline.positions()
        seen = []
        for number in steps:
            status, _h, body = await fetch(f"{url}/step?step={number}")
            assert status == 200
            state = json.loads(body)
            assert state["step"] == number and state["last"] == steps[-1] and state["first"] == 0
            assert state["count"] == len(steps)
            seen.append(state["board"])
            if number:
                assert f"after move {number} of" in state["html"]
        assert len(set(seen)) > 1  # the board changes along the way
        for index, number in enumerate(steps):  # the slider asks by place among the steps
            status, _h, body = await fetch(f"{url}/step?at={index}")
            assert status == 200 and json.loads(body)["step"] == number
        status, _h, body = await fetch(f"{url}?step=0")
        assert status == 200 and b"the board after the start" in body


async def test_a_personal_link_shows_its_seat_and_stops_when_revoked_expired_forged_or_the_seat_changes(
        db: Database) -> None:
    played = await play(db, "champion", moves=3)
    async with serving(db, link_days=1) as server:
        mine, expires = await server.personal_url(played.game_id, 0, 1)
        assert expires > time.time() + 86000
        status, headers, body = await fetch(mine)
        assert status == 200 and "Your own view" in body.decode() and headers["Cache-Control"] == "no-store"
        wrong_user, _e = await server.personal_url(played.game_id, 0, 2)  # seat 0 is user 1's
        assert (await fetch(wrong_user))[0] == 404
        forged = mine[:-3] + ("AAA" if not mine.endswith("AAA") else "BBB")
        assert (await fetch(forged))[0] == 404
        await server.revoke(played.game_id, 0)
        assert (await fetch(mine))[0] == 404
        again, _e = await server.personal_url(played.game_id, 0, 1)
        assert (await fetch(again))[0] == 200
    row = await server.links.page(played.game_id)
    part = personal_part(row, 1, 2, int(time.time()) - 5)
    assert check_personal(row, part, {1: 2}, time.time()) is None  # expired
    part = personal_part(row, 1, 2, int(time.time()) + 60)
    assert check_personal(row, part, {1: 2}, time.time()) == 1
    assert check_personal(row, part, {1: 3}, time.time()) is None  # the seat changed hands


async def test_the_page_speaks_the_games_language(db: Database) -> None:
    played = await play(db, "legend", moves=2, language="hu")
    async with serving(db) as server:
        _s, _h, body = await fetch(await server.public_url(played.game_id))
    page = body.decode()
    assert '<html lang="hu">' in page
    assert "The last moves" not in page and "Zoom in" not in page


async def test_an_open_page_hears_of_a_move_at_once(db: Database) -> None:
    played = await play(db, "legend", moves=2)
    async with serving(db, poll=30.0) as server:  # the local hook, not the slow check, must carry it
        url = await server.public_url(played.game_id)
        async with aiohttp.ClientSession() as session, session.get(url + "/live") as stream:
            assert stream.headers["Content-Type"] == "text/event-stream"
            await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 5)  # the opening lines
            await asyncio.sleep(0.1)
            started = time.perf_counter()
            await advance(played, 1, seed=9)
            event = await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 5)
            took = time.perf_counter() - started
        assert event.startswith(b"event: moved\n") and took < 2.0
        assert json.loads(event.split(b"data: ", 1)[1])["version"] == played.moment.version
    assert server.hub.open_streams() == 0


async def test_a_move_made_by_another_process_reaches_the_page_too(db: Database) -> None:
    played = await play(db, "legend", moves=2)
    async with serving(db, poll=0.2) as server:
        url = await server.public_url(played.game_id)
        async with aiohttp.ClientSession() as session, session.get(url + "/live") as stream:
            await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 5)
            await asyncio.sleep(0.3)
            async with db.engine.begin() as conn:  # as another process's commit looks from here
                await conn.execute(text("UPDATE game SET version = version + 1 WHERE id = :g"), {"g": played.game_id})
            event = await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 5)
        assert event.startswith(b"event: moved\n")


async def test_requests_beyond_the_rate_are_refused_politely(db: Database) -> None:
    limit = RateLimit(60, clock=lambda: 100.0)
    assert sum(limit.allow("a") for _ in range(100)) == 30 and limit.allow("b")
    played = await play(db, "legend", moves=1)
    async with serving(db, rate_per_minute=10) as server:
        url = await server.public_url(played.game_id)
        codes = [(await fetch(url + "/step"))[0] for _ in range(8)]
    assert codes[:5] == [200] * 5 and 429 in codes


@pytest.mark.parametrize("text_in, html", [
    ("**A** <b>x</b> `c` ~~d~~", "<strong>A</strong> &lt;b&gt;x&lt;/b&gt; <code>c</code> <del>d</del>"),
    ("<t:0:R>", '<time datetime="1970-01-01T00:00:00+00:00">1970-01-01 00:00 UTC</time>'),
    ("hi <@12>", "hi @…"),
])
def test_discord_markdown_becomes_safe_html(text_in: str, html: str) -> None:
    assert str(markdown(text_in)) == html


async def test_the_terminal_serves_the_page_and_it_follows_the_moves_typed(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "WEB_PORT")}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[1])
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "play", "legend", "--players", "Ann,Bob", "--seed", "4", "--web",
        "--images", str(tmp_path / "images"), cwd=tmp_path, env=env, stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        said = b""
        while b"live in your browser" not in said:
            said += await asyncio.wait_for(proc.stdout.readline(), 30)
        url = re.search(rb"http://127\.0\.0\.1:\d+/g/[A-Za-z0-9_-]{24}", said)
        assert url is not None, said.decode()
        status, _h, body = await fetch(url[0].decode() + "/step")
        assert status == 200 and json.loads(body)["last"] == 0
        proc.stdin.write(b"/explore to:D1\n")  # the first player (with this seed) enters by the north
        await proc.stdin.drain()
        for _ in range(100):
            state = json.loads((await fetch(url[0].decode() + "/step"))[2])
            if state["last"] > 0:
                break
            await asyncio.sleep(0.1)
        assert state["last"] > 0, "the page never showed the move typed in the terminal"
        proc.stdin.write(b"/quit\n")
        await proc.stdin.drain()
        _out, err = await asyncio.wait_for(proc.communicate(), 30)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert proc.returncode == 0 and b"Traceback" not in err, err.decode()
    # Its pictures and the board's static layers are kept beside its database, for the next run to read back.
    assert list((tmp_path / "images" / "offline-pictures").glob("*/*.png")), "the terminal keeps no picture folder"


PG_URL = os.environ.get("TABULA_TEST_POSTGRES_URL", "")


@pytest.mark.postgres  # it wipes the one PostgreSQL database: tests/conftest.py serialises such tests
@pytest.mark.skipif(not PG_URL, reason="TABULA_TEST_POSTGRES_URL is not set (CI sets it)")
async def test_on_postgresql_any_process_serves_any_game_and_hears_of_its_moves() -> None:

    engine = create_async_engine(PG_URL)
    async with engine.begin() as conn:  # a clean database
        await conn.execute(text("DROP SCHEMA public CASCADE"))
        await conn.execute(text("CREATE SCHEMA public"))
    await engine.dispose()
    one, two = await open_database(PG_URL), await open_database(PG_URL, upgrade=False)
    try:
        played = await play(one, "legend", moves=2)
        async with serving(one) as first, serving(two, poll=0.2) as second:
            made = await first.public_url(played.game_id)
            elsewhere = second.base_url + made[len(first.base_url):]
            status, _h, body = await fetch(elsewhere)
            assert status == 200 and b'id="board"' in body
            personal, _e = await first.personal_url(played.game_id, 1, 2)
            assert (await fetch(second.base_url + personal[len(first.base_url):]))[0] == 200
            async with aiohttp.ClientSession() as session, session.get(elsewhere + "/live") as stream:
                await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 5)
                await asyncio.sleep(0.3)
                await advance(played, 1, seed=5)  # a move made through the first process's database
                event = await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 5)
            assert event.startswith(b"event: moved")
            await first.revoke(played.game_id, 1)
            await asyncio.sleep(1.1)  # another process trusts what it read for a second at most
            assert (await fetch(second.base_url + personal[len(first.base_url):]))[0] == 404
    finally:
        await one.close()
        await two.close()


async def test_a_finished_game_says_who_won_and_its_live_stream_says_it_ended(db: Database) -> None:
    played = await play(db, "legend", players=2, moves=2)
    async with serving(db) as server:
        url = await server.public_url(played.game_id)
        async with aiohttp.ClientSession() as session, session.get(url + "/live") as stream:
            await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 5)
            await advance(played, 5000, seed=2)  # to the end
            assert played.moment.status == "finished"
            news = []
            while True:
                event = await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 10)
                if event.startswith(b"event: moved"):
                    news.append(json.loads(event.split(b"data: ", 1)[1]))
                    if news[-1]["status"] == "finished":
                        break
        assert 'id="result"' in news[-1]["html"] and "🏆" in news[-1]["html"]
        _s, _h, body = await fetch(url)
    page = body.decode()
    outcome = played.rules.outcome(played.moment.state)
    assert outcome is not None and str(markdown(outcome.summary)) in page and "finished" in page
