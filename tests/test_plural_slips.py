"""Counts and the words after them: whole games Tabula plays alone, told in English, Hungarian and Greek, and
every telling, prompt and status read for a number followed by the wrong form ("1 points", "3 pontok",
"1 πόντοι").  Plurals go through the catalogues' plural forms (``_n``) everywhere; this catches a text that
forgot to.  No pictures are drawn (their words are the picture check's)."""

from __future__ import annotations

import importlib
import re
from typing import Any

import pytest

from bot.present.base import SeatName
from bot.service.moment import GameMoment
from rules.core import Rng, SeatInfo
from rules.i18n import using

pytestmark = pytest.mark.slow  # whole games and picture sweeps: left out of the quick subset

GAMES = (("eiyu", 3), ("autokrator", 4), ("champion", 2), ("legend", 3))
NAMES = ("Ann", "Bob", "Cleo", "Dan")
#: English nouns counted in the games' texts: "1 <plural>" is a slip, and so is "<2 or more> <singular>" (life
#: is not among them: "lose 2 life" counts points of it, in every language).
EN = ("point", "game", "region", "card", "soldier", "round", "year", "level", "chip", "gold piece", "wound",
      "turn", "move", "player", "step", "act", "order", "unit", "Garrison", "opponent", "monster", "building",
      "treasure", "spell", "hero", "province", "piece", "epoch")
EN_PLURAL: dict[str, str] = {}
SLIPS = {
    "en": [re.compile(r"(?<![\d.,/+\-–:])\b1 (?:" + "|".join(EN_PLURAL.get(w, w + "s") for w in EN) + r")\b"),
           re.compile(r"(?<![\d.,/+\-–:#])\b(?:[2-9]|[1-9]\d+) (?:" + "|".join(EN) + r")\b"
                      r"(?![-'’]| (?:sheets|cards|chips|pieces|points|tokens)\b)")],  # "3 monster sheets" counts sheets
    "el": [re.compile(r"(?<![\d.,/+\-–:])\b1 (?:πόντοι|κάρτες|περιοχές|στρατιώτες|γύροι|παίκτες|μονάδες|"
                      r"χρόνια|εποχές|τέρατα|αντίπαλοι)\b"),
           re.compile(r"(?<![\d.,/+\-–:#])\b(?:[2-9]|[1-9]\d+) (?:πόντος|κάρτα|περιοχή|στρατιώτης|γύρος|παίκτης|"
                      r"μονάδα|χρόνος|εποχή|τέρας|αντίπαλος)\b")],
    # Hungarian counts with the singular: "3 pont", never "3 pontok"
    "hu": [re.compile(r"(?<![\d.,/+\-–:])\b\d+ (?:pontok|kártyák|régiók|katonák|körök|játékosok|egységek|"
                      r"évek|korszakok|szörnyek|ellenfelek|lapok|sebek|lépések)\b")],
}


def _no_pictures(monkeypatch: pytest.MonkeyPatch, key: str) -> None:
    module = importlib.import_module(f"bot.present.{key}")
    for value in list(vars(module).values()):
        if getattr(value, "__name__", "").startswith("render."):
            for name in dir(value):
                if name.startswith("render_"):
                    monkeypatch.setattr(value, name, lambda *a, **k: b"")


def _told(key: str, players: int, lang: str, seed: int = 3) -> list[str]:
    rules = importlib.import_module(f"rules.{key}").RULESET
    presenter = importlib.import_module(f"bot.present.{key}").PRESENTER
    seats = [SeatInfo(index=i, name=NAMES[i]) for i in range(players)]
    names = [SeatName(i, 100 + i, NAMES[i]) for i in range(players)]
    start = rules.setup(seats, rules.check_options({}, players), seed)
    state: Any = start.state
    rng = Rng(seed)
    texts: list[str] = []
    with using(lang):
        texts.append(presenter.telling(GameMoment(game_id=1, rules=rules, _state=state, seats=names,
                                                  events=tuple(start.events))).text)
        for _step in range(20_000):
            if rules.outcome(state) is not None:
                break
            seat = min(rules.to_act(state))
            action = rules.policy(state, seat, rng)
            step = rules.apply(state, seat, action)
            moment = GameMoment(game_id=1, rules=rules, _state=step.state, seats=names, events=tuple(step.events),
                                actor=seat, action=action, _before=state,
                                status="finished" if rules.outcome(step.state) else "active")
            told = presenter.telling(moment)
            texts.append(told.text)
            if told.prompt is not None:
                texts.append(told.prompt.text)
            state = step.state
        texts.append(presenter.status(GameMoment(game_id=1, rules=rules, _state=state, seats=names,
                                                 status="finished")).text)
    assert rules.outcome(state) is not None
    return texts


@pytest.mark.parametrize("lang", sorted(SLIPS))
@pytest.mark.parametrize(("key", "players"), GAMES, ids=[g for g, _ in GAMES])
def test_a_whole_game_has_no_count_followed_by_the_wrong_form(key: str, players: int, lang: str,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    _no_pictures(monkeypatch, key)
    found = sorted({m.group(0) + " ← " + line.strip()[:140] for text in _told(key, players, lang)
                    for line in text.splitlines() for slip in SLIPS[lang] for m in slip.finditer(line)})
    assert not found, "\n".join(found[:20])
