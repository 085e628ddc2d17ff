"""The Heroes' Road through discord.py's real interaction path: starting cities from a menu, several players
programming privately at once (changing and locking in), the year's resolution told in the thread, a hunt's
reward choice by button, the show of strength chosen privately, and an absent player's year programmed by
Tabula after the timeout."""

from __future__ import annotations

from typing import Any

import pytest

from bot.store.db import Database
from rules.eiyu.content import ACT, WAIT, library
from rules.eiyu.state import State
from tests.fakediscord import FakeDiscordHarness, walk_components
from tests.tabula_harness import arrange, asked, bot_factory, check_png, told, uid
from tests.test_discord import last

LIB = library()
ORDER_WORDS = ("red road", "yellow road", "blue road", "light-blue road", "purple road", "order:", "row:")


def views(message: Any) -> list[str]:
    return [c for c in message.custom_ids if c.startswith("tb:view:")]


def buttons(reply: Any) -> dict[str, str]:
    return {c["label"]: c["custom_id"] for c in walk_components(reply.components)
            if c.get("custom_id", "").startswith("tb:do:")}


def menus(reply: Any) -> list[dict[str, Any]]:
    return [c for c in walk_components(reply.components) if c.get("custom_id", "").startswith("tb:pick:")]


def rows(reply: Any) -> int:
    return sum(1 for c in reply.components if c.get("type") == 1)


async def open_game(h: FakeDiscordHarness, *, tabula: bool = True, **options: Any) -> tuple[Any, int]:
    """Alice hosts, Bob joins (and Tabula takes a seat): the game is started and both humans choose a city."""
    await h.slash(h.alice, h.channel, "game", {"game": "eiyu", "seed": 3, **options}, subcommand="new")
    lobby = h.messages()[-1]
    await h.click(h.bob, lobby, next(c for c in lobby.custom_ids if c.endswith(":join")))
    if tabula:
        lobby = h.fake.message(lobby.id)
        await h.click(h.alice, lobby, next(c for c in lobby.custom_ids if c.endswith(":bot")))
    lobby = h.fake.message(lobby.id)
    game_id = int(lobby.custom_ids[0].split(":")[2])
    await h.click(h.alice, lobby, next(c for c in lobby.custom_ids if c.endswith(":start")))
    [thread] = h.threads()
    return thread, game_id


async def choose_cities(h: FakeDiscordHarness, thread: Any, cities: dict[int, int]) -> None:
    """Each player picks from the public menu when pinged (in seat order); Tabula's seat picks by itself."""
    people = {uid(h.alice): h.alice, uid(h.bob): h.bob}
    for _ in range(2):
        prompt = last(h, thread.id)
        [who] = prompt.pings.users
        menu = menus(prompt)[0]
        value = next(o["value"] for o in menu["options"] if o["value"].endswith(f"city={cities[who]}"))
        picked = await h.select(people[who], prompt, menu["custom_id"], [value])
        assert f"starts in city {cities[who]}" in told(h, thread.id, picked)


