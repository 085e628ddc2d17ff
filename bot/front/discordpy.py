"""Where Tabula reaches past discord.py's public API: all of it is here, each piece with the reason no public
API serves, and each checked against the installed discord.py by ``tests/test_discordpy_seam.py``, which fails
when a discord.py release changes what this module relies on.

* ``interaction_parser`` / ``replace_interaction_parser``: a screen in front of discord.py's handling of
  INTERACTION_CREATE (a stop refuses politely, a shape no command or control can take is answered privately,
  one discord.py cannot read is one log line).  discord.py has no hook that runs before it parses an
  interaction: ``on_interaction`` comes after, and a payload it cannot parse never reaches it.
* ``connection_of`` and ``interaction_from``: an ``Interaction`` built from a raw payload, to answer one that
  discord.py itself never parsed (the screen above).  Its constructor needs the client's connection state.
* ``forget_command``: an interaction discord.py cannot resolve to a command still has the command its error
  path would read; it is cleared so that the error handler answers instead of raising again.
* ``with_parameters``: a slash command whose options are built at run time from the games' specs.  discord.py
  reads a command's options only from its callback's signature, which Python lets a function declare
  through ``__signature__`` (PEP 362); there is no other way to declare them.  Descriptions and choices go
  through the public ``app_commands.describe`` and ``app_commands.choices``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import discord
from discord import app_commands

Parser = Callable[[Any], None]


def connection_of(client: discord.Client) -> Any:
    """The client's connection state (what an ``Interaction`` is built with, and what holds the parsers)."""
    return client._connection


def interaction_parser(client: discord.Client) -> Parser:
    """discord.py's own handler of a raw INTERACTION_CREATE payload."""
    parser: Parser = connection_of(client).parsers["INTERACTION_CREATE"]
    return parser


def replace_interaction_parser(client: discord.Client, parse: Parser) -> None:
    """Put ``parse`` in place of discord.py's INTERACTION_CREATE handler (it may call the original)."""
    connection_of(client).parsers["INTERACTION_CREATE"] = parse


def interaction_from(state: Any, data: Mapping[str, Any]) -> discord.Interaction[Any]:
    """An interaction built from a raw payload, able to answer it (``response.send_message``)."""
    return discord.Interaction(data=data, state=state)  # type: ignore[arg-type]  # (a raw, unchecked payload)


def forget_command(interaction: discord.Interaction[Any]) -> None:
    """Clear the command discord.py resolved an interaction to (it caches it in ``_cs_command``)."""
    interaction._cs_command = None  # type: ignore[attr-defined]  # (the cache discord.py's error path reads)


def with_parameters(callback: Callable[..., Any], parameters: Sequence[inspect.Parameter], *,
                    descriptions: Mapping[str, str | app_commands.locale_str] | None = None,
                    choices: Mapping[str, list[app_commands.Choice[str]]] | None = None) -> None:
    """Give ``callback`` the parameters a slash command's options are read from, with their descriptions and
    choices (before the ``app_commands.Command`` is made from it)."""
    callback.__signature__ = inspect.Signature(list(parameters))  # type: ignore[attr-defined]  # (PEP 362)
    if descriptions:
        app_commands.describe(**descriptions)(callback)
    if choices:
        app_commands.choices(**choices)(callback)


__all__ = ["connection_of", "forget_command", "interaction_from", "interaction_parser",
           "replace_interaction_parser", "with_parameters"]
