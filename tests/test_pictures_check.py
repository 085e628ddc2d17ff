"""The picture check: each game played to the end from a fixed seed by Tabula's own policy, its public picture
drawn mid-game and at the end in every language, and read back from the layout record it leaves
(``tests/picture_check.py``): no text over text or over a legend, no label outside its box, no token or badge
too small at phone width (500 px), and the winner shown on the final picture.

The pictures are kept for review under the test's tmp directory (or ``TABULA_TEST_ARTIFACTS``); the path is
printed.  One seeded game per game, four languages: about half a minute in all."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.present.base import SeatName
from bot.service.moment import GameMoment
from render.common import Drawn, drawing
from rules.core import Rng, SeatInfo
from rules.i18n import using
from tests.picture_check import artifacts, cold_caches, keep, problems

pytestmark = pytest.mark.slow  # whole games and picture sweeps: left out of the quick subset

LANGS = ("en", "hu", "el", "ja")


@dataclass(frozen=True)
class Game:
    key: str
    players: int
    seed: int
    options: dict[str, object]


GAMES = (Game("eiyu", 3, 3, {}), Game("autokrator", 4, 3, {}), Game("champion", 3, 3, {}),
         Game("legend", 3, 3, {}))
NAMES = ("Ann", "Bob", "Cleo", "Dan")


def _played(game: Game) -> tuple[Any, Any, Any]:
    """The ruleset, a state half-way through and the final state of a seeded game Tabula plays alone."""
    rules = importlib.import_module(f"rules.{game.key}").RULESET
    seats = [SeatInfo(index=i, name=NAMES[i]) for i in range(game.players)]
    state = rules.setup(seats, rules.check_options(game.options, game.players), game.seed).state
    rng = Rng(game.seed)
    states = [state]
    for _step in range(20_000):
        if rules.outcome(state) is not None:
            break
        seat = min(rules.to_act(state))
        action = rules.policy(state, seat, rng)
        state = rules.apply(state, seat, action if action is not None else rules.legal(state, seat)[0]).state
        states.append(state)
    assert rules.outcome(state) is not None, "the seeded game did not end"
    return rules, states[len(states) // 2], state


def _picture(game: Game, rules: Any, state: Any, *, final: bool) -> bytes:
    presenter = importlib.import_module(f"bot.present.{game.key}").PRESENTER
    seats = [SeatName(i, 1000 + i, NAMES[i]) for i in range(game.players)]
    moment = GameMoment(game_id=42, rules=rules, _state=state, seats=seats, status="finished" if final else "active")
    telling = presenter.status(moment)
    return telling.pictures[0].png


@pytest.mark.parametrize("game", GAMES, ids=[g.key for g in GAMES])
def test_the_public_picture_mid_game_and_at_the_end_in_every_language(game: Game, tmp_path: Path) -> None:
    rules, middle, final = _played(game)
    folder = artifacts(tmp_path) / game.key
    folder.mkdir(exist_ok=True)
    print(f"\n{game.key}: pictures in {folder}")
    found: list[str] = []
    for lang in LANGS:
        with using(lang), cold_caches():
            # a kept layer is drawn (and noted) once: what the first picture drew and a second one of the same
            # moment did not is the static layers', which every picture in this language shows
            with drawing() as first:
                _picture(game, rules, middle, final=False)
            with drawing() as again:
                mid_png = _picture(game, rules, middle, final=False)
            static = _static(first, again)
            with drawing() as end:
                end_png = _picture(game, rules, final, final=True)
        for name, png, drawn, is_final in (("mid", mid_png, again, False), ("final", end_png, end, True)):
            img = keep(folder, f"{lang}-{name}", png)
            found += [f"{lang} {name}: {p}" for p in problems([*drawn, *static], img.size, final=is_final)]
    assert not found, "\n".join(found[:30])


def _static(first: list[Drawn], again: list[Drawn]) -> list[Drawn]:
    left = list(first)
    for d in again:
        if d in left:
            left.remove(d)
    return left
