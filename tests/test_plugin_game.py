"""A game is a plug-in: Race to Ten lives only in the test tree (tests/plugins/race) and plays through the
service, the terminal runner and the fake Discord with no platform file naming it."""

from __future__ import annotations

import argparse
import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.service.play import GameService, Person
from bot.service.verbs import DISCORD_COMMAND_LIMIT, command_count, slash_verbs
from bot.store.db import Database
from rules import GameError
from rules.registry import games, register, unregister
from tests.fakediscord import FakeDiscordHarness
from tests.tabula_harness import bot_factory, uid
from tests.test_discord import last

PLUGIN = "tests.plugins.race"
ANN, BOB = Person(101, "Ann"), Person(202, "Bob")


@pytest.fixture
def race() -> Iterator[None]:
    register(PLUGIN)
    yield
    unregister(PLUGIN)


def test_the_plugin_is_found_and_builds_its_commands(race: None) -> None:
    assert "race" in games()
    assert "move" in slash_verbs() and "race" in slash_verbs()["move"].games  # shared by meaning with others
    assert command_count() < DISCORD_COMMAND_LIMIT


async def test_race_through_the_service_with_a_tabula_seat(db: Database, race: None) -> None:
    svc = GameService(db)
    info = await svc.create("race", ANN, options={"track": "dotted"}, seed=4)
    await svc.add_tabula(info.game_id, ANN.id)
    moment = await svc.start(info.game_id, ANN.id)
    rolled = await svc.act(info.game_id, ANN.id, verb="roll", args={"expr": "3d6"})
    assert rolled.meta.free and rolled.stamp == moment.stamp  # a roll stales nobody's buttons
    while True:
        now = await svc.get(info.game_id)
        if now.status != "active":
            break
        assert now.to_act == {0}  # Tabula's seat has always moved already
        step = await svc.act(info.game_id, ANN.id, verb="move", args={"steps": "1"}, expect_version=now.stamp)
        assert all(f.by_tabula for f in step.followups)
    final = await svc.get(info.game_id)
    assert final.outcome is not None
    assert await svc.replay(info.game_id) == final.state  # the roll is logged but changes nothing


async def test_race_in_the_terminal(tmp_path: Path, race: None) -> None:
    from bot.front.offline import add_arguments, play

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(["race", "--players", "Ann,Bob", "--track", "dotted", "--seed", "2",
                              "--images", str(tmp_path)])
    out = io.StringIO()
    lines = ["/help", "/roll 2d6", "/move steps:4", "/sheet", "/move 3", "/game status", "/quit"]
    assert await play(args, lines=lines, out=out) == 0
    text = out.getvalue()
    assert "`/move steps:` 1, 2 or 3" in text  # the help comes from the spec
    assert "rolls `2d6`" in text
    assert "✋ Step 1, 2 or 3 squares" in text
    assert "Your secret boost is" in text
    assert "steps 3 to square 3" in text


async def test_race_on_discord(db: Database, race: None) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        await h.slash(h.alice, h.channel, "game", {"game": "race", "track": "dotted", "seed": 1}, subcommand="new")
        lobby = h.messages()[-1]
        assert "Race to Ten" in lobby.embeds[0]["title"] and "land exactly on ten" in lobby.embeds[0]["description"]
        wrong = await h.slash(h.alice, h.channel, "game", {"game": "race", "fate": True}, subcommand="new")
        assert wrong.ephemeral and "has no option `fate`" in wrong.content
        await h.click(h.bob, lobby, next(c for c in lobby.custom_ids if c.endswith(":join")))
        lobby = h.fake.message(lobby.id)
        await h.click(h.alice, lobby, next(c for c in lobby.custom_ids if c.endswith(":start")))
        [thread] = h.threads()
        players = {uid(h.alice): h.alice, uid(h.bob): h.bob}
        for _ in range(20):
            prompt = last(h, thread.id)
            if "wins" in prompt.content:
                break
            who = players[next(iter(prompt.pings.users))]
            other = h.bob if who is h.alice else h.alice
            offered = await h.autocomplete(who, thread.payload, "move", {"steps": ""})
            assert {c["value"] for c in offered.choices} <= {"1", "2", "3"}
            refused = await h.slash(other, thread.payload, "move", {"steps": "1"})
            assert refused.ephemeral
            menu = next(c for c in prompt.custom_ids if c.startswith("tb:pick:"))
            value = prompt.component(menu)["options"][-1]["value"]
            moved = await h.select(who, prompt, menu, [value])
            assert not moved.ephemeral
        assert "wins" in last(h, thread.id).content
        secret = await h.slash(h.alice, thread.payload, "sheet")
        assert secret.ephemeral and "boost" in secret.content
        nothing = await h.slash(h.alice, thread.payload, "hand")
        assert nothing.ephemeral
        rolled = await h.slash(h.bob, thread.payload, "roll", {"expr": "d20"})
        assert rolled.ephemeral and "ended" in rolled.content
        assert h.fake.unknown_requests == []


