"""Languages through discord.py's real path against the loopback fake: a game's thread speaks the game's
language, each person's private answers speak their own Discord client's, and a new game takes the server's
language unless `/game new language:` names one."""

from __future__ import annotations

from typing import Any

from bot.store.db import Database
from tests.fakediscord import FakeDiscordHarness
from tests.tabula_harness import bot_factory, uid


async def lobby_of(h: FakeDiscordHarness, **options: Any) -> Any:
    reply = await h.slash(h.alice, h.channel, "game", {"game": "legend", "seed": 11, "mode": "starter", **options},
                          subcommand="new")
    assert not reply.ephemeral, reply.content
    return h.messages()[-1]


def button(message: Any, op: str) -> str:
    return next(c for c in message.custom_ids if c.endswith(f":{op}"))


async def test_a_hungarian_players_refusals_are_hungarian_while_the_thread_stays_in_the_games_language(
        db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        h.fake.user_locales[uid(h.bob)] = "hu"
        lobby = await lobby_of(h)
        assert "lobby" in lobby.embeds[0]["title"]
        joined = await h.click(h.bob, lobby, button(lobby, "join"))
        assert not joined.ephemeral
        lobby = h.fake.message(lobby.id)
        assert lobby.embeds[0]["fields"][0]["name"] == "Players (2/5)"  # the lobby is the game's: English
        refused = await h.click(h.bob, lobby, button(lobby, "start"))
        assert refused.ephemeral and refused.content == "Csak a házigazda indíthatja el a játékot."
        await h.click(h.alice, lobby, button(lobby, "start"))
        [thread] = h.threads()
        opening = h.messages(thread.id)[0]
        assert "begins!" in opening.content

        not_host = await h.slash(h.bob, thread, "game", {}, subcommand="abandon")
        assert not_host.ephemeral
        assert not_host.content == ("Játékot csak a házigazda vagy **Szerver kezelése** joggal rendelkező tag "
                                    "adhat fel.")
        helped = await h.slash(h.bob, thread, "help", {})
        assert helped.ephemeral and "__Minden játékban__" in helped.content and "`/súgó` ez a lista" in helped.content
        # the game's commands are named as Bob's Discord lists them, options too
        assert "`/felfedezés hova:D7`" in helped.content and "`/explore" not in helped.content
        english = await h.slash(h.alice, thread, "help", {})
        assert "__Every game__" in english.content and "`/explore to:D7`" in english.content
        rolled = await h.slash(h.bob, thread, "roll", {"expr": "kocka"})
        assert rolled.ephemeral and rolled.content.startswith("Ezt nem tudom kockadobásként értelmezni: **kocka**")
        rolled = await h.slash(h.bob, thread, "roll", {"expr": "2d6"})
        told = h.messages(thread.id)[-1]
        assert "rolls `2d6`" in told.content  # a move Bob made is told in the thread's language
        for message in h.messages(thread.id):
            assert "játék" not in message.content.lower() and "házigazda" not in message.content


async def test_a_game_started_in_japanese_posts_the_platforms_words_in_japanese(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        lobby = await lobby_of(h, language="ja", clock="1h")
        embed = lobby.embeds[0]
        assert "ロビー" in embed["title"]
        assert embed["fields"][0]["name"] == "プレイヤー（1/5）"
        assert embed["footer"]["text"].startswith("「参加」を押すと着席できます")
        assert "🗣️ 日本語" in embed["fields"][1]["value"] and "持ち時間1時間" in embed["fields"][1]["value"]
        labels = [lobby.component(button(lobby, op))["label"] for op in ("join", "leave", "bot", "start")]
        assert labels == ["参加", "退出", "Tabulaを追加", "開始"]
        refused = await h.click(h.alice, lobby, button(lobby, "start"))  # Alice's own client speaks English
        assert refused.ephemeral and "players" in refused.content
        await h.click(h.bob, lobby, button(lobby, "join"))
        lobby = h.fake.message(lobby.id)
        assert lobby.embeds[0]["fields"][0]["name"] == "プレイヤー（2/5）"
        await h.click(h.alice, lobby, button(lobby, "start"))
        [thread] = h.threads()
        messages = h.messages(thread.id)
        assert "開始！" in messages[0].content
        assert any("持ち時間の期限" in m.content for m in messages)  # the ping line of the first prompt
        status = await h.slash(h.alice, thread, "game", {}, subcommand="status")
        assert status.ephemeral and status.content.endswith("🗣️ This game is played in 日本語.")
        h.fake.user_locales[uid(h.alice)] = "ja"
        status = await h.slash(h.alice, thread, "game", {}, subcommand="status")
        assert status.content.endswith("🗣️ このゲームの言語：日本語。")


async def test_a_new_game_takes_the_servers_language_unless_one_is_named(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        h.fake.guild_locale = "el"
        greek = await lobby_of(h)
        assert greek.embeds[0]["footer"]["text"].startswith("Πάτησε «Συμμετοχή»")
        english = await lobby_of(h, language="en")
        assert english.embeds[0]["footer"]["text"].startswith("Press Join to take a seat")
        h.fake.guild_locale = "pt-BR"  # a language Tabula does not speak: English
        other = await lobby_of(h)
        assert other.embeds[0]["footer"]["text"].startswith("Press Join")
        games = await h.slash(h.alice, h.channel, "game", {}, subcommand="list")
        assert "σε αναμονή" not in games.content and "lobby" in games.content
