"""`/game history | replay | export`, `/stats` and `/leaderboard` through discord.py against the loopback fake:
paging buttons, replay buttons with pictures, an export that verifies offline, and stats numbers on seeded
finished games."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from bot.ops.verify import main as verify
from bot.service.gamelog import effective
from bot.service.play import GameService, Person
from bot.store.db import Database
from tests.fakediscord import FakeDiscordHarness
from tests.records_helpers import play_out
from tests.tabula_harness import bot_factory, check_png, uid
from tests.test_discord import start_game


def people(h: FakeDiscordHarness) -> list[Person]:
    return [Person(uid(h.alice), "Alice"), Person(uid(h.bob), "Bob")]


def stored(h: FakeDiscordHarness, reply: Any) -> Any:
    """The message an interaction's answer lives in (the original response)."""
    assert reply.original is not None
    return h.fake.message(reply.original.id)


async def test_history_pages_with_buttons_privately(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        svc = GameService(db)
        game_id = await play_out(svc, "legend", {}, people(h), 21, guild_id=h.fake.guild_id)
        total = len(await svc.history(game_id)) - 1
        newest = stored(h, await h.slash(h.alice, h.channel, "game", {"game": game_id}, subcommand="history"))
        assert newest.ephemeral and f"–{total} of {total} (game finished)" in newest.content  # the newest first
        assert f"\n{total}. " in newest.content and newest.content.rstrip().splitlines()[-1].startswith("🏆")

        middle = stored(h, await h.slash(h.bob, h.channel, "game", {"game": game_id, "from": 40},
                                         subcommand="history"))
        assert f"entries 40–54 of {total}" in middle.content and "\n40. " in middle.content

        first = await h.slash(h.bob, h.channel, "game", {"game": game_id, "from": 1}, subcommand="history")
        message = stored(h, first)
        assert message.ephemeral and f"entries 1–15 of {total}" in message.content
        assert message.component(next(c for c in message.custom_ids if ":p:" in c)).get("disabled")
        seen: list[int] = []
        while True:
            content = message.content
            assert len(content) < 2000
            numbers = [int(n) for n in re.findall(r"^~*(\d+)\. ", content, re.M)]
            assert 1 <= len(numbers) <= 15
            seen += numbers
            nxt = message.component(next(c for c in message.custom_ids if ":n:" in c))
            if nxt.get("disabled"):
                break
            turned = await h.click(h.bob, message, nxt["custom_id"])
            assert turned.callback_type == 6  # told at once that the page follows, then edited in place
            message = h.fake.message(message.id)
        assert seen == list(range(1, total + 1))  # every entry once, in order, the result last
        last_page = message.content
        assert "🏆" in last_page
        await h.click(h.bob, message, next(c for c in message.custom_ids if ":p:" in c))
        before = h.fake.message(message.id).content
        assert f"\n{total - len(numbers)}. " in before and before != last_page


@pytest.mark.slow
async def test_history_in_the_thread_marks_rolls_and_hides_nothing_it_must_not(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        thread, _game_id = await start_game(h, h.bob, mode="starter")
        rolled = await h.slash(h.bob, thread.id, "roll", {"expr": "2d6+1"})
        assert not rolled.ephemeral
        answer = await h.slash(h.alice, thread.id, "game", {}, subcommand="history")
        assert answer.deferred  # a long log takes a moment to walk: Discord is told at once
        told = stored(h, answer)
        assert told.ephemeral and "game running" in told.content
        line = next(x for x in told.content.splitlines() if "rolled `2d6+1`" in x)
        assert re.search(r"🎲 \[\d, \d\] → \*\*\d+\*\*", line) and line.startswith("1. Bob")
        early = await h.slash(h.alice, thread.id, "game", {}, subcommand="replay")
        assert early.deferred and "the board after the start" in stored(h, early).content
        check_png(stored(h, early).attachments[0])
        # a game of another server is not shown; nor is a lobby's
        svc = GameService(db)
        other = await svc.create("legend", Person(uid(h.alice), "Alice"), guild_id=999, seed=1)
        refused = stored(h, await h.slash(h.alice, h.channel, "game", {"game": other.game_id},
                                          subcommand="history"))
        assert refused.ephemeral and "no game" in refused.content
        lobby = await svc.create("legend", Person(uid(h.alice), "Alice"), guild_id=h.fake.guild_id, seed=1)
        waiting = stored(h, await h.slash(h.alice, h.channel, "game", {"game": lobby.game_id},
                                          subcommand="history"))
        assert "has not started" in waiting.content
        assert h.fake.unknown_requests == []


async def test_secret_choices_stay_secret_while_the_game_runs(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        svc = GameService(db)
        game_id = await play_out(svc, "champion", {"opponents": "players"}, people(h), 8, guild_id=h.fake.guild_id,
                                 stop_after=12)
        told = stored(h, await h.slash(h.alice, h.channel, "game", {"game": game_id, "from": 1},
                                       subcommand="history"))
        assert "made a secret choice" in told.content
        assert "Buy " not in told.content  # what was bought is not said while the game runs


@pytest.mark.slow
async def test_replay_steps_through_the_game_with_pictures(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        svc = GameService(db)
        game_id = await play_out(svc, "legend", {}, people(h), 23, guild_id=h.fake.guild_id)
        total = len(await svc.history(game_id)) - 1
        shown = await h.slash(h.alice, h.channel, "game", {"game": game_id, "move": 5}, subcommand="replay")
        message = stored(h, shown)
        assert message.ephemeral and f"the board after move 5 of {total}" in message.content
        assert "\n5. " in message.content  # the move itself, in words
        image = check_png(message.attachments[0])
        assert image.width > 500
        ids = message.custom_ids
        assert [i.split(":")[3] for i in ids] == ["f", "p", "n", "l"]
        await h.click(h.alice, message, next(i for i in ids if ":n:" in i))
        message = h.fake.message(message.id)
        assert f"after move 6 of {total}" in message.content and len(message.attachments) == 1
        await h.click(h.alice, message, next(i for i in message.custom_ids if ":l:" in i))
        message = h.fake.message(message.id)
        assert f"after move {total} of {total}" in message.content
        assert message.component(next(i for i in message.custom_ids if ":n:" in i)).get("disabled")
        await h.click(h.alice, message, next(i for i in message.custom_ids if ":f:" in i))
        message = h.fake.message(message.id)
        assert "after the start" in message.content
        check_png(message.attachments[0])
        assert h.fake.unknown_requests == []


@pytest.mark.slow
async def test_export_round_trips_through_verify(db: Database, tmp_path: Path, capsys: Any) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        svc = GameService(db)
        game_id = await play_out(svc, "legend", {}, people(h), 25, guild_id=h.fake.guild_id, stop_after=20)
        await svc.act(game_id, uid(h.alice), verb="roll", args={"expr": "3d6"})
        running = await h.slash(h.alice, h.channel, "game", {"game": game_id}, subcommand="export")
        assert running.deferred  # writing the file takes a moment: Discord is told at once
        assert stored(h, running).ephemeral and "still running" in stored(h, running).content
        [attachment] = stored(h, running).attachments
        data = json.loads(attachment.data)
        assert data["game"]["seed"] is None and data["version"] == 1
        path = tmp_path / attachment.filename
        path.write_bytes(attachment.data)
        assert verify([str(path)]) == 0
        assert "still running" in capsys.readouterr().out

        finished = await play_out(svc, "legend", {}, people(h), 26, guild_id=h.fake.guild_id)
        done = await h.slash(h.bob, h.channel, "game", {"game": finished}, subcommand="export")
        [attachment] = stored(h, done).attachments
        assert json.loads(attachment.data)["game"]["seed"] == 26
        path = tmp_path / attachment.filename
        path.write_bytes(attachment.data)
        assert verify([str(path)]) == 0
        out = capsys.readouterr().out
        assert "entries match" in out and "MISMATCH" not in out


@pytest.mark.slow
async def test_stats_and_leaderboard_count_finished_games_of_people(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        svc = GameService(db)
        alice, bob = people(h)
        guild = h.fake.guild_id
        ids = [await play_out(svc, "legend", {}, [alice, bob], seed, guild_id=guild) for seed in (31, 32, 33)]
        ids.append(await play_out(svc, "legend", {}, [bob, alice], 34, guild_id=guild, tabula=1))
        dropped = await play_out(svc, "legend", {}, [alice, bob], 35, guild_id=guild, stop_after=6)
        await svc.abandon(dropped, alice.id)  # abandoned games count for nobody
        await play_out(svc, "legend", {}, [alice, bob], 36, guild_id=guild + 1)  # another server's

        wins = {alice.id: 0, bob.id: 0}
        moves = 0
        for game_id in ids:
            final = await svc.get(game_id)
            assert final.status == "finished" and final.outcome is not None
            for seat in final.outcome.winners:
                user = final.user_of(seat)
                if user > 0:
                    wins[user] += 1
            moves += len(effective(await svc.history(game_id)))

        answer = await h.slash(h.alice, h.channel, "stats", {})
        assert answer.deferred  # every finished game of the server is read: Discord is told at once
        mine = stored(h, answer)
        assert mine.ephemeral
        assert f"4 played, {wins[alice.id]} won ({wins[alice.id] / 4:.0%})" in mine.content
        assert f"on average {moves / 4:.0f} moves" in mine.content
        hers = stored(h, await h.slash(h.alice, h.channel, "stats", {"player": str(uid(h.bob)), "game": "legend"}))
        assert f"4 played, {wins[bob.id]} won" in hers.content
        nobody = stored(h, await h.slash(h.alice, h.channel, "stats", {"player": str(uid(h.carol))}))
        assert "has not finished a game" in nobody.content

        answer = await h.slash(h.bob, h.channel, "leaderboard", {"game": "legend"})
        assert answer.deferred
        board = stored(h, answer)
        assert not board.ephemeral and board.pings.nobody  # shown to the channel, pinging nobody
        lines = [x for x in board.content.splitlines() if re.match(r"\d+\. ", x)]
        assert len(lines) == 2 and "Tabula" not in board.content
        ranked = sorted(wins, key=lambda u: -wins[u])
        if wins[alice.id] != wins[bob.id]:
            assert f"<@{ranked[0]}>" in lines[0]
        assert f"— {wins[ranked[0]]} won of 4" in lines[0]
        strict = stored(h, await h.slash(h.bob, h.channel, "leaderboard", {"game": "legend", "min_games": 5}))
        assert "nobody has finished 5 games" in strict.content
        empty = stored(h, await h.slash(h.bob, h.channel, "leaderboard", {"game": "champion"}))
        assert "nobody" in empty.content
