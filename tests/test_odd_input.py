"""Odd and forged input to the real `python -m bot` on the loopback Discord: every interaction no command or
control of Tabula's can take gets a polite private answer (or, typed into an autocomplete, no suggestions),
nothing is posted for everyone, and the log holds no traceback and no ERROR line.

The forged inputs are made from what the bot itself registered and posted: for every option of every
command, values of the wrong type or of no sense (``"yes"`` for a boolean, 30-digit numbers, NaN, text where a
number goes, a user that is nobody, 7,000 characters), every required option left out, unknown commands and
subcommands; for the controls, custom ids over Discord's 100 characters, game numbers of 30 digits, numbers
past what the database holds, controls on no message or not on their message, ids no control reads, select
values no menu offered, modals (Tabula opens none), and valid-looking ids of games that do not exist.  Also
here: `/game unwatch` by someone who had already left the thread (Discord answers 404, 10007), and an answer
that comes after Discord's 3-second window (10062): one warning line, and the move is still told."""

from __future__ import annotations

import asyncio
import copy
import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.delivery_helpers import audit, prompt_of, rows, running, settled, user_for
from tests.fakediscord import FakeDiscord, InteractionReply
from tests.test_delivery_stop import _pressing, _tables

JSON = dict[str, Any]
HUGE = 10**30
BAD_VALUES: dict[int, list[Any]] = {
    3: [12345, None, True, ["x"], {"a": 1}, "x" * 7000],
    4: ["abc", 2.5, True, HUGE, -HUGE, None, "12", math.inf],
    5: ["yes", 1, None, "true"],
    10: ["x", True, None, math.nan, math.inf, "1e999", HUGE * HUGE],
    6: ["abc", "9" * 30, 123, None, "", "<@everyone>", "123456"],
    7: ["abc", "9" * 30, None],
    8: ["abc", None],
    9: ["abc", None],
    11: ["abc", None],
}
NOISE = ("Traceback", " ERROR ", "Ignoring exception", "Task exception was never retrieved")


def _leaves(options: list[JSON] | None, path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], list[JSON]]]:
    subs = [o for o in options or [] if o["type"] in (1, 2)]
    if not subs:
        yield path, list(options or [])
    for sub in subs:
        yield from _leaves(sub.get("options"), (*path, sub["name"]))


def _command(fake: FakeDiscord, user: JSON, channel: Any, path: tuple[str, ...], options: Any, *,
             kind: int = 2, name_type: dict[str, int] | None = None) -> JSON:
    """An APPLICATION_COMMAND (or, kind 4, autocomplete) payload with exactly these raw options."""
    payload = fake._interaction_base(kind, user, channel)
    command = fake.find_command(path[0])
    leaf: Any = options
    for depth, part in reversed(list(enumerate(path[1:], start=1))):
        leaf = [{"name": part, "type": (name_type or {}).get(part, 1 if depth == len(path) - 1 else 2),
                 "options": leaf}]
    payload["data"] = {"id": command["id"] if command else "1", "name": path[0], "type": 1, "options": leaf}
    return payload


def _good(option: JSON, fake: FakeDiscord) -> Any:
    """A value of the declared type (what Discord's client would send), for the options kept around a bad one."""
    kind = option["type"]
    if option.get("choices"):
        return option["choices"][0]["value"]
    if kind == 3:
        return "1"
    if kind in (4, 10):
        return option.get("min_value", 1) or 1
    if kind == 5:
        return True
    return fake.alice["id"]