async def test_pictures_are_drawn_off_the_event_loop(db: Database, race: None, monkeypatch: pytest.MonkeyPatch
                                                     ) -> None:
    """`/game status`, private views and tellings run the presenter (Pillow) in a worker thread."""
    import threading

    from tests.plugins.race.present import PRESENTER

    threads: list[str] = []
    for name in ("status", "private", "telling"):
        original = getattr(PRESENTER, name)

        def spy(*args: object, _original: object = original) -> object:
            threads.append(threading.current_thread().name)
            return _original(*args)  # type: ignore[operator]
        monkeypatch.setattr(PRESENTER, name, spy)
    async with FakeDiscordHarness(bot_factory(db)) as h:
        await h.slash(h.alice, h.channel, "game", {"game": "race"}, subcommand="new")
        lobby = h.messages()[-1]
        await h.click(h.bob, lobby, next(c for c in lobby.custom_ids if c.endswith(":join")))
        await h.click(h.alice, h.fake.message(lobby.id), next(c for c in lobby.custom_ids if c.endswith(":start")))
        [thread] = h.threads()
        await h.slash(h.alice, thread.payload, "game", {}, subcommand="status")
        await h.slash(h.bob, thread.payload, "sheet")
    assert len(threads) >= 3 and threading.main_thread().name not in threads


async def test_per_game_locks_and_the_thread_cache_do_not_grow_for_ever(db: Database, race: None) -> None:
    svc = GameService(db, cache_size=4)
    for n in range(30):
        info = await svc.create("race", ANN, seed=n)
        await svc.join(info.game_id, BOB)
        await svc.start(info.game_id, ANN.id)
        await svc.set_thread(info.game_id, 5000 + n)
        await svc.act(info.game_id, ANN.id, verb="move", args={"steps": "1"})
    assert len(svc._locks) == 0  # nobody holds or waits for a lock: none is kept
    assert len(svc._threads) <= 16 and len(svc._cache) <= 4
    assert await svc.game_in_thread(5000) == 1  # forgotten by the cache, found in the database


async def test_the_start_writes_settled_options_with_the_first_state_or_not_at_all(db: Database, race: None) -> None:
    svc = GameService(db)
    info = await svc.create("race", ANN, seed=1)
    await svc.join(info.game_id, BOB)
    real = db.store.save

    async def always_late(*args: object, **kwargs: object) -> bool:
        return False  # as if another process always moved the lobby on first

    db.store.save = always_late  # type: ignore[method-assign]
    try:
        with pytest.raises(GameError, match="busy"):
            await svc.start(info.game_id, ANN.id)
    finally:
        db.store.save = real  # type: ignore[method-assign]
    untouched = await svc.lobby(info.game_id)
    assert untouched.status == "lobby" and "track" not in untouched.options  # nothing half-written
    await svc.start(info.game_id, ANN.id)
    stored = await svc.lobby(info.game_id)
    assert stored.status == "active" and stored.options["track"] == "plain"  # settled by the rules, with the state


def test_the_old_name_of_the_timeout_setting_still_works(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.ops.config import Settings

    monkeypatch.setenv("NARRATOR_TIMEOUT_MINUTES", "3")
    assert Settings(_env_file=None).turn_timeout_minutes == 3  # type: ignore[call-arg]
    monkeypatch.setenv("TURN_TIMEOUT_MINUTES", "7")
    monkeypatch.delenv("NARRATOR_TIMEOUT_MINUTES")
    assert Settings(_env_file=None).turn_timeout_minutes == 7  # type: ignore[call-arg]
    from bot.service.lobby import timeout_minutes

    assert timeout_minutes({"narrator_timeout": 5}, 10) == 5  # a game stored with the old option's name
    assert timeout_minutes({"turn_timeout": 2, "narrator_timeout": 5}, 10) == 2
    assert timeout_minutes({}, 10) == 10
