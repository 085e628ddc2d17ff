"""The Expanded Game of Legend of Heroes through discord.py's real interaction path: the leader prompt, the
fight buttons, casting, studying, `/party`, `/roll`, scene notes, and spells laid face up."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.store.db import Database
from render.legend import party as party_layer
from rules.legend.content import hero_index, spell_index
from tests.fakediscord import FakeDiscordHarness, walk_components
from tests.tabula_harness import asked, bot_factory, check_png, told, uid
from tests.test_discord import last, start_game

SPELL_NAMES = [s.name for s in spell_index().values()]


def button(message: Any, verb: str) -> str | None:
    return next((c for c in message.custom_ids if c.startswith("tb:do:") and c.endswith(f":{verb}")), None)


def select(message: Any, verb: str) -> str | None:
    """The menu whose entries are the command ``verb`` (each entry's value is a whole command)."""
    return next((c for c in message.custom_ids if c.startswith("tb:pick:")
                 and all(o["value"].split("?")[0] == verb for o in message.component(c)["options"])), None)


async def drive(h: FakeDiscordHarness, thread: Any, players: dict[int, Any], want: Any, *,
                limit: int = 300, cast: bool = True) -> Any:
    """Play the newest prompt the way a player would until ``want(message)`` is true; returns that message.

    At a leader prompt before a Monster the Magic User is put in front (so spells get cast); in a fight the
    player attacks (or casts); a rest is taken when offered; otherwise the party heads for unexplored rooms."""
    rng = random.Random(3)
    for _ in range(limit):
        message = last(h, thread.id)
        if want(message):
            return message
        if not asked(message):
            raise AssertionError(f"nobody to act: {message.content[-300:]}")
        who = players[next(iter(asked(message)))]
        lead = select(message, "lead")
        if button(message, "keep"):
            mages = [o["value"] for o in message.component(lead)["options"]
                     if "Magic User" in o["label"]] if lead and cast and "Monster" in message.content else []
            if mages:
                await h.select(who, message, lead, [mages[0]])
            else:
                await h.click(who, message, button(message, "keep") or "")
        elif button(message, "cast") and cast:
            await h.click(who, message, button(message, "cast") or "")
        elif button(message, "attack"):
            await h.click(who, message, button(message, "attack") or "")
        elif button(message, "study"):
            await h.click(who, message, button(message, "study") or "")
        else:
            where = select(message, "explore")
            assert where is not None, message.content[-300:]
            options = message.component(where)["options"]
            unexplored = [o["value"] for o in options if "explore" in o["label"]]
            await h.select(who, message, where, [rng.choice(unexplored or [o["value"] for o in options])])
    raise AssertionError("the wanted moment never came")


async def expanded_game(h: FakeDiscordHarness) -> tuple[Any, int, dict[int, Any]]:
    thread, game_id = await start_game(h, h.bob, mode="expanded")
    return thread, game_id, {uid(h.alice): h.alice, uid(h.bob): h.bob}


async def test_parties_are_dealt_with_their_spells_face_up(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        thread, _game_id, _players = await expanded_game(h)
        opening = last(h, thread.id)
        assert "party, left to right" in opening.content and "leads" in opening.content
        mine = await h.slash(h.bob, thread.payload, "party")
        assert mine.ephemeral and "Spell: **" in mine.content
        spell = mine.content.split("Spell: **")[1].split("**")[0]
        assert spell in SPELL_NAMES
        picture = check_png(mine.attachments[0])
        assert picture.size == (party_layer.WIDTH, party_layer.HEIGHT)  # two rows of three, to read at chat width
        assert spell in (mine.attachments[0].description or "")
        theirs = await h.slash(h.alice, thread.payload, "party")
        assert theirs.ephemeral and "Spell: **" in theirs.content
        # the book lays each Spell card face up by its Magic User: the thread names both when they are dealt
        told = "\n".join(m.content for m in h.messages(thread.id))
        assert "face up" in told and f"**{spell}**" in told
        assert theirs.content.split("Spell: **")[1].split("**")[0] in told
        outsider = await h.slash(h.carol, thread.payload, "party")
        assert outsider.ephemeral and "not playing" in outsider.content


async def test_party_menus_reorder_without_staling_the_turn_prompt(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        thread, _game_id, players = await expanded_game(h)
        prompt = last(h, thread.id)
        mover = players[next(iter(asked(prompt)))]
        waiting = h.bob if mover is h.alice else h.alice
        sheet = await h.slash(waiting, thread.payload, "party")
        menus = {c["options"][0]["value"].split("?")[0]: c for c in walk_components(sheet.components)
                 if c.get("custom_id", "").startswith("tb:pick:")}
        assert sheet.ephemeral and set(menus) == {"front", "back"}
        front = menus["front"]["custom_id"]
        rogue = next(o for o in menus["front"]["options"] if "Rogue" in o["label"])
        hero = rogue["value"].split("hero=")[1]
        assert sheet.original is not None
        moved = await h.select(waiting, sheet.original, front, [rogue["value"]])
        assert f"{hero_index()[hero].name} leads" in told(h, thread.id, moved)
        assert not moved.original or not moved.original.pings.users  # nobody is pinged for a reorder
        # the mover's select, drawn before the reorder, still works
        where = select(prompt, "explore")
        assert where is not None and h.fake.message(prompt.id).custom_ids
        option = prompt.component(where)["options"][0]["value"]
        went = await h.select(mover, prompt, where, [option])
        assert option.split("=")[-1] in told(h, thread.id, went)


@pytest.mark.slow
async def test_leader_prompt_fight_buttons_cast_and_study(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        thread, game_id, players = await expanded_game(h)
        leader = await drive(h, thread, players, lambda m: bool(button(m, "keep")))
        assert "card is coming" in leader.content and "Change Leader" not in leader.content
        explorer = players[next(iter(asked(leader)))]
        bystander = h.bob if explorer is h.alice else h.alice
        keep = button(leader, "keep")
        assert keep is not None and select(leader, "lead") is not None
        refused = await h.click(bystander, leader, keep)
        assert refused.ephemeral
        fight = await drive(h, thread, players, lambda m: bool(button(m, "retreat")), cast=False)
        assert button(fight, "attack") and "again" in str(fight.components)
        assert "is still there" in fight.content and "🎲" in fight.content
        cast = await drive(h, thread, players, lambda m: any(a.filename.startswith("spell-") for a in m.attachments))
        assert "✨" in cast.content
        check_png(next(a for a in cast.attachments if a.filename.startswith("spell-")))
        studied = await drive(h, thread, players, lambda m: "new spell" in m.content)
        assert "face up" in studied.content and any(f"**{n}**" in studied.content for n in SPELL_NAMES)
        history = await h.bot.service.history(game_id)
        assert any('"type":"rest"' in r.action for r in history)
        assert any('"type":"cast"' in r.action for r in history)


async def test_roll_is_public_logged_and_leaves_the_prompt_alone(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        thread, game_id, players = await expanded_game(h)
        prompt = last(h, thread.id)
        rolled = await h.slash(h.bob, thread.payload, "roll", {"expr": "2d20+3"})
        assert "rolls `2d20+3`" in told(h, thread.id, rolled)
        assert rolled.original is not None and not rolled.original.pings.users
        assert h.fake.message(prompt.id).custom_ids  # the turn's menu stays
        bad = await h.slash(h.bob, thread.payload, "roll", {"expr": "lots of dice"})
        assert bad.ephemeral and "d20" in bad.content
        outsider = await h.slash(h.carol, thread.payload, "roll", {"expr": "d6"})
        assert outsider.ephemeral and "not playing" in outsider.content
        history = await h.bot.service.history(game_id)
        assert '"type":"tabula.roll"' in history[-1].action and history[-1].user_id == uid(h.bob)
        mover = players[next(iter(asked(prompt)))]
        where = select(prompt, "explore")
        assert where is not None
        went = await h.select(mover, prompt, where, [prompt.component(where)["options"][0]["value"]])
        assert not went.ephemeral


async def test_expanded_only_commands_are_refused_politely_in_the_starter_game(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        thread, _ = await start_game(h, h.bob, mode="starter")
        for verb in ("attack", "cast", "study", "heal"):
            answer = await h.slash(h.alice, thread.payload, verb)
            assert answer.ephemeral and "Expanded Game" in answer.content, (verb, answer.content)
        party = await h.slash(h.alice, thread.payload, "party")
        assert party.ephemeral and "Expanded Game" in party.content