def forged_commands(fake: FakeDiscord, thread: int) -> Iterator[tuple[str, JSON]]:
    user = fake.carol
    for scope in fake.commands.values():
        for command in scope.values():
            for path, options in _leaves(command.get("options"), (command["name"],)):
                where: Any = fake.channel if path[0] == "game" else thread
                required = [o for o in options if o.get("required")]
                for option in options:
                    for bad in BAD_VALUES.get(option["type"], []):
                        given = [{"name": o["name"], "type": o["type"], "value": _good(o, fake)} for o in required
                                 if o["name"] != option["name"]]
                        given.append({"name": option["name"], "type": option["type"], "value": bad})
                        yield f"/{' '.join(path)} {option['name']}:{bad!r:.40}", _command(fake, user, where, path,
                                                                                          given)
                    if option.get("autocomplete"):
                        for typed in ("x" * 300, "\x00", "%%%", "9" * 30, "🙂" * 50):
                            given = [{"name": option["name"], "type": 3, "value": typed, "focused": True}]
                            yield f"autocomplete /{' '.join(path)} {option['name']}", _command(
                                fake, user, where, path, given, kind=4)
                    given = [{"name": option["name"], "type": 4 if option["type"] == 3 else 3, "value": "7"}]
                    yield f"/{' '.join(path)} {option['name']} of another type", _command(fake, user, where, path,
                                                                                         given)
                for option in required:
                    given = [{"name": o["name"], "type": o["type"], "value": _good(o, fake)} for o in required
                             if o is not option]
                    yield f"/{' '.join(path)} without {option['name']}", _command(fake, user, where, path, given)
    yield "an unknown command", _command(fake, user, fake.channel, ("nosuchcommand",), [])
    yield "an unknown subcommand", _command(fake, user, fake.channel, ("game", "nosuch"), [])
    yield "a group called as a command", _command(fake, user, fake.channel, ("game",), [])
    yield "options that are no list", _command(fake, user, fake.channel, ("game", "list"), {"x": 1})
    yield "an option with no name", _command(fake, user, fake.channel, ("game", "status"), [{"type": 4, "value": 1}])
    yield "a context menu", {**_command(fake, user, fake.channel, ("game",), []),
                             "data": {"id": "1", "name": "game", "type": 2, "target_id": "1"}}


def _on_message(message: JSON, custom_id: str, kind: int) -> JSON:
    """A copy of ``message`` with a control of that id and type added (what a forger puts on the payload, so
    that the press reaches the bot's controls instead of being dropped by discord.py)."""
    forged = copy.deepcopy(message)
    component: JSON = {"type": kind, "custom_id": custom_id}
    if kind == 2:
        component.update(style=2, label="x")
    else:
        component.update(options=[{"label": "x", "value": "x"}])
    forged["components"] = [*forged.get("components", []), {"type": 1, "components": [component]}]
    return forged


