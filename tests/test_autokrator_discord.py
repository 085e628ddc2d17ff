"""Autokrator through discord.py's real interaction path: battle cards dealt privately and at the same time, a
whole battle whose two rows stay secret until the reveal, the beaten unit's retreat, a realm Tabula plays (and
one it takes over after the timeout), and misuse refused politely."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from bot.service.play import GameService
from bot.store.db import Database
from rules.autokrator import RULESET
from rules.autokrator.content import library
from rules.autokrator.engine.battle import fight, lineups
from rules.autokrator.state import Lineup, State
from rules.spec import Command
from tests.fakediscord import FakeDiscordHarness, walk_components
from tests.tabula_harness import asked, bot_factory, check_png, told, uid
from tests.test_discord import last

LIB = library()
CARD_NAMES = [c.name for c in LIB.cards.values()]


async def arrange(svc: GameService, game_id: int, change: Callable[[State], None]) -> None:
    g = await svc._load(game_id, fresh=True)
    state = msgspec.json.decode(msgspec.json.encode(g.state), type=State)
    change(state)
    assert await svc.db.store.save(game_id, g.version, state=msgspec.json.encode(state).decode(), status="active",
                                   deadline=None, entry=None, now=svc.clock())
    svc.forget(game_id)


def private_ids(message: Any) -> list[str]:
    return [c for c in message.custom_ids if c.startswith("tb:view:")]


def act_buttons(reply: Any) -> dict[str, str]:
    return {c["label"]: c["custom_id"] for c in walk_components(reply.components)
            if c.get("custom_id", "").startswith("tb:do:")}


def menus(reply: Any) -> list[dict[str, Any]]:
    return [c for c in walk_components(reply.components) if c.get("custom_id", "").startswith("tb:pick:")]


async def open_game(h: FakeDiscordHarness, *, join: tuple[Any, ...] = (), tabula: int = 0,
                    **options: Any) -> tuple[Any, int]:
    options = {"realms": "choice", **options}  # each player takes the realm the test needs, by its button
    await h.slash(h.alice, h.channel, "game", {"game": "autokrator", "seed": 5, **options}, subcommand="new")
    lobby = h.messages()[-1]
    for user in join:
        await h.click(user, lobby, next(c for c in lobby.custom_ids if c.endswith(":join")))
        lobby = h.fake.message(lobby.id)
    for _ in range(tabula):
        await h.click(h.alice, lobby, next(c for c in lobby.custom_ids if c.endswith(":bot")))
        lobby = h.fake.message(lobby.id)
    game_id = int(lobby.custom_ids[0].split(":")[2])
    started = await h.click(h.alice, lobby, next(c for c in lobby.custom_ids if c.endswith(":start")))
    assert not started.ephemeral
    [thread] = h.threads()
    if options["realms"] == "choice":
        await choose_realms(h, thread, (h.alice, *join))
    return thread, game_id


async def choose_realms(h: FakeDiscordHarness, thread: Any, users: tuple[Any, ...]) -> None:
    """In the order they joined, each player presses the button of the next realm in the book's order (the
    last seat, a person or Tabula, is left the last realm)."""
    realms = ("the Saracens", "the Byzantine Empire", "the Franks", "the Moors")
    for _ in range(200):  # a slow start (a busy machine, the first map drawn) posts the opening a little later
        if h.messages(thread.id):
            break
        await asyncio.sleep(0.1)
    for user, realm in zip(users, realms, strict=False):
        prompt = last(h, thread.id)
        buttons = act_buttons(prompt)
        if f"Take {realm}" not in buttons:
            break  # the last realm went to the last seat without a choice
        assert uid(user) in asked(prompt)
        took = await h.click(user, prompt, buttons[f"Take {realm}"])
        assert not took.ephemeral and "👑" in told(h, thread.id, took)


async def deal_privately(h: FakeDiscordHarness, thread: Any, user: Any) -> list[str]:
    """Press **Your hand** and pick from the private menu until every unit has its cards; returns what the
    player alone saw."""
    seen: list[str] = []
    for _ in range(4):
        prompt = last(h, thread.id)
        if not private_ids(prompt) or uid(user) not in asked(prompt):
            break
        mine = await h.click(user, prompt, private_ids(prompt)[0])
        assert mine.ephemeral
        seen.append(mine.content)
        for attachment in mine.attachments:
            check_png(attachment)
        [menu] = menus(mine)
        assert 1 <= len(menu["options"]) <= 25
        picked = await h.select(user, mine.original, menu["custom_id"], [menu["options"][0]["value"]])
        # nobody new must act: the deal is told in the thread's newest prompt, which grows (pinging nobody)
        assert "face down" in told(h, thread.id, picked)
    return seen


def public_text(h: FakeDiscordHarness, thread: Any) -> str:
    return "\n".join(m.content for m in h.messages(thread.id))


@pytest.mark.slow
async def test_battle_cards_are_dealt_privately_and_at_the_same_time(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        # The realms drawn (the default): the opening asks both players to deal at once.
        thread, game_id = await open_game(h, join=(h.bob,), mode="east", realms="random")
        opening = last(h, thread.id)
        assert opening.pings.users == {uid(h.alice), uid(h.bob)}
        assert "Epoch I" in public_text(h, thread) and "map.png" in {a.filename for a in opening.attachments}
        outsider = await h.click(h.carol, opening, private_ids(opening)[0])
        assert outsider.ephemeral and "not playing" in outsider.content
        alice_saw = await deal_privately(h, thread, h.alice)
        assert any("King" in text for text in alice_saw)
        waiting = last(h, thread.id)
        assert asked(waiting) == {uid(h.bob)}  # Bob still deals; Alice waits
        assert not waiting.pings.users  # and Bob, still choosing, is not pinged again (an edit pings nobody)
        await deal_privately(h, thread, h.bob)
        public = public_text(h, thread)
        assert not any(name in public for name in CARD_NAMES)  # no card named in the thread
        assert "The turn of the Saracens" in public
        state = (await h.bot.service.get(game_id)).state
        assert all(state.realms[k].assigned for k in state.order)
        hand = await h.slash(h.alice, thread.payload, "hand")
        assert hand.ephemeral and "King:" in hand.content
        check_png(hand.attachments[0])


async def _battle_ready(h: FakeDiscordHarness) -> tuple[Any, int]:
    thread, game_id = await open_game(h, join=(h.bob,), mode="east")
    await deal_privately(h, thread, h.alice)
    await deal_privately(h, thread, h.bob)

    def example_5(s: State) -> None:
        s.realms["sar"].units["king"].region = "damascus"
        s.realms["byz"].units["general"].region = "antioch"

    await arrange(h.bot.service, game_id, example_5)
    return thread, game_id


async def _choose_rows(h: FakeDiscordHarness, game_id: int, attacker_wins: bool) -> tuple[Command, Command]:
    state = (await h.bot.service.get(game_id)).state
    b = state.battle
    for a_row, a_marks in lineups(b.attacker):
        for d_row, d_marks in lineups(b.defender):
            att = msgspec.structs.replace(b.attacker, lineup=list(a_row), marks=list(a_marks))
            dfd = msgspec.structs.replace(b.defender, lineup=list(d_row), marks=list(d_marks))
            if fight(b.field, att, dfd)[4] == attacker_wins:
                codec = RULESET.codec
                return (codec.encode(state, 0, Lineup(cards=a_row, marks=a_marks)),
                        codec.encode(state, 1, Lineup(cards=d_row, marks=d_marks)))
    raise AssertionError("no rows give the wanted result")


async def _private_pick(h: FakeDiscordHarness, thread: Any, user: Any, value: str | None = None) -> Any:
    prompt = last(h, thread.id)
    mine = await h.click(user, prompt, private_ids(prompt)[0])
    assert mine.ephemeral
    [menu] = menus(mine)
    values = [o["value"] for o in menu["options"]]
    chosen = value if value is not None else values[0]
    assert any(chosen.endswith(v) or v.endswith(chosen) or v == chosen for v in values), (chosen, values)
    chosen = next(v for v in values if v == chosen or v.endswith(chosen) or chosen.endswith(v))
    return mine, await h.select(user, mine.original, menu["custom_id"], [chosen])


async def test_a_whole_battle_keeps_both_rows_secret_until_the_reveal_then_the_beaten_unit_retreats(
        db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        thread, game_id = await _battle_ready(h)
        near = await h.autocomplete(h.alice, thread.payload, "move", {"unit": "king", "to": ""})
        assert near.choices and "antioch" in [c["value"] for c in near.choices]
        marched = await h.slash(h.alice, thread.payload, "move", {"unit": "king", "to": "antioch"})
        assert not marched.ephemeral and "Antioch" in marched.content
        targets = await h.autocomplete(h.alice, thread.payload, "attack", {"unit": "king", "target": ""})
        assert [c["value"] for c in targets.choices] == ["byz.general"]  # not the Garrison while he stands there
        begun = await h.slash(h.alice, thread.payload, "attack", {"unit": "king", "target": "byz.general"})
        assert not begun.ephemeral and "attacks the Byzantine General" in begun.content
        fields_menu, offered = await _private_pick(h, thread, h.alice)
        assert "Offer two battlefields" in fields_menu.content
        assert "offers battle" in told(h, thread.id, offered)
        field_menu, chosen = await _private_pick(h, thread, h.bob)
        assert "choose one" in field_menu.content and "picks the" in told(h, thread.id, chosen)
        a_row, d_row = await _choose_rows(h, game_id, attacker_wins=True)
        before = len(h.messages(thread.id))
        _, laid = await _private_pick(h, thread, h.alice, a_row.encode())
        assert "lays three cards face down" in told(h, thread.id, laid)
        shown = laid.attachments if not laid.ephemeral else last(h, thread.id).attachments
        assert any(a.filename == "battle.png" for a in shown)  # the rows face down
        secret_so_far = "\n".join(m.content for m in h.messages(thread.id)[before:])
        assert not any(name in secret_so_far for name in CARD_NAMES)
        _, revealed = await _private_pick(h, thread, h.bob, d_row.encode())
        assert "Battle of Antioch" in told(h, thread.id, revealed) and "Clash 3" in told(h, thread.id, revealed)
        shown = revealed.attachments if not revealed.ephemeral else last(h, thread.id).attachments
        assert any(a.filename == "battle.png" for a in shown)
        for attachment in shown:
            check_png(attachment)
        retreat = last(h, thread.id)
        # Bob, who just laid his row, must choose again: named, not pinged (he is there, and goes on)
        assert asked(retreat) == {uid(h.bob)} and "falls back" in retreat.content
        buttons = act_buttons(retreat)
        assert set(buttons) == {"Fall back to Attalia", "Fall back to Caesarea"}
        wrong = await h.click(h.alice, retreat, buttons["Fall back to Attalia"])
        assert wrong.ephemeral
        back = await h.click(h.bob, retreat, buttons["Fall back to Attalia"])
        assert not back.ephemeral and "from Antioch to Attalia" in back.content
        state = (await h.bot.service.get(game_id)).state
        assert state.realms["byz"].units["general"].region == "attalia"
        assert state.realms["byz"].units["general"].lives == 3


async def test_a_realm_played_by_tabula_and_one_taken_over_after_the_timeout(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db, narrator_timeout_minutes=1)) as h:
        # The realms drawn at random (the default): the start pings everyone at once.
        thread, game_id = await open_game(h, join=(h.bob, h.carol), tabula=1, mode="fast", realms="random")
        opening = last(h, thread.id)
        assert opening.notified is not None
        assert opening.notified.users == {uid(h.alice), uid(h.bob), uid(h.carol)}  # pinged once, at the start
        assert "Tabula" in opening.content and "face down" in opening.content  # its deals grew the same message
        assert len(h.messages(thread.id)) == 1
        state = (await h.bot.service.get(game_id)).state
        assert sorted(state.seats) == sorted(state.order)
        tabulas, carols = state.seats[3], state.seats[2]  # seats in the order they joined; Tabula's is the last
        assert state.realms[tabulas].assigned and not state.realms[state.seats[0]].assigned
        await deal_privately(h, thread, h.alice)
        await deal_privately(h, thread, h.bob)
        service = h.bot.service
        real = service.clock
        service.clock = lambda: real() + 120  # Carol is away for two minutes
        count = len(h.messages(thread.id))
        assert await h.bot.run_timeouts() == 1
        posted = h.messages(thread.id)[count:]
        assert posted and "did not answer" in posted[0].content and "Tabula plays their realm" in posted[0].content
        service.clock = real
        # Carol comes back: her own choice is taken as usual
        state = (await service.get(game_id)).state
        if not state.realms[carols].assigned:
            await deal_privately(h, thread, h.carol)
            state = (await service.get(game_id)).state
        assert all(state.realms[k].assigned for k in state.order)
        status = await h.slash(h.carol, thread.payload, "game", subcommand="status")
        assert status.ephemeral and "points" in status.content
        check_png(status.attachments[0])


async def test_misuse_is_refused_politely(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        three = await h.slash(h.alice, h.channel, "game", {"game": "autokrator", "mode": "east", "realms": "choice"},
                              subcommand="new")
        assert not three.ephemeral
        thread, _game_id = await _battle_ready_fresh(h)
        early = await h.slash(h.bob, thread.payload, "move", {"unit": "king", "to": "adrianople"})
        assert early.ephemeral and "waits for" in early.content
        never = await h.slash(h.alice, thread.payload, "move", {"unit": "king", "to": "bulgaria"})
        assert never.ephemeral and "march" in never.content
        nowhere = await h.slash(h.alice, thread.payload, "move", {"unit": "king", "to": "atlantis"})
        assert nowhere.ephemeral and "no region called" in nowhere.content
        nothing = await h.slash(h.alice, thread.payload, "attack", {"unit": "king", "target": "region"})
        assert nothing.ephemeral and "attacks where it stands" in nothing.content
        stranger = await h.slash(h.carol, thread.payload, "move", {"unit": "king", "to": "alexandria"})
        assert stranger.ephemeral and "not playing" in stranger.content
        hand = await h.slash(h.carol, thread.payload, "hand")
        assert hand.ephemeral


async def _battle_ready_fresh(h: FakeDiscordHarness) -> tuple[Any, int]:
    lobby = h.messages()[-1]
    await h.click(h.bob, lobby, next(c for c in lobby.custom_ids if c.endswith(":join")))
    lobby = h.fake.message(lobby.id)
    game_id = int(lobby.custom_ids[0].split(":")[2])
    await h.click(h.alice, lobby, next(c for c in lobby.custom_ids if c.endswith(":start")))
    [thread] = h.threads()
    await choose_realms(h, thread, (h.alice, h.bob))
    await deal_privately(h, thread, h.alice)
    await deal_privately(h, thread, h.bob)
    return thread, game_id
