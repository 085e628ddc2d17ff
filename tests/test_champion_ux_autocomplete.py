"""Champion's `/hero` autocomplete comes from the same legal list as the **Your choices** menu (the codec),
for every hero: its own sides with its own numbers, its own people's two weapons, and — before the hero is
filled in — entries that each name the hero they belong to."""

from __future__ import annotations

import pytest

from bot.service.play import values_of
from rules.champion import RULESET
from rules.champion.state import Pick, State
from rules.core import SeatInfo
from rules.spec import Command

LIB = RULESET.engine.lib


def _setup() -> State:
    state: State = RULESET.setup([SeatInfo(0, "Ann"), SeatInfo(1, "Bob")], {}, 3).state
    return state


@pytest.mark.parametrize("hero", [h.id for h in LIB.heroes])
def test_sides_and_weapons_offered_are_the_heros_own(hero: str) -> None:
    state = _setup()
    h = LIB.hero[hero]
    sides = values_of(RULESET, state, 0, "hero", "side", {"hero": hero})
    assert len(sides) == len(h.side)
    for (label, value), side in zip(sides, h.side, strict=True):
        assert label.startswith(f"{h.name}, side") and side.name in label
        assert f"combat {side.combat}, initiative {side.initiative}, life {side.life}" in label
        for weapon in h.weapons:
            action = RULESET.codec.parse(state, 0, Command.of("hero", hero=hero, side=value, weapon=weapon))
            assert action in RULESET.legal(state, 0)
    weapons = values_of(RULESET, state, 0, "hero", "weapon", {"hero": hero})
    assert [v for _, v in weapons] == list(h.weapons)
    # the menu under **Your choices** lists the same picks, labelled the same way
    menu = {RULESET.codec.encode(state, 0, a) for a in RULESET.legal(state, 0)
            if isinstance(a, Pick) and a.hero == hero}
    typed = {Command.of("hero", hero=hero, side=s, weapon=w) for _, s in sides for _, w in weapons}
    assert menu == typed


def test_before_the_hero_is_filled_in_every_entry_names_its_hero() -> None:
    state = _setup()
    sides = values_of(RULESET, state, 0, "hero", "side", {})
    assert [v for _, v in sides] == ["1", "2"]
    for label, value in sides:  # never one hero's numbers under no name (or another's)
        owner = next(h for h in LIB.heroes if label.startswith(h.name + ","))
        side = owner.side[int(value) - 1]
        assert f"side {value}: {side.name} (combat {side.combat}, initiative {side.initiative}" in label
    weapons = values_of(RULESET, state, 0, "hero", "weapon", {})
    for label, value in weapons:
        owner = next(h for h in LIB.heroes if value in h.weapons)
        assert f"({owner.name}'s" in label


def test_a_side_may_be_typed_by_number_or_name() -> None:
    state = _setup()
    assert RULESET.codec.parse(state, 0, Command.decode("hero?hero=tarsa&side=2&weapon=sica")) == \
        Pick(hero="tarsa", side=2, weapon="sica")
    assert RULESET.codec.parse(state, 0, Command.of("hero", hero="Tarsa", side="Mountain scout", weapon="Sica")) \
        == Pick(hero="tarsa", side=2, weapon="sica")
