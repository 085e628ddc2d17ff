"""Champion of the Empire through discord.py's real interaction path: choosing heroes privately, every action
command with its autocomplete and refusals, the market, a whole fight played with buttons while each hand
stays private, and the final battle."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.store.db import Database
from rules.champion.content import library
from rules.champion.state import State
from tests.fakediscord import FakeDiscordHarness, walk_components
from tests.tabula_harness import arrange, bot_factory, check_png, told, uid
from tests.test_discord import last

LIB = library()


def private_ids(message: Any) -> list[str]:
    return [c for c in message.custom_ids if c.startswith("tb:view:")]


def act_buttons(reply: Any) -> dict[str, str]:
    """label -> custom id of every command button in a message or reply."""
    return {c["label"]: c["custom_id"] for c in walk_components(reply.components)
            if c.get("custom_id", "").startswith("tb:do:")}


async def open_champion(h: FakeDiscordHarness, **options: Any) -> tuple[Any, int]:
    await h.slash(h.alice, h.channel, "game", {"game": "champion", "seed": 5, **options}, subcommand="new")
    lobby = h.messages()[-1]
    await h.click(h.bob, lobby, next(c for c in lobby.custom_ids if c.endswith(":join")))
    lobby = h.fake.message(lobby.id)
    game_id = int(lobby.custom_ids[0].split(":")[2])
    started = await h.click(h.alice, lobby, next(c for c in lobby.custom_ids if c.endswith(":start")))
    assert not started.ephemeral
    [thread] = h.threads()
    return thread, game_id


async def choose_heroes(h: FakeDiscordHarness, thread: Any) -> None:
    """Both players press "Your choices", pick from the private menu, then pass on the item offer."""
    for user in (h.bob, h.alice):
        prompt = last(h, thread.id)
        mine = await h.click(user, prompt, private_ids(prompt)[0])
        assert mine.ephemeral
        menu = next(c for c in walk_components(mine.components) if c.get("custom_id", "").startswith("tb:pick:"))
        assert 1 <= len(menu["options"]) <= 25
        picked = await h.select(user, mine.original, menu["custom_id"], [menu["options"][0]["value"]])
        hero = LIB.hero[menu["options"][0]["value"].split("hero=")[1].split("&")[0]].name
        assert hero in told(h, thread.id, picked)
        prompt = last(h, thread.id)
        offer = await h.click(user, prompt, private_ids(prompt)[0])
        assert offer.ephemeral and "Buy one, or pass" in offer.content
        for attachment in offer.attachments:
            check_png(attachment)
        passed = await h.click(user, offer.original, act_buttons(offer)["Pass"])
        assert told(h, thread.id, passed)


async def ready_table(h: FakeDiscordHarness, **options: Any) -> tuple[Any, int, dict[int, Any], Any, int]:
    """A started game with both heroes chosen: (thread, game id, players by id, who moves first, their seat)."""
    thread, game_id = await open_champion(h, **options)
    await choose_heroes(h, thread)
    players = {uid(h.alice): h.alice, uid(h.bob): h.bob}
    mover = players[next(iter(last(h, thread.id).pings.users))]
    return thread, game_id, players, mover, 0 if mover is h.alice else 1


@pytest.mark.slow
async def test_heroes_are_chosen_privately_and_the_first_round_opens_with_its_event(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        thread, _game_id = await open_champion(h)
        assert thread.name.startswith("Champion of the Empire · #")
        opening = last(h, thread.id)
        assert opening.pings.users == {uid(h.alice), uid(h.bob)}  # both choose at once
        assert private_ids(opening)
        outsider = await h.click(h.carol, opening, private_ids(opening)[0])
        assert outsider.ephemeral and "not playing" in outsider.content
        await choose_heroes(h, thread)
        first = last(h, thread.id)
        assert "Round 1" in first.content
        names = {a.filename for a in first.attachments}
        assert "map.png" in names and any(n.startswith("event-") for n in names)
        for attachment in first.attachments:
            check_png(attachment)
        assert len(first.pings.users) == 1
        assert any(c.startswith("tb:pick:") for c in first.custom_ids)  # the move menu


@pytest.mark.slow
async def test_action_commands_with_autocomplete_and_polite_refusals(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        thread, game_id = await open_champion(h, opponents="bot")
        await choose_heroes(h, thread)
        plain = [p.id for p in LIB.map.province if not p.city and not p.shrine and not p.coast]

        def in_the_country(s: State) -> None:  # no market, no shrine, no port: the turn ends with the action
            for i, hero in enumerate(s.heroes):
                hero.province = plain[i]

        await arrange(h.bot.service, game_id, in_the_country)
        players = {uid(h.alice): h.alice, uid(h.bob): h.bob}
        mover = players[next(iter(last(h, thread.id).pings.users))]
        other = h.bob if mover is h.alice else h.alice
        near = await h.autocomplete(mover, thread.payload, "caravan", {"to": ""})
        assert near.choices and all(c["value"] in LIB.province for c in near.choices)
        wrong = await h.slash(other, thread.payload, "caravan", {"to": near.choices[0]["value"]})
        assert wrong.ephemeral and "not yours" in wrong.content
        far = await h.slash(mover, thread.payload, "caravan", {"to": "britannia"})
        assert far.ephemeral and "neighbour" in far.content
        nowhere = await h.slash(mover, thread.payload, "voyage", {"to": "atlantis"})
        assert nowhere.ephemeral and "no province" in nowhere.content.lower()
        inland = await h.slash(mover, thread.payload, "voyage", {"to": "latium"})
        assert inland.ephemeral and "harbour" in inland.content
        poor = await h.slash(mover, thread.payload, "develop", {"attribute": "initiative"})
        assert poor.ephemeral and "costs 4 experience" in poor.content
        lore = await h.slash(mover, thread.payload, "lore")
        assert lore.ephemeral and "shrine" in lore.content
        paths = await h.autocomplete(mover, thread.payload, "explore", {"path": ""})
        assert paths.choices and any(" > " in c["name"] for c in paths.choices)
        done = await h.slash(mover, thread.payload, "commission", {"reward": "xp"})
        assert "commission" in told(h, thread.id, done).lower()
        assert done.original is not None and done.original.pings.users == {uid(other)}
        full = await h.slash(other, thread.payload, "recuperate")
        assert full.ephemeral and "full life" in full.content
        rested = await h.slash(other, thread.payload, "commission", {"reward": "gold"})
        assert not rested.ephemeral and rested.original is not None
        assert rested.original.pings.users == {uid(mover)}
        twice = await h.slash(mover, thread.payload, "commission", {"reward": "gold"})
        assert twice.ephemeral and "twice in a row" in twice.content
        status = await h.slash(h.carol, thread.payload, "game", subcommand="status")
        assert status.ephemeral and "information 0/6" in status.content
        check_png(status.attachments[0])
        sheet = await h.slash(mover, thread.payload, "sheet")
        assert sheet.ephemeral and "Region cards still in your hand (6)" in sheet.content
        check_png(sheet.attachments[0])
        walked = await h.slash(mover, thread.payload, "explore", {"path": paths.choices[0]["value"]})
        assert not walked.ephemeral and any(a.filename.startswith("story-") for a in walked.attachments)


@pytest.mark.slow
async def test_the_local_market_offers_three_cards_to_buy_or_leave(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        thread, game_id, _players, mover, seat = await ready_table(h, opponents="bot")

        def in_a_city(s: State) -> None:
            s.heroes[seat].province, s.heroes[seat].gold = "latium", 20
            s.heroes[seat].last_action = ""

        await arrange(h.bot.service, game_id, in_a_city)
        done = await h.slash(mover, thread.payload, "commission", {"reward": "gold"})
        market = done.original
        assert market is not None and "market" in market.content.lower()
        items = [a for a in market.attachments if a.filename.startswith("item-")]
        assert len(items) == 3
        buttons = act_buttons(market)
        buy = next(label for label in buttons if label.startswith("Buy "))
        other = h.bob if mover is h.alice else h.alice
        refused = await h.click(other, market, buttons[buy])
        assert refused.ephemeral
        bought = await h.click(mover, market, buttons[buy])
        assert buy.split(" (")[0][4:] in told(h, thread.id, bought)
        # the market's buttons are taken away (by the outbox's task, which a loaded machine may run after the
        # press is answered: one failure in CI on a run at full load); pressed anyway from a client that had not
        # caught up, refused
        for _ in range(200):
            if h.fake.message(market.id).custom_ids == []:
                break
            await asyncio.sleep(0.05)
        assert h.fake.message(market.id).custom_ids == []
        market.payload["components"] = market.history[-1].get("components", []) if market.history else []
        again = await h.click(mover, market, buttons[buy])
        assert again.ephemeral and "earlier" in again.content


def live_prompt(h: FakeDiscordHarness, thread: Any) -> Any:
    """The one message of the thread whose controls are live (in a fight: the fight's own message, edited as
    it goes; a ping line may have come after it)."""
    return next(m for m in reversed(h.messages(thread.id))
                if any(c.startswith(("tb:pick:", "tb:do:", "tb:view:")) for c in m.custom_ids))


async def play_fight(h: FakeDiscordHarness, thread: Any, game_id: int, players: dict[int, Any],
                     looks: dict[int, list[str]], limit: int = 300) -> int:
    """Whoever must act presses "Your hand" (if offered) and then the first command button, until the fight
    is over; every private look is kept in ``looks`` by user id.  Returns how many messages the fight added to
    the thread (it is one message, edited card by card, plus a short line whenever the turn passes)."""
    previous: Any = None
    before = seen = len(h.messages(thread.id))
    for _ in range(limit):
        now = await h.bot.service.get(game_id)
        if now.state.combat is None:
            return len(h.messages(thread.id)) - before
        message = live_prompt(h, thread)
        pinged = {u for m in h.messages(thread.id)[seen:] for u in m.pings.users}  # since the last press
        seen = len(h.messages(thread.id))
        who = players[now.user_of(min(now.to_act))]
        if previous is not None:
            # a ping only when the turn passes to someone: never the player who just acted and goes on
            assert (uid(who) in pinged) == (who is not previous), ("pings", pinged, who is previous)
        previous = who
        mine = private_ids(message)
        if mine:
            look = await h.click(who, message, mine[0])
            assert look.ephemeral
            looks.setdefault(uid(who), []).append(look.content)
            pressed = await h.click(who, look.original, next(iter(act_buttons(look).values())))
            assert not pressed.ephemeral or "told in the running message" in pressed.content, pressed.content
        else:
            pressed = await h.click(who, message, next(iter(act_buttons(message).values())))
            assert not pressed.ephemeral, pressed.content
    raise AssertionError("the fight never ended")


async def face_the_bodyguard(h: FakeDiscordHarness, thread: Any, game_id: int, mover: Any, seat: int) -> Any:
    """Put the Bodyguard on top of the next province's deck, escort a caravan there and stand your ground."""
    plain = next(p.id for p in LIB.map.province if not p.city and not p.shrine and not p.coast)
    target = next(n for n in LIB.near[plain] if not LIB.province[n].city)

    def bodyguard_ahead(s: State) -> None:
        s.heroes[seat].province = plain
        for deck in s.stories.values():
            if "bodyguard" in deck:
                deck.remove("bodyguard")
        s.stories[LIB.deck_of(target)].insert(0, "bodyguard")

    await arrange(h.bot.service, game_id, bodyguard_ahead)
    moved = await h.slash(mover, thread.payload, "caravan", {"to": target})
    assert "Bodyguard" in told(h, thread.id, moved)
    assert any(a.filename == "story-bodyguard.png" for a in moved.attachments)
    message = last(h, thread.id)
    stand = next(cid for label, cid in act_buttons(message).items() if "Stand" in label)
    fight = await h.click(mover, message, stand)
    assert not fight.ephemeral
    return fight


