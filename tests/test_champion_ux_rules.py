"""Champion of the Empire rules brought back to the book: the first initiative roll goes to the higher total,
two one-handed weapons may be paired, a caravan may stay where it is, and resting at full life is not offered."""

from __future__ import annotations

import pytest

from rules.champion.engine.combat import card_type
from rules.champion.state import (
    Caravan,
    CardsDrawn,
    Choose,
    InitiativeRolled,
    Moved,
    Play,
    Recuperate,
    State,
    Weapon,
    WeaponChosen,
)
from rules.core import IllegalAction
from rules.spec import Command
from tests.champion_helpers import (
    ScriptedDice,
    calm,
    champion_rules,
    next_to,
    scripted,
    stack_combat,
    started,
    story_on_top,
)


def _bodyguard_fight(rolls: list[int], items: list[str] | None = None) -> tuple[object, State, list[object]]:
    game = scripted()
    state = started(game, [("labienus", 1, "gladius"), ("jahmesz", 1, "khopesh")], opponents="bot")
    calm(state)
    if items is not None:
        state.heroes[0].items = items
    story_on_top(state, "bodyguard")
    stack_combat(state, ["torso", "head", "leg", "hand", "inspired", "torso", "head",
                         "torso", "head", "leg", "hand", "inspired", "torso"])
    ScriptedDice.script = list(rolls)
    state = game.apply(state, 0, Caravan(to=next_to(game, "latium", "medium"))).state
    step = game.apply(state, 0, Choose(option="1"))
    return game, step.state, list(step.events)


def test_the_first_roll_of_a_fight_goes_to_the_higher_total_even_against_a_six() -> None:
    # Labienus (initiative 3) rolls 1 = 4, the bodyguard (initiative 4) a 6 = 10: the higher total attacks.
    _, _, events = _bodyguard_fight([1, 6])
    roll = next(e for e in events if isinstance(e, InitiativeRolled))
    assert (roll.hero_roll, roll.foe_roll) == (1, 6)
    assert (roll.hero_total, roll.foe_total, roll.attacker, roll.reason) == (4, 10, "foes", "higher")
    _, _, events = _bodyguard_fight([6, 1])
    roll = next(e for e in events if isinstance(e, InitiativeRolled))
    assert (roll.hero_total, roll.foe_total, roll.attacker, roll.reason) == (9, 5, "hero", "higher")
    # a 1 against a 2 where the totals favour the one: the first roll is decided by the totals alone
    _, _, events = _bodyguard_fight([2, 1])  # 3+2 = 5 against 4+1 = 5: a tie, the hero's
    roll = next(e for e in events if isinstance(e, InitiativeRolled))
    assert (roll.attacker, roll.reason) == ("hero", "tie")


def test_later_rolls_keep_the_six_and_one_rules() -> None:
    game, state, _ = _bodyguard_fight([6, 1, 1, 3])  # first: the hero attacks; later: a single 1 loses
    assert state.combat is not None and state.combat.step == "hero_attack"
    kind = card_type(state.combat.hand[0])
    step = game.apply(state, 0, Play(card=kind, target=0))  # type: ignore[attr-defined]
    rolls = [e for e in step.events if isinstance(e, InitiativeRolled)]  # Tabula answers for the bodyguard
    first = rolls[0]
    assert (first.hero_roll, first.foe_roll, first.attacker, first.reason) == (1, 3, "foes", "one")


def test_two_one_handed_weapons_may_be_paired_but_never_a_two_handed_one() -> None:
    game, state, _ = _bodyguard_fight([], items=["gladius", "sica", "falx", "small-shield"])
    legal = game.legal(state, 0)  # type: ignore[attr-defined]
    assert Weapon(item="gladius+sica") in legal
    assert not any("falx+" in a.item or "+falx" in a.item for a in legal if isinstance(a, Weapon))
    rules = champion_rules(game)  # type: ignore[arg-type]
    command = rules.codec.encode(state, 0, Weapon(item="gladius+sica"))
    assert rules.codec.parse(state, 0, Command.decode(command.encode())) == Weapon(item="gladius+sica")
    assert rules.codec.label(state, 0, command) == "Fight with Gladius and Sica"
    assert rules.codec.parse(state, 0, Command.of("weapon", item="Gladius and Sica")) == Weapon(item="gladius+sica")
    step = game.apply(state, 0, Weapon(item="gladius+sica"))  # type: ignore[attr-defined]
    chosen = next(e for e in step.events if isinstance(e, WeaponChosen))
    assert (chosen.item, chosen.second, chosen.armed) == ("gladius", "sica", 4)
    c = step.state.combat
    assert c is not None and c.second == "sica"
    armed = sorted(card_type(x) for x in c.hand if x.startswith("armed"))
    assert armed == ["leg", "leg", "torso", "torso"]  # both weapons' armed cards, no shield beside them
    drawn = next(e for e in step.events if isinstance(e, CardsDrawn) and e.who == "hero")
    assert drawn.cards == state.heroes[0].combat + 4
    with pytest.raises(IllegalAction, match="one of your weapons"):
        game.apply(state, 0, Weapon(item="falx+gladius"))  # type: ignore[attr-defined]


def test_a_caravan_may_stay_where_it_is() -> None:
    game = scripted()
    state = started(game, [("labienus", 1, "gladius"), ("jahmesz", 1, "khopesh")], opponents="bot")
    calm(state)
    here = state.heroes[0].province
    assert Caravan(to=here) in game.legal(state, 0)
    step = game.apply(state, 0, Caravan(to=here))
    moved = next(e for e in step.events if isinstance(e, Moved))
    assert moved.path == [here] and step.state.heroes[0].gold == state.heroes[0].gold + 1
    label = champion_rules(game).codec.label(state, 0, Command.of("caravan", to=here))
    assert label.startswith("Caravan, staying in")


def test_recuperating_is_not_offered_at_full_life() -> None:
    game = scripted()
    state = started(game, [("labienus", 1, "gladius"), ("jahmesz", 1, "khopesh")], opponents="bot")
    calm(state)
    me = state.heroes[0]
    assert me.life == me.max_life
    assert Recuperate() not in game.legal(state, 0)
    with pytest.raises(IllegalAction, match="full life"):
        game.apply(state, 0, Recuperate())
    me.life -= 1
    assert Recuperate() in game.legal(state, 0)
