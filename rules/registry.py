"""Games are found by name: every package ``rules/<key>/`` whose ``__init__`` exposes ``RULESET``, plus any
package named in the ``TABULA_GAMES`` environment variable (comma-separated module paths, for plug-ins kept
outside this tree).  Nothing here names a game."""

from __future__ import annotations

import importlib
import os
import pkgutil
from functools import cache
from typing import Any

import rules
from rules.core import GameError
from rules.i18n import TABULA, _, _fill, catalogue_of, commands_named, language
from rules.spec import Ruleset

AnyRuleset = Ruleset[Any, Any, Any]

_extra: list[str] = []


def register(package: str) -> None:
    """Add a plug-in package (one exposing ``RULESET``) at run time, e.g. from a test."""
    if package not in _extra:
        _extra.append(package)
        _discover.cache_clear()


def unregister(package: str) -> None:
    if package in _extra:
        _extra.remove(package)
        _discover.cache_clear()


def _packages() -> list[str]:
    found = [f"rules.{m.name}" for m in pkgutil.iter_modules(rules.__path__) if m.ispkg]
    named = [p.strip() for p in os.environ.get("TABULA_GAMES", "").split(",") if p.strip()]
    return found + [p for p in named + _extra if p not in found]


@cache
def _discover() -> dict[str, tuple[AnyRuleset, str]]:
    games: dict[str, tuple[AnyRuleset, str]] = {}
    for name in _packages():
        module = importlib.import_module(name)
        rules = getattr(module, "RULESET", None)
        if rules is None:
            continue
        games[rules.spec.key] = (rules, name)
    return games


def games() -> dict[str, AnyRuleset]:
    """Every game Tabula has, by key, in a stable order."""
    return {k: v[0] for k, v in sorted(_discover().items())}


def package_of(key: str) -> str:
    return _discover()[key][1]


def ruleset(key: str) -> AnyRuleset:
    """The ruleset for a game key, or a GameError naming the games there are."""
    try:
        return _discover()[key][0]
    except KeyError:
        names = ", ".join(f"{game_text(k, r.spec.title)} (`{k}`)" for k, r in games().items())
        raise GameError(_("There is no game called {key}. Tabula has: {games}.", key=repr(key), games=names)) from None


def game_text(key: str, text: str, context: str | None = None, /, **values: object) -> str:
    """A text a game's spec declares (summary, intro, help lines, verb descriptions, rules sections, title) in
    the current language, from the game's own catalogue; a text the game's catalogue lacks is looked up in
    the platform's (the table's verbs), then shown in English."""
    if not text:
        return text
    lang = language()
    for cat in (catalogue_of(package_of(key)), TABULA):
        found = cat.lookup(lang, text, context)
        if found:
            return commands_named(_fill(found, values), lang)
    return commands_named(_fill(text, values), lang)
