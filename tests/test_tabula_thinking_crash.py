"""A kill -9 of the real `python -m bot` while Tabula thinks (issue 26): the move it was thinking about is played
once after the restart, told once in the thread, and the game goes on.

Autokrator, two realms, Tabula in the second seat at ``strong``: the Start owes Tabula's dealing at once, and
each of its three choices is thought for in the process pool.  The first process thinks for up to
``TABULA_THINK_SECONDS`` (long, so the kill lands while the worker thinks: its log says when it began); it is
killed before it saves anything.  The next process (thinking briefly, so the test is quick) finds the move owed
once the dead process's claim on the game has run out (the bot's clock moved by libfaketime, as in the long-game
process tests), plays the dealing once and tells it once; then Alice deals her own cards through her private
menu, and that is told too.  The killed process's pool worker ends itself: it is not left thinking for nobody."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from bot.store.claims import CLAIM_SECONDS
from tests.delivery_helpers import live_prompts, press, rows
from tests.fakediscord import FakeDiscord, walk_components
from tests.longplay_helpers import Table, needs_libfaketime

THINKING = "Tabula thinks for seat 1 of a autokrator game at level strong"
DEALT = "Battle cards dealt, face down"


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (the thinking pool's worker, and multiprocessing's helpers)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            stat = (entry / "stat").read_text()
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _owed(db: Path) -> int:
    return int(rows(db, "SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL")[0][0])


def _tabula_rows(db: Path, game_id: int) -> list[tuple[int, dict[str, Any]]]:
    return [(int(seq), json.loads(action)) for seq, action in
            rows(db, "SELECT seq, action FROM action WHERE game_id = ? AND user_id = 0 ORDER BY seq", game_id)]


def _thread_text(fake: FakeDiscord, db: Path, game_id: int) -> str:
    [(thread,)] = rows(db, "SELECT thread_id FROM game WHERE id = ?", game_id)
    return "" if thread is None else "\n".join(m.content for m in fake.messages(int(thread)))


@pytest.mark.slow
@needs_libfaketime
async def test_a_kill_while_tabula_thinks_plays_its_move_once_and_tells_it_once(tmp_path: Path) -> None:
    orphans: list[int] = []
    left: list[int] = []
    async with FakeDiscord(interaction_deadline=10.0) as fake:
        table = Table(tmp_path, fake)
        db = table.db
        try:
            first = await table.start(TABULA_THINK_SECONDS="20")
            await table.ask(fake.slash(fake.alice, fake.channel, "game", {
                "game": "autokrator", "mode": "east", "realms": "random", "tabula_level": "strong", "seed": 5},
                subcommand="new"))
            await table.until(lambda: any(m.embeds and "lobby" in m.embeds[0]["title"]
                                          for m in fake.messages(fake.channel)))
            lobby = next(m for m in fake.messages(fake.channel) if m.embeds and "lobby" in m.embeds[0]["title"])
            game_id = int(lobby.custom_ids[0].split(":")[2])
            shown = json.dumps(lobby.embeds)
            await table.ask(fake.component(fake.alice, lobby, next(c for c in lobby.custom_ids if c.endswith(":bot"))))
            await table.until(lambda: json.dumps(fake.message(lobby.id).embeds) != shown)
            lobby = fake.message(lobby.id)
            start = asyncio.ensure_future(press(fake, first, fake.component(
                fake.alice, lobby, next(c for c in lobby.custom_ids if c.endswith(":start"))), timeout=60))
            # The Start is committed, and Tabula's dealing is owed at once: its worker thinks (20 s at most)
            await table.until(lambda: THINKING in first.log.read_text(errors="replace"))
            await asyncio.sleep(1.0)  # inside the thought
            assert rows(db, "SELECT status FROM game WHERE id = ?", game_id) == [("active",)]
            assert _tabula_rows(db, game_id) == [], "Tabula's move was saved before the kill: nothing was tested"
            orphans = _children(first.proc.pid)
            assert orphans, "no thinking worker runs beside the bot"
            second = await table.start(TABULA_THINK_SECONDS="0.3")  # kill -9 the first, then a new process
            await start  # answered ("thinking…") before the kill, or cut short by it: either way, nothing more
            # The dead process's sweep had claimed the game (it was due: Tabula to act) while the press thought;
            # the next process sweeps it once that claim has run out (bot/store/claims.py).
            await table.wall.advance(CLAIM_SECONDS + 1)
            await table.until(lambda: bool(_tabula_rows(db, game_id)) and DEALT in _thread_text(fake, db, game_id)
                              and _owed(db) == 0, timeout=90)
            dealt = _tabula_rows(db, game_id)
            assert [a["type"] for _seq, a in dealt] == ["assign"] * 3, dealt
            assert len({a["holder"] for _seq, a in dealt}) == 3, "a holder was dealt to twice"
            assert _thread_text(fake, db, game_id).count(DEALT) == 1, "Tabula's dealing was told twice"
            assert THINKING in second.log.read_text(errors="replace")  # thought again, from the position stored

            # the game goes on: Alice deals her cards through her private menu, and it is told
            [(thread,)] = rows(db, "SELECT thread_id FROM game WHERE id = ?", game_id)
            for _card in range(3):
                [prompt] = live_prompts(fake, int(thread))
                hand = next((c for c in prompt.custom_ids if c.startswith("tb:view:")), None)
                if hand is None:
                    break
                reply = await table.ask(fake.component(fake.alice, prompt, hand))
                assert reply.original is not None
                original = reply.original.id

                def drawn(message: int = original) -> bool:  # a deferred answer: its menu comes with the hand
                    return not fake.message(message).loading

                await table.until(drawn)
                mine = fake.message(original)
                assert mine.ephemeral
                [menu] = [c for c in walk_components(mine.components) if c.get("custom_id", "").startswith("tb:pick:")]
                await table.ask(fake.component(fake.alice, mine, menu["custom_id"], component_type=3,
                                               values=[menu["options"][0]["value"]]))
            await table.until(lambda: _thread_text(fake, db, game_id).count(DEALT) == 2 and _owed(db) == 0)
            hers = rows(db, "SELECT action FROM action WHERE game_id = ? AND user_id = ?", game_id,
                        int(fake.alice["id"]))
            assert [json.loads(a)["type"] for (a,) in hers] == ["start", "assign", "assign", "assign"]
            assert _tabula_rows(db, game_id)[:3] == dealt  # Tabula's dealing stands as it was played, once
            seqs = [int(s) for (s,) in rows(db, "SELECT seq FROM action WHERE game_id = ? ORDER BY seq", game_id)]
            assert seqs == sorted(set(seqs))
            assert len(live_prompts(fake, int(thread))) == 1
            for bot in table.spawned:  # neither process, nor its thinking worker, logged an error
                assert "Traceback" not in bot.log.read_text(errors="replace"), bot.log
        finally:
            table.stop()
            # The killed process's worker ends once it finds its parent gone (at the latest when its thought is
            # over); one still running at the end of the test is this test's, and is ended by its id.
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 30
            while any(_alive(p) for p in orphans) and loop.time() < deadline:
                await asyncio.sleep(0.2)
            left = [p for p in orphans if _alive(p)]
            for pid in left:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
    assert not left, f"the killed bot's thinking worker outlived it: {left}"