def forged_controls(fake: FakeDiscord, prompt: Any, lobby: JSON) -> Iterator[tuple[str, JSON]]:
    """``lobby``: a started game's lobby message, with its buttons put back on (a forger's replay)."""
    game, version = next(c for c in prompt.custom_ids if c.startswith("tb:pick:")).split(":")[2:4]
    nines = "9" * 30
    ids = [
        "x" * 101, "tb:do:1:1:" + "move?steps=" + "1" * 120, "tb:pick:1:1:0" + "9" * 95,
        f"tb:do:{nines}:1:move?steps=1", f"tb:pick:{nines}:1:0", f"tb:lobby:{nines}:join", f"tb:take:{nines}:0",
        f"tb:hist:{nines}:p:0", f"tb:replay:{nines}:f:0", f"tb:view:{nines}:sheet", f"tb:pick:{game}:{nines}:0",
        f"tb:hist:{game}:p:{nines}", f"tb:replay:{game}:l:{nines}", f"tb:take:{game}:{nines}",
        "tb:do:0:1:move?steps=1", f"tb:pick:{game}:-5:0", f"tb:take:{game}:99", "tb:lobby:999999:start",
        "tb:do:999999:0:move?steps=1", "tb:view:999999:sheet", "tb:hist:999999:n:0", "tb:replay:999999:l:3",
        "tb:rules:nosuchgame:0", "tb:rules:race:999999", f"tb:do:{game}:{version}:", f"tb:do:{game}:{version}:%%%",
        f"tb:do:{game}:{version}:move?steps=99", f"tb:do:{game}:{version}:move?steps=",
        f"tb:do:{game}:{version}:\u0000", f"tb:view:{game}:nosuchview", f"tb:sel:{game}:{version}:move:steps",
        f"tb:act:{game}:{version}:move:steps=9", f"tb:narr:{game}:{version}:read", f"tb:mine:{game}:{version}",
        f"tb:take:{game}:0", f"tb:lobby:{game}:join", "nope", "tb:", "tb:zzz:1", "🙂" * 10,
    ]
    user = user_for(fake, prompt) or fake.alice
    for custom_id in ids:
        for kind in (2, 3):
            payload = fake.component(user, prompt, custom_id, component_type=kind, values=["x"] if kind == 3 else None)
            yield f"{custom_id[:50]!r} (type {kind}, not on its message)", payload
            payload = fake.component(user, prompt, custom_id, component_type=kind, values=["x"] if kind == 3 else None)
            payload["message"] = _on_message(payload["message"], custom_id, kind)
            yield f"{custom_id[:50]!r} (type {kind}, put on its message)", payload
    menu = next(c for c in prompt.custom_ids if c.startswith("tb:pick:"))
    for values in ([], ["x" * 101], ["move?steps=4"], ["\u202e"], ["move?steps=1"] * 26, [""], [7], None):
        payload = fake.component(user, prompt, menu, component_type=3, values=["x"])
        payload["data"]["values"] = values
        yield f"the prompt's menu with {values!r:.40}", payload
    yield "the prompt's menu pressed as a button", fake.component(user, prompt, menu, component_type=2)
    no_message = fake.component(user, prompt, menu, component_type=3, values=["move?steps=1"])
    del no_message["message"]
    yield "a press with no message", no_message
    for row in lobby["components"]:
        for button in row["components"]:
            yield f"{button['custom_id']} on a started game", fake.component(fake.carol, lobby, button["custom_id"])
    modal = fake._interaction_base(5, fake.alice, fake.channel)
    modal["data"] = {"custom_id": "tb:modal:1", "components": []}
    yield "a modal Tabula never opened", modal


def _private(answer: InteractionReply) -> bool:
    if answer.callback_type == 8:
        return True  # an autocomplete's suggestions are only ever the asker's
    if answer.callback_type == 4:
        return answer.ephemeral
    if answer.callback_type == 5:
        return answer.original is not None and answer.original.ephemeral
    if answer.callback_type == 6:  # deferred by the watchdog on a busy machine: nothing shown, then privately
        return bool(answer.followups) and all(m.ephemeral for m in answer.followups)
    return False


def _public(fake: FakeDiscord) -> int:
    return sum(1 for m in fake.all_messages() if not m.ephemeral)


