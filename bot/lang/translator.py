"""Discord's half of Tabula's languages: the translator that gives every slash command, option, choice and
description its Hungarian, Greek and Japanese names (Discord shows each person their own client's language),
and the locale an interaction is answered in.

Names are looked up with a context (command and group names ``command``, option names ``option``, choice
names ``choice``; descriptions none), in the platform's catalogue first and then in every game's, the first
translation found winning (a game's verbs and options are in its own catalogue, the platform's commands in
``tabula``).  An option a command means in its own way is looked up first with that command's own context,
``option:<command>`` (``/program order:``, a command in a row, where ``/defend order:`` is a sequence), so each
reads as what it means while both keep the English name ``order`` Discord sends back.  English, and a language
Tabula does not speak, get no localisation: Discord shows the English.

A ``locale_str`` may carry extras the translator reads:

* ``msgid``: the text to look up when the English shown differs from it (a description cut to Discord's 100
  characters, an option description prefixed with its game's title);
* ``fill``: ``{field: (msgid, context)}``, each translated and filled into the looked-up text's
  ``{field}`` (a choice such as "tabula — Tabula plays the seat…");
* ``native``: the text reads the same in every language (a language's own name in the language picker).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from rules.i18n import SOURCE, TABULA, Catalogue, catalogue_of, normalise, valid_name
from rules.registry import games, package_of
from rules.spec import own_option

log = logging.getLogger("tabula.i18n")

NAME_LIMIT, DESCRIPTION_LIMIT, CHOICE_LIMIT = 32, 100, 100

CONTEXTS: dict[Where, str] = {
    Where.command_name: "command",
    Where.group_name: "command",
    Where.parameter_name: "option",
    Where.choice_name: "choice",
}
NAMES = frozenset({Where.command_name, Where.group_name, Where.parameter_name})


def text(english: str, *, msgid: str | None = None, native: bool = False,
         fill: Mapping[str, tuple[str, str | None]] | None = None) -> app_commands.locale_str:
    """A command text Discord shows in English as ``english`` and the translator looks up as ``msgid``."""
    extras: dict[str, Any] = {}
    if msgid is not None and msgid != english:
        extras["msgid"] = msgid
    if fill:
        extras["fill"] = dict(fill)
    if native:
        extras["native"] = True
    return app_commands.locale_str(english, **extras)


def domains() -> list[Catalogue]:
    """The platform's catalogue, then every game's (in the registry's order)."""
    return [TABULA, *(catalogue_of(package_of(key)) for key in games())]


def lookup(lang: str, msgid: str, context: str | None) -> str | None:
    """The first translation of ``msgid`` (with ``context``) in any catalogue, or None."""
    for cat in domains():
        found = cat.lookup(lang, msgid, context)
        if found:
            return found
    return None


def localise(string: app_commands.locale_str, lang: str, location: Where, command: str | None = None) -> str | None:
    """``string`` in ``lang`` for ``location``, or None (English, an unknown language, no translation);
    ``command``: the command an option name belongs to (its own name for the option wins)."""
    if lang == SOURCE or normalise(lang) != lang:
        return None
    extras: Mapping[str, Any] = string.extras
    if extras.get("native"):
        return string.message
    msgid = str(extras.get("msgid", string.message))
    context = CONTEXTS.get(location)
    found = None
    if location is Where.parameter_name and command:
        found = lookup(lang, msgid, own_option(command))
    found = found or lookup(lang, msgid, context)
    if found is None and context == "choice":  # a game's title offered as a choice carries no context
        found = lookup(lang, msgid, None)
    if found is None:
        return None
    fill: Mapping[str, tuple[str, str | None]] = extras.get("fill", {})
    values: dict[str, str] = {}
    for field, (part, part_context) in fill.items():
        got = lookup(lang, part, part_context)
        if got is None:
            return None
        values[field] = got
    if values:
        try:
            found = found.format(**values)
        except (KeyError, IndexError, ValueError):
            return None
    if location in NAMES:
        if not valid_name(found):
            log.warning("%s: %r is no valid Discord name for %r; Discord shows the English", lang, found, msgid)
            return None
        return found
    limit = CHOICE_LIMIT if location is Where.choice_name else DESCRIPTION_LIMIT
    found = found[:1].upper() + found[1:] if fill and location is not Where.choice_name else found
    return found if len(found) <= limit else found[:limit - 1].rstrip() + "…"


class TabulaTranslator(app_commands.Translator):
    """What ``tree.set_translator`` is given: every command text through the catalogues."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContext[Any, Any]) -> str | None:
        lang = normalise(locale.value)
        if lang is None:
            return None
        owner = getattr(context.data, "command", None) if context.location is Where.parameter_name else None
        return localise(string, lang, context.location, getattr(owner, "qualified_name", None))


def locale_of(interaction: discord.Interaction) -> str:
    """The language an ephemeral answer to ``interaction`` is written in: the person's own client's, where
    Tabula speaks it, else English."""
    return normalise(str(interaction.locale.value) if interaction.locale else None) or SOURCE


def server_language(interaction: discord.Interaction) -> str:
    """A new game's language when none is chosen: the server's preferred locale, where Tabula speaks it."""
    guild_locale = interaction.guild_locale
    return normalise(str(guild_locale.value) if guild_locale else None) or SOURCE