@pytest.mark.slow
async def test_a_whole_fight_with_buttons_keeps_each_hand_private(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        thread, game_id, players, mover, seat = await ready_table(h, opponents="players")
        other = h.bob if mover is h.alice else h.alice
        await face_the_bodyguard(h, thread, game_id, mover, seat)
        looks: dict[int, list[str]] = {}
        added = await play_fight(h, thread, game_id, players, looks)
        fights = [m for m in h.messages(thread.id) if "⚔️" in m.content]
        assert len(fights) == 1 and fights[0].history  # one fight message, edited as the fight went
        assert added <= 12, added  # the pings when the turn passed, and the end of the fight
        public = "\n".join([*(m.content for m in h.messages(thread.id)),
                             *(str(v.get("content", "")) for m in h.messages(thread.id) for v in m.history)])
        assert "Your hand:" not in public and "(you play it)" not in public
        assert "⚔️" in public and "🎲 Initiative" in public
        # the right-hand player ran the Bodyguard from a hand only they saw; the hero saw only their own
        assert any("Bodyguard's hand" in text for text in looks.get(uid(other), []))
        assert not any("Bodyguard's hand" in text for text in looks.get(uid(mover), []))
        assert any("Your hand:" in text for text in looks.get(uid(mover), []))
        assert "fight" in public.lower()


@pytest.mark.slow
async def test_the_final_battle_crowns_the_champion(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        thread, game_id, players, mover, seat = await ready_table(h, opponents="bot")
        lair = LIB.lairs[("italia", "amphora")]

        def at_the_lair(s: State) -> None:
            me = s.heroes[seat]
            me.info, me.regions, me.province_card, me.monster = 6, ["italia"], "amphora", "minotaur"
            me.province, me.combat, me.initiative, me.life, me.max_life = lair, 30, 20, 40, 40
            s.monsters = [m for m in s.monsters if m != "minotaur"]

        await arrange(h.bot.service, game_id, at_the_lair)
        sheet = await h.slash(mover, thread.payload, "sheet")
        assert sheet.ephemeral and "Minotaur" in sheet.content and LIB.province[lair].name in sheet.content
        fight = await h.slash(mover, thread.payload, "attack")
        assert "Minotaur" in told(h, thread.id, fight)
        await play_fight(h, thread, game_id, players, {})
        final = "\n".join(m.content for m in h.messages(thread.id)[-3:])
        assert "Champion of the Empire" in final and "🏆" in final
        result = await h.bot.service.get(game_id)
        assert result.status == "finished" and result.outcome is not None
        lobby = h.messages()[0]
        assert "🏆" in str(h.fake.message(lobby.id).embeds)


@pytest.mark.slow
async def test_a_voyage_and_a_shrines_lore_by_slash_command(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        thread, game_id, players, mover, seat = await ready_table(h, opponents="bot")
        other_seat = 1 - seat
        shrine = next(p.id for p in LIB.map.province if p.shrine and p.coast)
        port = next(p for p in LIB.ports if p != shrine and not LIB.province[p].city)
        plain = next(p.id for p in LIB.map.province if not p.city and not p.shrine and not p.coast)

        def at_sea_and_at_a_shrine(s: State) -> None:
            s.heroes[seat].province, s.heroes[seat].gold = port, 6
            s.event = ""  # no storm or free passage this round: the plain rule
            s.heroes[other_seat].province = plain

        await arrange(h.bot.service, game_id, at_sea_and_at_a_shrine)
        ports = await h.autocomplete(mover, thread.payload, "voyage", {"to": ""})
        assert ports.choices and all(LIB.province[c["value"]].coast for c in ports.choices)
        sailed = await h.slash(mover, thread.payload, "voyage", {"to": shrine})
        assert "🎲" in sailed.content and LIB.province[shrine].name in told(h, thread.id, sailed)
        state = (await h.bot.service.get(game_id)).state
        assert state.heroes[seat].province == shrine and state.heroes[seat].gold <= 4
        # (a story card follows the voyage: answer it if it asks, then the other player takes a turn)
        for _ in range(20):
            now = last(h, thread.id)
            game = await h.bot.service.get(game_id)
            who = players[next(iter(now.pings.users))] if now.pings.users else players[
                game.user_of(min(game.to_act))]
            if who is mover and "choose an action" in now.content:
                break
            buttons = act_buttons(now)
            if buttons:
                await h.click(who, now, next(iter(buttons.values())))
            else:
                mine = await h.click(who, now, private_ids(now)[0])
                await h.click(who, mine.original, next(iter(act_buttons(mine).values())))
        await arrange(h.bot.service, game_id, lambda s: setattr(s.heroes[seat], "gold", 5))
        before = (await h.bot.service.get(game_id)).state.heroes[seat].info
        learned = await h.slash(mover, thread.payload, "lore")
        assert "information" in told(h, thread.id, learned).lower()
        again_later = (await h.bot.service.get(game_id)).state.heroes[seat]
        assert again_later.info == before + 1 and shrine in again_later.shrines and again_later.gold == 3
        assert LIB.province[shrine].shrine in learned.content


@pytest.mark.slow
async def test_an_absent_opponent_player_is_played_by_tabula_after_the_timeout(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db, narrator_timeout_minutes=1)) as h:
        thread, game_id, _players, mover, seat = await ready_table(h, opponents="players")
        other = h.bob if mover is h.alice else h.alice
        await face_the_bodyguard(h, thread, game_id, mover, seat)
        service = h.bot.service
        for _ in range(40):  # play the hero's side until the Bodyguard's player is the one waited for
            message = live_prompt(h, thread)
            now = await service.get(game_id)
            if now.user_of(min(now.to_act)) == uid(other):
                break
            mine = private_ids(message)
            if mine:
                look = await h.click(mover, message, mine[0])
                await h.click(mover, look.original, next(iter(act_buttons(look).values())))
            else:
                await h.click(mover, message, next(iter(act_buttons(message).values())))
        else:
            raise AssertionError("the Bodyguard's player was never asked to act")
        real = service.clock
        service.clock = lambda: real() + 120  # two minutes later
        count = len(h.messages(thread.id))
        assert await h.bot.run_timeouts() == 1
        posted = h.messages(thread.id)[count:]
        away = next(e.name for e in (await service.get(game_id)).seats if e.user_id == uid(other))
        told = "\n".join([live_prompt(h, thread).content, *(m.content for m in posted)])
        assert f"⏳ {away} did not answer" in told  # in the fight's own message, or a new one after it
        assert posted and posted[-1].pings.users  # the game goes on: whoever acts next is pinged


async def test_options_of_the_other_game_are_refused_politely(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        wrong = await h.slash(h.alice, h.channel, "game", {"game": "champion", "mode": "expanded"}, subcommand="new")
        assert wrong.ephemeral and "has no option `mode`" in wrong.content and "`opponents`" in wrong.content
        other = await h.slash(h.alice, h.channel, "game", {"game": "legend", "heroic": True}, subcommand="new")
        assert other.ephemeral and "has no option `heroic`" in other.content
        assert h.messages() == []  # no lobby was opened


async def test_a_secret_choice_typed_as_a_slash_command_is_answered_privately(db: Database) -> None:
    """Discord shows a slash command's options above a public answer: a secret action typed that way is
    acknowledged only to its player, and the thread is told what everyone may know, in a message of its own."""
    async with FakeDiscordHarness(bot_factory(db)) as h:
        thread, _game_id = await open_champion(h)
        heroes = await h.autocomplete(h.bob, thread.payload, "hero", {"hero": ""})
        hero = heroes.choices[0]["value"]
        sides = await h.autocomplete(h.bob, thread.payload, "hero", {"hero": hero, "side": ""})
        weapons = await h.autocomplete(h.bob, thread.payload, "hero", {"hero": hero, "side": sides.choices[0]["value"],
                                                                       "weapon": ""})
        assert sides.choices and weapons.choices
        picked = await h.slash(h.bob, thread.payload, "hero", {"hero": hero, "side": sides.choices[0]["value"],
                                                               "weapon": weapons.choices[0]["value"]})
        assert picked.ephemeral and "secret" in picked.content
        assert LIB.hero[hero].name in last(h, thread.id).content  # told in the thread (its newest prompt grew)