@pytest.mark.slow
async def test_every_forged_input_is_refused_privately_and_logs_no_traceback(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    async with FakeDiscord() as fake, running(db, fake) as bot:
        threads = await _tables(fake, bot, 2)
        prompt = prompt_of(fake, threads[0])
        game, lobby_id = rows(db, "SELECT id, lobby_message_id FROM game WHERE thread_id = ?", threads[0])[0]
        lobby = fake.message(lobby_id)
        replayed = copy.deepcopy(lobby.payload)  # its buttons were taken off at Start: a forger puts them back
        replayed["components"] = [{"type": 1, "components": [
            {"type": 2, "style": 2, "label": op, "custom_id": f"tb:lobby:{game}:{op}"}
            for op in ("join", "leave", "bot", "start")]}]
        assert prompt is not None
        inputs = [*forged_commands(fake, threads[0]), *forged_controls(fake, prompt, replayed)]
        public = _public(fake)
        failures: list[str] = []
        room = asyncio.Semaphore(6)

        async def send(what: str, payload: JSON) -> None:
            def owed() -> bool:  # an invisible deferral (type 6) is answered by its private follow-up
                record = fake.interactions.get(payload["token"])
                return record is not None and record.callback_type == 6 and not record.followup_ids

            async with room:
                try:
                    answer = await fake.interact(payload, timeout=8, quiet=0.02, busy=owed)
                except AssertionError as err:
                    failures.append(f"{what}: unanswered ({str(err)[:120]})")
                    return
                if not _private(answer):
                    failures.append(f"{what}: answered {answer.callback_type} {answer.data!r:.200}")
        await asyncio.gather(*(send(what, payload) for what, payload in inputs))
        leaked = _public(fake) - public
        still = await fake.interact(_pressing(fake, threads[1]), timeout=15)  # the bot plays on
        found = await settled(fake, db)
        await bot.stop()
    err = await bot.stderr()
    assert not failures, f"{len(failures)} of {len(inputs)}:\n" + "\n".join(failures[:60])
    assert leaked == 0
    assert still.callback_type is not None and not found.problems, found
    noisy = [line for line in err.splitlines() if any(n in line for n in NOISE)]
    assert not noisy, "\n".join(noisy[:40])
    print(f"\n{len(inputs)} forged inputs: every one answered privately, 0 posted for everyone, no traceback")


@pytest.mark.slow
async def test_unwatch_after_leaving_the_thread_already_is_a_plain_answer(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    async with FakeDiscord() as fake, running(db, fake) as bot:
        threads = await _tables(fake, bot, 1)
        game = rows(db, "SELECT id FROM game WHERE thread_id = ?", threads[0])[0][0]
        watch = await fake.interact(fake.slash(fake.carol, fake.channel, "game", {"game": game},
                                               subcommand="watch"), timeout=15)
        assert watch.ephemeral and fake.carol["id"] in {str(u) for u in fake.thread(threads[0]).member_ids}
        answers = [await fake.interact(fake.slash(fake.carol, fake.channel, "game", {"game": game},
                                                  subcommand="unwatch"), timeout=15) for _ in range(2)]
        await bot.stop()
    err = await bot.stderr()
    removals = fake.requests_to("DELETE", rf"/channels/{threads[0]}/thread-members/{fake.carol['id']}")
    assert [r.status for r in removals] == [204, 404]  # the second time, Discord says she is not in the thread
    for answer in answers:
        assert answer.ephemeral and answer.content == "You no longer follow that game.", answer.content
    assert "Traceback" not in err and " ERROR " not in err, err


@pytest.mark.slow
async def test_an_answer_after_discords_window_is_one_warning_and_the_move_is_told(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    async with FakeDiscord() as fake, running(db, fake) as bot:
        threads = await _tables(fake, bot, 1)
        moves = rows(db, "SELECT COUNT(*) FROM action")[0][0]
        fake.interaction_deadline = 0.0  # every answer from now on is too late for Discord
        late = await fake.interact(_pressing(fake, threads[0]), timeout=8, expect_response=False, quiet=0.3)
        fake.interaction_deadline = 3.0
        found = await settled(fake, db, timeout=40)  # the sweep tells what the press could not
        await bot.stop()
    err = await bot.stderr()
    assert late.callback_type is None  # Discord took no answer
    assert rows(db, "SELECT COUNT(*) FROM action")[0][0] > moves  # the move is kept
    assert found.owed == 0 and found.untold == 0 and found.twice == 0 and not found.problems, found
    warnings = [line for line in err.splitlines() if "past Discord's 3-second window" in line]
    assert len(warnings) == 1 and " WARNING " in warnings[0], err
    game = rows(db, "SELECT id FROM game WHERE thread_id = ?", threads[0])[0][0]
    assert re.search(rf"game {game}: answered \d+\.\d s after the interaction", warnings[0]), warnings[0]
    assert "Traceback" not in err and " ERROR " not in err, err
    assert audit(fake, db).untold == 0