@pytest.mark.slow
async def test_several_players_program_privately_change_and_lock_in_then_the_year_resolves(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        thread, game_id = await open_game(h)
        assert thread.name.startswith("The Heroes' Road · #")
        await choose_cities(h, thread, {uid(h.alice): 1, uid(h.bob): 9})
        begins = next(m for m in h.messages(thread.id) if "Year 1** begins" in m.content)
        # both program at once: pinged once, when the year began (Tabula's seat has locked in already, told in
        # the same message: Tabula's moves after a person's are told with it)
        # (Bob, whose city choice began the year, goes on: named, not pinged; Alice is pinged)
        assert begins.notified is not None and begins.notified.users == {uid(h.alice)}
        assert asked(begins) == {uid(h.alice), uid(h.bob)}
        opening = last(h, thread.id)
        assert opening.id == begins.id
        assert "🤖 Tabula programs" in opening.content and "has locked in" in opening.content
        assert "Still programming: Alice, Bob." in opening.content
        assert views(opening)
        outsider = await h.click(h.carol, opening, views(opening)[0])
        assert outsider.ephemeral and "not playing" in outsider.content

        alice = await h.click(h.alice, opening, views(opening)[0])
        bob = await h.click(h.bob, opening, views(opening)[0])
        for panel in (alice, bob):
            assert panel.ephemeral and "Your row for year 1" in panel.content
            assert rows(panel) <= 5 and len(menus(panel)) == 3
            assert all(len(m["options"]) <= 25 for m in menus(panel))
            assert "Lock in my orders" in buttons(panel)
            [picture] = panel.attachments
            assert picture.filename == "orders.png"
            check_png(picture)

        # Alice sets slot 2 to the red road (to 8), then changes her mind from the same panel: blue (to 9)
        slots = menus(alice)[1]
        red = next(o["value"] for o in slots["options"] if o["value"].endswith("slot=2&order=red"))
        blue = next(o["value"] for o in slots["options"] if o["value"].endswith("slot=2&order=blue"))
        posted = len(h.messages(thread.id))
        changed = await h.select(h.alice, alice.original, slots["custom_id"], [red])
        # the panel redraws itself with the new order, privately; nothing is posted in the thread
        assert changed.callback_type == 7 and "`2` red road" in changed.data.get("content", "")
        assert h.fake.message(alice.original.id).ephemeral
        again = await h.select(h.alice, alice.original, slots["custom_id"], [blue])
        assert "`2` blue road" in again.data.get("content", "")  # the same panel still works: nothing went stale
        # Bob takes a whole suggested row
        suggested = menus(bob)[0]
        took = await h.select(h.bob, bob.original, suggested["custom_id"], [suggested["options"][0]["value"]])
        assert took.callback_type == 7
        assert len(h.messages(thread.id)) == posted  # no public line for any of the three changes

        state = (await h.bot.service.get(game_id)).state
        assert state.players[0].row[1] == "blue" and state.players[0].row[0] == ACT
        mine = await h.click(h.alice, opening, views(opening)[0])
        assert "`2` blue road — → 9 Kazemori" in mine.content
        theirs = await h.click(h.bob, opening, views(opening)[0])
        assert "Kazemori" not in theirs.content.split("Your row")[0]  # Bob's panel shows his own row only

        locked = await h.click(h.alice, mine.original, buttons(mine)["Lock in my orders"])
        assert "has locked in" in told(h, thread.id, locked)
        assert last(h, thread.id).pings.nobody  # nobody is pinged again
        late = await h.select(h.alice, mine.original, menus(mine)[1]["custom_id"], [red])
        assert late.ephemeral and "locked in" in late.content
        public = "\n".join(m.content for m in h.messages(thread.id))
        assert "blue road" not in public  # still nobody has seen a row

        fresh = await h.click(h.bob, last(h, thread.id), views(last(h, thread.id))[0])
        done = await h.click(h.bob, fresh.original, buttons(fresh)["Lock in my orders"])
        story = "\n".join(m.content for m in done.messages)
        assert "Year 1 resolves" in story and "Year 1 is over" in story
        assert "`2` Alice: blue road 1 → 9 Kazemori" in story or "blue road 1 → 9" in story
        assert story.index("`1`") < story.index("`2`")  # slot by slot
        pictures = [a for m in done.messages for a in m.attachments]
        assert any(a.filename == "map.png" for a in pictures)
        for a in pictures:
            check_png(a)
        year2 = next(m for m in h.messages(thread.id) if "Year 2** begins" in m.content)
        assert f"<@{uid(h.alice)}>" in year2.content and f"<@{uid(h.bob)}>" in year2.content  # asked again


async def _both_lock(h: FakeDiscordHarness, thread: Any, rows_by_user: dict[int, str]) -> Any:
    people = {uid(h.alice): h.alice, uid(h.bob): h.bob}
    reply = None
    for user_id, row in rows_by_user.items():
        reply = await h.slash(people[user_id], thread.payload, "program", {"row": row, "lock": "yes"})
        assert reply.ephemeral and "secret" in reply.content
    return reply


async def test_a_hunts_reward_is_chosen_by_button_and_the_dummy_is_raised(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        thread, game_id = await open_game(h, tabula=False)  # two players: the dummy plays too
        await choose_cities(h, thread, {uid(h.alice): 2, uid(h.bob): 4})

        def troops(s: State) -> None:
            s.players[0].soldiers = sorted(LIB.chip(s.slot[1]).needs)

        await arrange(h.bot.service, game_id, troops)
        chip = LIB.chip((await h.bot.service.get(game_id)).state.slot[1])
        await _both_lock(h, thread, {uid(h.alice): "act,wait,wait,wait,wait,wait",
                                     uid(h.bob): "wait,wait,wait,wait,wait,wait"})
        prompt = last(h, thread.id)
        assert f"hunts the **{chip.monster}**" in "\n".join(m.content for m in h.messages(thread.id)[-3:])
        assert prompt.pings.users == {uid(h.alice)}
        choices = buttons(prompt)
        assert len(choices) == 1 + 2 * len(LIB.areas_of(2))
        gold_key = next(k for k in choices if "gold" in k and "building" in k)
        refused = await h.click(h.bob, prompt, choices[gold_key])
        assert refused.ephemeral
        took = await h.click(h.alice, prompt, choices[gold_key])
        assert f"{chip.gold} gold" in took.content and "builds" in took.content
        raise_prompt = last(h, thread.id)
        assert asked(raise_prompt) == {uid(h.alice)}  # Alice goes on: named, not pinged again
        dummy = buttons(raise_prompt)
        assert len(dummy) == 3
        raised = await h.click(h.alice, raise_prompt, next(v for k, v in dummy.items() if "gold" in k))
        assert "raises the dummy's gold" in raised.content and "Year 1 is over" in raised.content


async def test_the_show_of_strength_is_chosen_privately_and_revealed_together(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        thread, game_id = await open_game(h, tabula=False)
        await choose_cities(h, thread, {uid(h.alice): 4, uid(h.bob): 8})

        def strong(s: State) -> None:
            s.year = LIB.year_track.shows[0]
            s.players[0].soldiers = [1, 1, 2]
            s.players[1].soldiers = [1, 3]

        await arrange(h.bot.service, game_id, strong)
        await _both_lock(h, thread, {uid(h.alice): ",".join([WAIT] * 6), uid(h.bob): ",".join([WAIT] * 6)})
        prompt = last(h, thread.id)
        assert "Show of strength 1" in prompt.content or any(
            "Show of strength 1" in m.content for m in h.messages(thread.id)[-2:])
        assert asked(prompt) == {uid(h.alice), uid(h.bob)}  # (whoever locked in last goes on, unpinged)
        alice = await h.click(h.alice, prompt, views(prompt)[0])
        assert alice.ephemeral and "Show of strength" in alice.content
        [menu] = menus(alice)
        labels = {o["label"] for o in menu["options"]}
        assert "Show my peasant levy, archer" in labels and "Show nothing" in labels
        value = next(o["value"] for o in menu["options"] if o["label"] == "Show my peasant levy, archer")
        chose = await h.select(h.alice, alice.original, menu["custom_id"], [value])
        assert "has chosen what to show" in told(h, thread.id, chose)
        assert "peasant" not in chose.content and "archer" not in chose.content
        assert "Still choosing: Bob." in told(h, thread.id, chose)
        assert not last(h, thread.id).pings.users  # Bob, still choosing, is not pinged again
        bob = await h.click(h.bob, last(h, thread.id), views(last(h, thread.id))[0])
        [menu] = menus(bob)
        value = next(o["value"] for o in menu["options"] if o["label"] == "Show my infantry")
        shown = await h.select(h.bob, bob.original, menu["custom_id"], [value])
        story = "\n".join(m.content for m in shown.messages)
        assert "Alice shows 2 peasant levies, 1 archer" in story and "Bob shows 1 infantry" in story
        assert "peasant levy: Alice takes gold" in story and "Year 5" in story


async def test_an_absent_players_year_is_programmed_by_tabula_after_the_timeout(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db, narrator_timeout_minutes=1)) as h:
        thread, game_id = await open_game(h)
        await choose_cities(h, thread, {uid(h.alice): 1, uid(h.bob): 6})
        locked = await h.slash(h.alice, thread.payload, "program", {"row": "act,red,act,red,act,wait", "lock": "yes"})
        assert locked.ephemeral
        service = h.bot.service
        real = service.clock
        service.clock = lambda: real() + 120
        count = len(h.messages(thread.id))
        assert await h.bot.run_timeouts() == 1
        posted = h.messages(thread.id)[count:]
        assert posted and "⏳ Bob did not answer" in posted[0].content and "Tabula programmed their year" in \
            posted[0].content
        told = "\n".join(m.content for m in posted)
        assert "Year 1 resolves" in told
        state = (await service.get(game_id)).state
        assert state.year == 2
