"""Whole games of Legend of Heroes told in Hungarian, Greek and Japanese through the presenter: every telling,
prompt, button, menu, private view, refusal and alt text comes from the catalogue (no English sentence of the
game's own is left, every placeholder is filled), while the cards' English texts stay as the book has them."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.present.base import SeatName, Telling
from bot.present.legend import PRESENTER
from bot.service.moment import moment_for
from rules.core import GameError, IllegalAction, Rng, SeatInfo
from rules.i18n import placeholders, using
from rules.legend.i18n import CATALOGUE
from rules.legend.ruleset import LegendRuleset
from rules.legend.state import Move, Place, State
from rules.spec import Command

RULES = LegendRuleset()
TABLES = [
    (["Ann", "Bob", "Cy"], {"narration": "players"}),
    (["Ann", "Bob"], {"mode": "expanded"}),
    (["Ann"], {"mode": "expanded"}),
    (["Ann"], {"mode": "solo"}),
]
FIELD = re.compile(r"\{[a-z_]+\}")


def _english_fragments(lang: str) -> list[str]:
    """Long pieces of the game's own English sentences that the language translates: none may be shown."""
    out: list[str] = []
    for m in CATALOGUE.template():
        if not m.id or m.context in ("card", "hero", "spell", "place"):
            continue
        if any(loc.startswith("rules/legend/data/") for loc, _line in m.locations):
            continue
        msgid = m.id if isinstance(m.id, str) else m.id[0]
        said = CATALOGUE.lookup(lang, msgid, m.context)
        if said is None or said == msgid:
            continue
        for part in re.split(r"\{[a-z_]+\}", msgid):
            part = part.strip(" .,:;—·()*`")
            if len(part) >= 18 and "`" not in part and part not in said:
                out.append(part)
    return out


def _texts(telling: Telling | None) -> list[str]:
    if telling is None:
        return []
    out = [telling.text, *(p.alt for p in telling.pictures)]
    if telling.prompt is not None:
        out.append(telling.prompt.text)
        out += [b.label for b in telling.prompt.buttons]
        for menu in telling.prompt.menus:
            out.append(menu.placeholder)
            out += [label for label, _command in menu.choices]
    return out


def _play(names: list[str], options: dict[str, Any], seed: int, moves: int = 600) -> list[str]:
    seats = [SeatName(seat=i, user_id=100 + i, name=n) for i, n in enumerate(names)]
    step = RULES.setup([SeatInfo(index=i, name=n) for i, n in enumerate(names)], options, seed=seed)
    state, rng = step.state, Rng(seed)
    said = _texts(PRESENTER.telling(moment_for(RULES, state, seats, events=step.events)))
    for n in range(moves):
        acting = sorted(RULES.to_act(state))
        if not acting:
            break
        seat = acting[rng.below(len(acting))]
        action = RULES.policy(state, seat, rng)
        assert action is not None
        after = RULES.apply(state, seat, action)
        moment = moment_for(RULES, after.state, seats, events=after.events, actor=seat, action=action,
                            _before=state)
        said += _texts(PRESENTER.telling(moment))
        if n % 9 == 0:
            said += _texts(PRESENTER.status(moment))
            for s in range(len(names)):
                for name in ("sheet", "party", "card"):
                    try:
                        said += _texts(PRESENTER.private(name, moment, s))
                    except IllegalAction as refusal:
                        said.append(str(refusal))
        state = after.state
    assert state.phase == "over" or moves < 600
    said += _texts(PRESENTER.status(moment_for(RULES, state, seats, status="finished")))
    return said


@pytest.mark.slow
@pytest.mark.parametrize(("lang", "table"), [("hu", 0), ("el", 1), ("ja", 2), ("ja", 0)],
                         ids=["hu-players", "el-expanded", "ja-solo-expanded", "ja-players"])
def test_a_whole_game_is_told_in_the_language(lang: str, table: int) -> None:
    names, options = TABLES[table]
    with using(lang):
        said = _play(names, options, seed=5)
    text = "\n".join(said)
    assert not FIELD.findall(text), FIELD.findall(text)[:5]
    left = [part for part in _english_fragments(lang) if part in text]
    assert not left, left[:5]


@pytest.mark.slow
def test_english_is_told_as_it_always_was() -> None:
    """The msgids are the English texts: telling in English or with no language set is the same."""
    plain = _play(["Ann", "Bob"], {"mode": "expanded"}, seed=8, moves=40)
    with using("en"):
        english = _play(["Ann", "Bob"], {"mode": "expanded"}, seed=8, moves=40)
    assert plain == english
    assert any("steps in by the" in line for line in plain)


def _start(names: list[str], **options: Any) -> State:
    return RULES.setup([SeatInfo(index=i, name=n) for i, n in enumerate(names)], options, seed=3).state  # type: ignore[no-any-return]


@pytest.mark.parametrize(("lang", "word"), [("hu", "Hősök legendájában"), ("el", "Θρύλος"), ("ja", "英雄伝説")])
def test_refusals_speak_the_language(lang: str, word: str) -> None:
    state = _start(["Ann", "Bob"])
    seat = RULES.table.current(state)
    other = 1 - seat
    with using(lang):
        refusals = []
        for call in (lambda: RULES.codec.parse(state, seat, Command("fly")),
                     lambda: RULES.codec.parse(state, seat, Command("attack")),
                     lambda: RULES.apply(state, seat, Place(to="D99")),
                     lambda: RULES.apply(state, other, Place(to="D1")),
                     lambda: RULES.check_options({"mode": "solo"}, 3),
                     lambda: RULES.apply(state, seat, Move(to="D1"))):
            with pytest.raises(GameError) as caught:
                call()
            refusals.append(str(caught.value))
    assert word in refusals[0]
    english = []
    for call in (lambda: RULES.codec.parse(state, seat, Command("fly")),):
        with pytest.raises(GameError) as caught:
            call()
        english.append(str(caught.value))
    assert english[0].startswith("Legend of Heroes has no `/fly`")
    for refusal in refusals:
        assert refusal and not FIELD.findall(refusal)
        assert not any(part in refusal for part in _english_fragments(lang)), refusal


@pytest.mark.slow
def test_a_solo_game_ends_in_the_language_with_its_outcome() -> None:
    with using("hu"):
        said = _play(["Ann"], {"mode": "solo"}, seed=2)
    assert any("🏆 Ann" in line and "aranypénzzel hagyja el a kazamatát" in line for line in said)


def test_every_placeholder_of_a_translation_is_the_english_ones() -> None:
    for lang in ("hu", "el", "ja"):
        po = CATALOGUE.catalog(lang)
        assert po is not None
        for m in po:
            if not m.id or not m.string:
                continue
            ids = m.id if isinstance(m.id, tuple) else (m.id,)
            strings = m.string if isinstance(m.string, tuple) else (m.string,)
            want = set().union(*(placeholders(i) for i in ids)) - {"n"}
            for s in strings:
                assert placeholders(s) - {"n"} == want, (lang, ids[0])
