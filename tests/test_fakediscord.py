"""Smoke tests for the loopback Discord fake (tests/fakediscord.py), with a tiny bot defined here.

They prove the harness drives discord.py's real paths: slash commands with options and autocomplete,
files with alt text, DynamicItem buttons that survive a restart, ephemeral and deferred responses,
followups, threads, allowed mentions, selects, modals, the raw gateway, and a bot in a subprocess.
"""

from __future__ import annotations

import asyncio
import io
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import discord
import discord.gateway
import discord.http
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from bot.ops.testing_endpoints import (
    ENV_VAR,
    endpoints_for,
    patch_discord_endpoints,
    patch_from_env,
    restore_discord_endpoints,
)
from tests.fakediscord import FakeDiscord, FakeDiscordHarness, InteractionReply, compute_pings

REPO_ROOT = Path(__file__).resolve().parent.parent
FRUITS = ["apple", "apricot", "banana", "blueberry", "cherry"]


def png_bytes(size: tuple[int, int] = (8, 6)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, (200, 30, 30)).save(buffer, format="PNG")
    return buffer.getvalue()


class CounterButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"counter:(?P<game_id>\d+):v(?P<version>\d+)"
):
    """A persistent button: everything it needs is in its custom_id."""

    def __init__(self, game_id: int, version: int = 1) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Play game {game_id}",
                style=discord.ButtonStyle.primary,
                custom_id=f"counter:{game_id}:v{version}",
            )
        )
        self.game_id = game_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CounterButton:
        return cls(int(match["game_id"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(
            f"{interaction.user.name} pressed game {self.game_id} v{self.version}", ephemeral=True
        )


class ColourSelect(discord.ui.View):
    @discord.ui.select(
        custom_id="colour", options=[discord.SelectOption(label=c, value=c) for c in ("red", "green", "blue")]
    )
    async def pick(self, interaction: discord.Interaction[Any], select: discord.ui.Select[Any]) -> None:
        await interaction.response.edit_message(content=f"colour: {', '.join(select.values)}", view=None)


class NameModal(discord.ui.Modal, title="Name your game"):
    game_name: discord.ui.TextInput[Any] = discord.ui.TextInput(
        label="Name", custom_id="game_name", max_length=40
    )

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(f"created {self.game_name.value}", ephemeral=True)


class SmokeBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.sync_on_setup = True
        self._add_commands()

    async def setup_hook(self) -> None:
        self.add_dynamic_items(CounterButton)
        if self.sync_on_setup:
            await self.tree.sync()

    def _add_commands(self) -> None:
        tree = self.tree

        async def fruit_autocomplete(
            interaction: discord.Interaction[Any], current: str
        ) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=f, value=f) for f in FRUITS if f.startswith(current.lower())][
                :25
            ]

        @tree.command(description="Pick a fruit")
        @app_commands.describe(fruit="Which fruit", count="How many")
        @app_commands.autocomplete(fruit=fruit_autocomplete)
        async def eat(
            interaction: discord.Interaction[Any], fruit: str, count: app_commands.Range[int, 1, 10] = 1
        ) -> None:
            await interaction.response.send_message(f"{interaction.user.name} eats {count} {fruit}")

        @tree.command(description="Show a board with a persistent button")
        async def board(interaction: discord.Interaction[Any]) -> None:
            view = discord.ui.View(timeout=None)
            view.add_item(CounterButton(42, 3))
            file = discord.File(
                io.BytesIO(png_bytes()), filename="board.png", description="A red board, 8 by 6"
            )
            embed = discord.Embed(title="Board").set_image(url="attachment://board.png")
            await interaction.response.send_message(embed=embed, file=file, view=view)

        @tree.command(description="Only you can see this")
        async def hand(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_message("your hand: 3 cards", ephemeral=True)

        @tree.command(description="Slow work")
        async def slow(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.defer(thinking=True)
            await asyncio.sleep(0.01)
            await interaction.followup.send("done thinking")
            await interaction.followup.send("and one more thing")

        @tree.command(description="Redraw privately")
        async def redraw(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            file = discord.File(io.BytesIO(png_bytes((4, 4))), filename="small.png", description="tiny board")
            await interaction.edit_original_response(content="redrawn", attachments=[file])
            temporary = await interaction.followup.send("temporary", ephemeral=True, wait=True)
            await temporary.delete()

        @tree.command(description="Start a game thread")
        async def table(interaction: discord.Interaction[Any], opponent: discord.Member) -> None:
            await interaction.response.send_message(f"Game {interaction.user.name} vs {opponent.name}")
            message = await interaction.original_response()
            thread = await message.create_thread(name=f"{interaction.user.name}-vs-{opponent.name}")
            await thread.add_user(opponent)
            await thread.send(
                f"{opponent.mention}, @everyone: your move", allowed_mentions=discord.AllowedMentions.none()
            )

        @tree.command(description="Pick a colour")
        async def colour(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_message("choose", view=ColourSelect())

        @tree.command(description="Name a game")
        async def rename(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_modal(NameModal())

        @tree.command(description="Always fails")
        async def broken(interaction: discord.Interaction[Any]) -> None:
            raise RuntimeError("boom")

        game = app_commands.Group(name="game", description="Games")

        @game.command(name="start", description="Start a game")
        async def game_start(interaction: discord.Interaction[Any], players: int) -> None:
            await interaction.response.send_message(f"starting with {players} players")

        tree.add_command(game)


def make_bot() -> SmokeBot:
    return SmokeBot()


# --------------------------------------------------------------------------------------------------------


async def test_slash_command_with_option_and_autocomplete() -> None:
    async with FakeDiscordHarness(make_bot) as h:
        # the bot synced its commands in setup_hook; the fake kept them with ids
        synced = h.fake.find_command("eat")
        assert synced is not None and [o["name"] for o in synced["options"]] == ["fruit", "count"]

        choices = await h.autocomplete(h.alice, h.channel, "eat", {"fruit": "ap"})
        assert choices.callback_type == 8
        assert [c["value"] for c in choices.choices] == ["apple", "apricot"]

        reply = await h.slash(h.alice, h.channel, "eat", {"fruit": "cherry", "count": 3})
        assert reply.callback_type == 4
        assert reply.content == "alice eats 3 cherry"
        assert not reply.ephemeral
        assert [m.content for m in h.messages()] == ["alice eats 3 cherry"]
        assert reply.original is not None and reply.original.payload["interaction_metadata"]["name"] == "eat"

        sub = await h.slash(h.bob, h.channel, "game", {"players": 4}, subcommand="start")
        assert sub.content == "starting with 4 players"
        assert h.fake.unknown_requests == []


async def test_png_with_alt_text_and_dynamic_button_survive_restart() -> None:
    async with FakeDiscordHarness(make_bot) as h:
        reply = await h.slash(h.alice, h.channel, "board")
        assert reply.callback_type == 4
        [attachment] = reply.attachments
        assert attachment.filename == "board.png"
        assert attachment.description == "A red board, 8 by 6"
        assert attachment.data.startswith(b"\x89PNG")
        assert attachment.to_payload()["width"] == 8
        assert reply.embeds[0]["image"]["url"] == "attachment://board.png"
        # the multipart request itself carried the bytes and the description
        [upload] = reply.requests[0].files
        assert upload.filename == "board.png" and upload.description == "A red board, 8 by 6"
        assert upload.data == attachment.data

        message = h.messages()[-1]
        assert message.custom_ids == ["counter:42:v3"]

        first = await h.click(h.bob, message, "counter:42:v3")
        assert first.content == "bob pressed game 42 v3" and first.ephemeral

        # a redeploy: a new bot instance, same Discord state; the button still works
        old_bot = h.bot
        new_bot = await h.restart()
        assert new_bot is not old_bot and old_bot.is_closed()
        again = await h.click(h.carol, message, "counter:42:v3")
        assert again.content == "carol pressed game 42 v3"
        assert again.ephemeral


async def test_ephemeral_response() -> None:
    async with FakeDiscordHarness(make_bot) as h:
        reply = await h.slash(h.bob, h.channel, "hand")
        assert reply.ephemeral and reply.flags & 64
        assert reply.content == "your hand: 3 cards"
        assert h.messages() == []  # not visible in the channel
        assert [m.content for m in h.messages(include_ephemeral=True)] == ["your hand: 3 cards"]


async def test_deferred_response_and_followups() -> None:
    async with FakeDiscordHarness(make_bot) as h:
        reply = await h.slash(h.alice, h.channel, "slow")
        assert reply.callback_type == 5 and reply.deferred
        assert [m.content for m in reply.followups] == ["done thinking", "and one more thing"]
        # like Discord, the first followup replaced the "thinking..." message
        assert reply.original is not None and reply.original.id == reply.followups[0].id
        assert not reply.original.loading
        assert [m.content for m in h.messages()] == ["done thinking", "and one more thing"]
        assert [r.method for r in reply.requests] == ["POST", "POST", "POST"]


async def test_deferred_edit_original_with_file_and_deleted_followup() -> None:
    async with FakeDiscordHarness(make_bot) as h:
        reply = await h.slash(h.carol, h.channel, "redraw")
        assert reply.callback_type == 5 and reply.ephemeral
        assert reply.original is not None and reply.original.content == "redrawn"
        assert reply.original.ephemeral and not reply.original.loading
        [picture] = reply.original.attachments
        assert picture.description == "tiny board" and picture.to_payload()["height"] == 4
        [temporary] = reply.followups
        assert temporary.deleted and temporary.content == "temporary"
        methods = [(r.method, r.path.rsplit("/", 1)[-1]) for r in reply.requests]
        assert methods == [
            ("POST", "callback"),
            ("PATCH", "@original"),
            ("POST", reply.token),
            ("DELETE", str(temporary.id)),
        ]


async def test_user_messages_reach_the_bot_without_content_intent() -> None:
    seen: list[str] = []

    def factory() -> SmokeBot:
        bot = SmokeBot()

        @bot.listen()
        async def on_message(message: discord.Message) -> None:
            if not message.author.bot:
                seen.append(message.content)

        return bot

    async with FakeDiscordHarness(factory) as h:
        bot_id = h.fake.application_id  # the bot user's id
        await h.fake.user_message(h.alice, h.channel, "hello there")
        await h.fake.user_message(h.alice, h.channel, f"hello <@{bot_id}>")
        for _ in range(200):
            if len(seen) == 2:
                break
            await asyncio.sleep(0.005)
        # without the MESSAGE_CONTENT intent Discord blanks content unless the bot is mentioned
        assert seen == ["", f"hello <@{bot_id}>"]


async def test_thread_from_message_with_member_and_no_pings() -> None:
    async with FakeDiscordHarness(make_bot) as h:
        reply = await h.slash(h.alice, h.channel, "table", {"opponent": h.bob})
        assert reply.content == "Game alice vs bob"

        [thread] = h.threads()
        assert reply.original is not None
        assert thread.type == 11 and thread.parent_id == h.fake.channel_id
        assert thread.id == reply.original.id  # started from the response message
        assert thread.name == "alice-vs-bob"
        assert int(h.bob["id"]) in thread.member_ids

        [in_thread] = h.messages(thread.id)
        assert in_thread.content.startswith(f"<@{h.bob['id']}>")
        assert in_thread.allowed_mentions == {"parse": []}
        assert in_thread.pings.nobody

        sends = h.fake.requests_to("POST", rf"/channels/{thread.id}/messages")
        assert sends[0].json["allowed_mentions"] == {"parse": []}
        assert h.fake.requests_to("PUT", rf"/channels/{thread.id}/thread-members/{h.bob['id']}")
        # these went through the bot's REST client, not the interaction webhook
        assert {r.path for r in reply.other_requests} >= {f"/channels/{thread.id}/messages"}
        # the bot's cache learnt about the thread from THREAD_CREATE
        assert h.bot.get_channel(thread.id) is not None


async def test_select_and_modal() -> None:
    async with FakeDiscordHarness(make_bot) as h:
        await h.slash(h.alice, h.channel, "colour")
        message = h.messages()[-1]
        picked = await h.select(h.alice, message, "colour", ["green"])
        assert picked.callback_type == 7
        assert h.fake.message(message.id).content == "colour: green"
        assert h.fake.message(message.id).components == []

        opened = await h.slash(h.alice, h.channel, "rename")
        assert opened.modal is not None and opened.modal["title"] == "Name your game"
        submitted = await h.submit_modal(h.alice, h.channel, opened, {"game_name": "Friday Legend"})
        assert submitted.content == "created Friday Legend" and submitted.ephemeral


async def test_handler_exception_fails_the_interaction() -> None:
    async with FakeDiscordHarness(make_bot) as h:
        with pytest.raises(AssertionError, match="boom"):
            await h.slash(h.alice, h.channel, "broken")
        assert h.errors.clear()  # acknowledged; the exit check now passes


async def test_unknown_route_recorded_and_reported() -> None:
    async with FakeDiscordHarness(make_bot, allow_unknown_routes=True) as h:
        with pytest.raises(discord.NotFound):
            await h.bot.http.request(discord.http.Route("GET", "/voice/regions"))
        [unknown] = h.fake.unknown_requests
        assert unknown.path == "/voice/regions" and unknown.status == 404
        assert unknown.response == {"message": "Unknown", "code": 0}


async def test_unsynced_commands_and_late_callback() -> None:
    def factory() -> SmokeBot:
        bot = SmokeBot()
        bot.sync_on_setup = False
        return bot

    async with FakeDiscordHarness(factory) as h:
        assert h.fake.requests_to("PUT", r"/applications/\d+/commands") == []
        # option types come from the bot's own tree when it never synced
        reply = await h.slash(h.alice, h.channel, "eat", {"fruit": "kiwi", "count": 2})
        assert reply.content == "alice eats 2 kiwi"

        # Discord's 3-second rule, scaled down: a late callback gets 404 Unknown interaction
        h.fake.interaction_deadline = 0.0
        with pytest.raises(AssertionError, match="Unknown interaction"):
            await h.slash(h.alice, h.channel, "hand")
        h.errors.clear()


async def test_raw_gateway_start_and_dispatch() -> None:
    """No harness: bot.start() through the fake gateway, INTERACTION_CREATE pushed by fake.dispatch."""
    saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    async with FakeDiscord() as fake:
        endpoints = endpoints_for(fake.url)
        assert endpoints.api_base == fake.api_base and endpoints.gateway == fake.gateway_url
        try:
            assert patch_from_env({ENV_VAR: fake.url})
            bot = make_bot()
            bot._connection.guild_ready_timeout = 0.05
            runner = asyncio.create_task(bot.start(fake.token))
            await fake.wait_until_connected()
            await asyncio.wait_for(bot.wait_until_ready(), 5)
            guild = bot.get_guild(fake.guild_id)
            assert guild is not None and guild.get_channel(fake.channel_id) == guild.text_channels[0]
            identify = next(f for f in fake.gateway_log if f["op"] == 2)
            assert identify["d"]["intents"] == discord.Intents.default().value
            # discord.py asked for a compressed stream; the fake answered in zlib-stream frames
            assert fake.gateway_connects[0]["compress"] in ("zlib-stream", "zstd-stream")

            payload = fake.slash(fake.alice, fake.channel, "hand")
            await fake.dispatch("INTERACTION_CREATE", payload)
            for _ in range(400):
                if fake.interactions[payload["token"]].callback_type is not None:
                    break
                await asyncio.sleep(0.005)
            [callback] = fake.requests_to("POST", rf"/interactions/{payload['id']}/.+/callback")
            assert callback.json == {
                "type": 4,
                "data": {
                    "tts": False,
                    "content": "your hand: 3 cards",
                    "flags": 64,
                    "allowed_mentions": {"parse": []},
                },
            }
            assert callback.query == {"with_response": "1"}
            assert callback.response["interaction"]["response_message_ephemeral"] is True
            await bot.close()
            await asyncio.wait_for(runner, 5)
        finally:
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved


async def test_subprocess_bot(tmp_path: Path) -> None:
    """A bot in another process, redirected by TABULA_FAKE_DISCORD, driven with fake.interact()."""
    script = tmp_path / "tiny_bot.py"
    script.write_text(
        textwrap.dedent(
            """
            import os
            import discord
            from discord import app_commands
            from bot.ops.testing_endpoints import patch_from_env

            assert patch_from_env()
            client = discord.Client(intents=discord.Intents.default())
            tree = app_commands.CommandTree(client)

            @tree.command(description="ping")
            async def ping(interaction: discord.Interaction, word: str) -> None:
                await interaction.response.send_message(f"pong {word}")

            async def setup_hook() -> None:
                await tree.sync()

            client.setup_hook = setup_hook
            client.run(os.environ["BOT_TOKEN"], log_handler=None)
            """
        )
    )
    async with FakeDiscord() as fake:
        env = {**os.environ, ENV_VAR: fake.url, "BOT_TOKEN": fake.token, "PYTHONPATH": str(REPO_ROOT)}
        process = await asyncio.create_subprocess_exec(
            sys.executable, str(script), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        try:
            await fake.wait_until_connected(timeout=15)
            reply: InteractionReply = await fake.interact(
                fake.slash(fake.bob, fake.channel, "ping", {"word": "hi"})
            )
            assert reply.content == "pong hi"
            assert fake.find_command("ping") is not None
        finally:
            process.terminate()
            _, stderr = await process.communicate()
        assert b"Traceback" not in stderr, stderr.decode()


def test_compute_pings_follows_discord_rules() -> None:
    content = "<@1> <@&2> @everyone"
    assert compute_pings(content, None).users == {1}
    assert compute_pings(content, {"parse": []}).nobody
    # discord.py's AllowedMentions(users=[x]) still parses everyone and roles: DESIGN §4's trap
    trap = discord.AllowedMentions(users=[discord.Object(1)]).to_dict()
    assert compute_pings(content, trap).everyone
    safe = discord.AllowedMentions.none().merge(discord.AllowedMentions(users=[discord.Object(1)])).to_dict()
    pings = compute_pings(content, safe)
    assert pings.users == {1} and not pings.everyone and not pings.roles


def test_endpoint_patching_refuses_non_loopback() -> None:
    with pytest.raises(ValueError):
        endpoints_for("http://discord.com")
    assert patch_from_env({}) is False
    saved = endpoints_for("http://127.0.0.1:1")
    previous = patch_discord_endpoints(saved.api_base, saved.gateway)
    restore_discord_endpoints(previous)
    assert previous.api_base == discord.http.Route.BASE
