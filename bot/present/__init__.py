"""Presenters, found by game key: ``bot/present/<key>.py`` exposes ``PRESENTER`` (see ``base.Presenter``).

A game that lives outside this tree (a plug-in package named in ``TABULA_GAMES``) keeps its presenter in its
own package, as ``<package>.present``."""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from bot.present.base import Presenter
from rules.registry import package_of


@cache
def presenter(key: str) -> Presenter[Any]:
    for name in (f"bot.present.{key}", f"{package_of(key)}.present"):
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as err:
            if err.name != name:
                raise
            continue
        found: Presenter[Any] = module.PRESENTER
        return found
    raise LookupError(f"no presenter for the game {key!r}: add bot/present/{key}.py with PRESENTER")
