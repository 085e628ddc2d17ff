"""An upgrade keeps every running game: a database made by the release before games were plug-ins
(``tests/fixtures/release-0.1.db``, see the README there) opens with the current code, its games replay from
their logs, the controls that release drew still work when pressed, and the games play on."""

from __future__ import annotations

import json
import shutil
import sqlite3
import time
from pathlib import Path
from typing import Any

import discord
import pytest
from sqlalchemy import update
from sqlmodel import col

from bot.store.db import open_database
from bot.store.models import Seat
from tests.fakediscord import FakeDiscordHarness
from tests.tabula_harness import bot_factory, uid

FIXTURES = Path(__file__).parent / "fixtures"


def _old_controls(custom_ids: list[str], values: dict[str, list[tuple[str, str]]]) -> discord.ui.View:
    """The controls exactly as the old release drew them (ids and, for menus, values)."""
    view = discord.ui.View(timeout=None)
    for custom_id in custom_ids:
        if custom_id in values:
            options = [discord.SelectOption(label=label[:100], value=value) for label, value in values[custom_id]]
            view.add_item(discord.ui.Select(custom_id=custom_id, options=options))
        else:
            view.add_item(discord.ui.Button(label=custom_id.split(":")[-1][:20], custom_id=custom_id))
    return view


@pytest.mark.slow
async def test_a_database_from_the_previous_release_plays_on(tmp_path: Path) -> None:
    shutil.copy(FIXTURES / "release-0.1.db", tmp_path / "tabula.db")
    record: dict[str, Any] = json.loads((FIXTURES / "release-0.1.json").read_text())
    # The fixture's Narrator started waiting long ago: as if the bot came back within the game's 5 minutes.
    with sqlite3.connect(tmp_path / "tabula.db") as conn:
        conn.execute("UPDATE game SET deadline = ? WHERE id = ?",
                     (time.time() + 240, record["legend-expanded"]["game"]))
    db = await open_database(f"sqlite+aiosqlite:///{tmp_path / 'tabula.db'}")
    try:
        async with FakeDiscordHarness(bot_factory(db)) as h:
            svc = h.bot.service
            people = [h.alice, h.bob]
            for name in ("legend-starter", "legend-expanded", "champion"):
                game_id = record[name]["game"]
                info = await svc.lobby(game_id)
                old_users = {s.user_id: s.seat for s in info.seats}
                async with db.sessions() as session:  # the people of the old test run are this run's people
                    for s in info.seats:
                        await session.exec(update(Seat).where(col(Seat.game_id) == game_id, col(Seat.seat) == s.seat)
                                           .values(user_id=uid(people[s.seat])))
                    await session.commit()
                svc.forget(game_id)
                moment = await svc.get(game_id)
                assert moment.status == "active"
                assert await svc.replay(game_id) == moment.state, f"{name} no longer replays from its log"

                channel = h.bot.get_channel(h.fake.channel_id)
                thread = await channel.create_thread(name=f"old {name}", type=discord.ChannelType.public_thread)
                await svc.set_thread(game_id, thread.id)
                acting = people[old_users[record[name]["to_ping"][0]]]
                values: dict[str, list[tuple[str, str]]] = {}
                for custom_id in record[name]["custom_ids"]:
                    if custom_id.startswith("tb:sel:"):
                        verb, option = custom_id.split(":")[4:6]
                        seat = min(moment.to_act)
                        if verb == "act":  # the old move menu: each value a whole command
                            values[custom_id] = [(c.label, c.command.encode()) for c in moment.choices(seat)
                                                 if c.command.verb in ("explore", "caravan", "voyage")][:25]
                        else:
                            values[custom_id] = (await svc.choices(game_id, uid(acting), verb, option))[:25]
                old = await thread.send("an old prompt", view=_old_controls(record[name]["custom_ids"], values))
                stored = h.fake.message(old.id)

                if name == "legend-expanded":  # the Narrator's old buttons: read privately, then let Tabula read
                    read = await h.click(acting, stored, next(c for c in stored.custom_ids if c.endswith(":read")))
                    assert read.ephemeral and "What it does" in read.content
                    told = await h.click(acting, stored, next(c for c in stored.custom_ids if c.endswith(":auto")))
                    assert not told.ephemeral and told.original is not None
                    continue
                if name == "champion":  # the old "Your choices" button, then an old action button
                    mine = await h.click(acting, stored, next(c for c in stored.custom_ids if c.startswith("tb:mine:")))
                    assert mine.ephemeral and mine.components
                    act = next(c for c in stored.custom_ids if "commission" in c)
                    done = await h.click(acting, stored, act)
                    assert not done.ephemeral and "commission" in done.content.lower()
                    again = await h.click(acting, stored, act)
                    assert again.ephemeral and "earlier moment" in again.content  # pressed twice, acts once
                    continue
                menu = next(c for c in stored.custom_ids if c.startswith("tb:sel:"))
                moved = await h.select(acting, stored, menu, [values[menu][0][1]])
                assert not moved.ephemeral and moved.original is not None
                newest = h.messages(thread.id)[-1]
                assert any(c.startswith("tb:pick:") for c in newest.custom_ids)  # the new controls from here on

            lobby_id = record["lobby"]["game"]
            channel = h.bot.get_channel(h.fake.channel_id)
            old = await channel.send("an old lobby", view=_old_controls(record["lobby"]["custom_ids"], {}))
            stored = h.fake.message(old.id)
            info = await svc.lobby(lobby_id)
            assert info.status == "lobby" and len(info.seats) == 1
            joined = await h.click(h.bob, stored, next(c for c in stored.custom_ids if c.endswith(":join")))
            assert not joined.ephemeral and "lobby" in joined.embeds[0]["title"]
            assert len((await svc.lobby(lobby_id)).seats) == 2
            assert h.fake.unknown_requests == []
    finally:
        await db.close()
