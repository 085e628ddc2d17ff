"""What ``bot/front/discordpy.py`` relies on in discord.py, checked against the installed release: when a
discord.py upgrade changes any of it, this file fails (and names the piece), rather than a player's command.
Also: no other product module reaches for those internals."""

from __future__ import annotations

import inspect
import re
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.front.discordpy import (
    connection_of,
    forget_command,
    interaction_from,
    interaction_parser,
    replace_interaction_parser,
    with_parameters,
)

ROOT = Path(__file__).resolve().parent.parent


def _client() -> discord.Client:
    return discord.Client(intents=discord.Intents(guilds=True))


def _payload(**extra: Any) -> dict[str, Any]:
    return {"id": "1100000000000000001", "application_id": "1100000000000000002", "type": 2,
            "token": "t", "version": 1, "attachment_size_limit": 26214400, "locale": "hu",
            "channel_id": "1100000000000000003",
            "user": {"id": "1100000000000000004", "username": "ann", "discriminator": "0", "avatar": None},
            "data": {"id": "1100000000000000005", "name": "roll", "type": 1}, **extra}


async def test_the_interaction_parser_can_be_screened_and_restored() -> None:
    client = _client()
    original = interaction_parser(client)
    assert callable(original)
    seen: list[Any] = []
    replace_interaction_parser(client, seen.append)
    connection_of(client).parsers["INTERACTION_CREATE"]({"x": 1})  # what the gateway calls with a payload
    assert seen == [{"x": 1}]
    replace_interaction_parser(client, original)
    assert interaction_parser(client) is original


async def test_an_interaction_is_built_from_a_raw_payload_and_its_command_forgotten() -> None:
    client = _client()
    interaction = interaction_from(connection_of(client), _payload())
    assert isinstance(interaction, discord.Interaction)
    assert interaction.id == 1100000000000000001 and interaction.type is discord.InteractionType.application_command
    assert interaction.locale is discord.Locale.hungarian
    assert not interaction.response.is_done()  # it can be answered
    assert "_cs_command" in discord.Interaction.__slots__  # the cache ``Interaction.command`` reads first
    forget_command(interaction)
    assert interaction.command is None  # what discord.py's error path reads


def test_a_signature_built_at_run_time_gives_the_slash_commands_options() -> None:
    async def callback(interaction: discord.Interaction, **given: Any) -> None:
        return None

    params = [
        inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction),
        inspect.Parameter("to", inspect.Parameter.KEYWORD_ONLY, annotation=app_commands.Range[str, 1, 40]),
        inspect.Parameter("how", inspect.Parameter.KEYWORD_ONLY, default=None,
                          annotation=str | None),
    ]
    with_parameters(callback, params, descriptions={"to": "Where to go", "how": "How"},
                    choices={"how": [app_commands.Choice(name="Fast", value="fast"),
                                     app_commands.Choice(name="Slow", value="slow")]})
    command: app_commands.Command[Any, ..., None] = app_commands.Command(name="go", description="Go",
                                                                        callback=callback)
    options = {p.name: p for p in command.parameters}
    assert list(options) == ["to", "how"]
    assert options["to"].required and options["to"].max_value == 40 and options["to"].description == "Where to go"
    assert not options["how"].required and options["how"].description == "How"
    assert [c.value for c in options["how"].choices] == ["fast", "slow"]


@pytest.mark.parametrize("internal", ["._connection", "_cs_command", "__signature__",
                                      "__discord_app_commands_param_", "extra_events"])
def test_no_other_product_module_reaches_for_discordpys_internals(internal: str) -> None:
    seam = ROOT / "bot" / "front" / "discordpy.py"
    offenders = []
    for package in ("bot", "cogs", "rules", "render"):
        for path in (ROOT / package).rglob("*.py"):
            if path == seam:
                continue
            for n, line in enumerate(path.read_text().splitlines(), 1):
                if re.search(re.escape(internal), line.split("#")[0]):
                    offenders.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not offenders, "\n".join(offenders)
