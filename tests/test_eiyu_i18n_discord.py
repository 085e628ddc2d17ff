"""The Heroes' Road in Japanese through discord.py's real interaction path: a game started with
``language:ja`` by players whose Discord speaks Japanese — the thread's story, the private panel with its menus
and buttons, the picture's description and a refusal are all in Japanese."""

from __future__ import annotations

import re
from typing import Any

from bot.store.db import Database
from tests.fakediscord import FakeDiscordHarness, walk_components
from tests.tabula_harness import bot_factory, check_png, uid
from tests.test_discord import last


def menus(reply: Any) -> list[dict[str, Any]]:
    return [c for c in walk_components(reply.components) if c.get("custom_id", "").startswith("tb:pick:")]


def buttons(reply: Any) -> dict[str, str]:
    return {c["label"]: c["custom_id"] for c in walk_components(reply.components)
            if c.get("custom_id", "").startswith("tb:do:")}


async def test_eiyu_i18n_a_year_in_japanese_through_discord(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        h.fake.user_locales.update({uid(h.alice): "ja", uid(h.bob): "ja"})
        await h.slash(h.alice, h.channel, "game", {"game": "eiyu", "seed": 3, "language": "ja"},
                      subcommand="new")
        lobby = h.messages()[-1]
        await h.click(h.bob, lobby, next(c for c in lobby.custom_ids if c.endswith(":join")))
        lobby = h.fake.message(lobby.id)
        await h.click(h.alice, lobby, next(c for c in lobby.custom_ids if c.endswith(":start")))
        [thread] = h.threads()
        people = {uid(h.alice): h.alice, uid(h.bob): h.bob}
        cities = {uid(h.alice): 1, uid(h.bob): 9}
        for _ in range(2):
            prompt = last(h, thread.id)
            [who] = prompt.pings.users
            city = cities[who]
            menu = menus(prompt)[0]
            assert any(o["label"].startswith("都市1 · 赤金（徴兵") for o in menu["options"])
            value = next(o["value"] for o in menu["options"] if o["value"].endswith(f"city={city}"))
            picked = await h.select(people[who], prompt, menu["custom_id"], [value])
            assert "から出発します。" in picked.content
        begins = next(m for m in h.messages(thread.id) if "**1年目**が始まります" in m.content)
        assert "6つの行動をひそかにプログラムしてください" in begins.content
        opening = last(h, thread.id)
        panel_id = next(c for c in opening.custom_ids if c.startswith("tb:view:"))
        panel = await h.click(h.alice, opening, panel_id)
        assert panel.ephemeral and "**1年目のあなたの行動列**" in panel.content
        assert "行動を確定する" in buttons(panel) and "更新" in [
            c.get("label") for c in walk_components(panel.components)]
        assert [m.get("placeholder") for m in menus(panel)] == ["おすすめの行動列…", "スロット1〜3を変更…",
                                                                  "スロット4〜6を変更…"]
        [picture] = panel.attachments
        check_png(picture)
        assert (picture.description or "").startswith("1年目にプログラムした行動：")
        bad = await h.slash(h.alice, thread.payload, "program", {"row": "act,red"})
        assert bad.ephemeral and "ちょうど6個の行動" in bad.content
        for user in (h.alice, h.bob):
            await h.slash(user, thread.payload, "program", {"row": "act,wait,wait,wait,wait,wait", "lock": "yes"})
        posted = h.messages(thread.id)
        told = "\n".join(m.content for m in posted)
        assert "⚙️ **1年目の行動を処理します**" in told and "🏁 1年目が終わりました。" in told
        assert re.search(r"`1` Aliceが都市1 赤金で\*\*(農民兵|弓兵|歩兵|僧侶)\*\*を徴兵", told), told
        maps = [a for m in posted for a in m.attachments if a.filename == "map.png"]
        assert maps and (maps[0].description or "").startswith("12の都市の地図")
