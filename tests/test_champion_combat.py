"""Champion of the Empire combat against the book: the Labienus example turn by turn, the Starving Farmers,
the Tax Collector, and the defeat penalties."""

from __future__ import annotations

import pytest

from rules.champion.engine.combat import card_type
from rules.champion.state import (
    Caravan,
    CardPlayed,
    CardsDrawn,
    Choose,
    Defeated,
    Defend,
    Drop,
    FightEnded,
    InitiativeRolled,
    Keep,
    Play,
    RangedAttack,
    State,
    TrailLost,
    Wound,
)
from rules.core import IllegalAction, NotYourTurn
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


def hand_types(state: State) -> list[str]:
    assert state.combat is not None
    return sorted(card_type(c) for c in state.combat.hand)


def test_labienus_against_the_bodyguard_turn_by_turn() -> None:
    game = scripted()
    state = started(game, [("labienus", 1, "pilum"), ("jahmesz", 1, "khopesh")], names=["Jeno", "Gabor"])
    calm(state)
    dest = next_to(game, "latium", "medium")
    story_on_top(state, "bodyguard")
    # Labienus draws seven; the bodyguard six, of which the pilum throws away the first two.
    stack_combat(state, ["torso", "leg", "head", "torso", "hand", "hand", "inspired",
                         "hand", "hand", "torso", "torso", "head", "torso"])
    ScriptedDice.script = [2, 3, 5, 4, 3, 3, 1, 2]  # (Labienus, bodyguard) for each initiative roll
    state = game.apply(state, 0, Caravan(to=dest)).state
    assert state.phase == "story"  # the bodyguard's card: stand your ground, or step aside
    step = game.apply(state, 0, Choose(option="1"))
    state = step.state
    c = state.combat
    assert c is not None and c.foes[0].name == "Bodyguard" and c.foes[0].controller == 1  # Gabor, on the right
    assert c.weapon == "pilum" and len(c.hand) == 7
    ranged = [e for e in step.events if isinstance(e, RangedAttack)]
    assert ranged and ranged[0].discarded == 2 and len(c.foes[0].hand) == 4
    rolls = [e for e in step.events if isinstance(e, InitiativeRolled)]
    assert (rolls[0].hero_total, rolls[0].foe_total, rolls[0].attacker) == (5, 7, "foes")
    assert game.to_act(state) == frozenset({1})
    # Gabor attacks with a torso card; Labienus has one and wards it off.
    state, events = _apply(game, state, 1, Play(card="torso", foe=0))
    assert any(isinstance(e, CardPlayed) and e.by == "hero" and e.role == "defence" for e in events)
    roll = next(e for e in events if isinstance(e, InitiativeRolled))
    assert (roll.hero_total, roll.foe_total, roll.attacker, roll.reason) == (8, 8, "hero", "tie")
    # Labienus attacks the leg; Gabor has none, throws a torso card and is wounded: life and initiative drop.
    state, events = _apply(game, state, 0, Play(card="leg", target=0))
    assert game.to_act(state) == frozenset({1})  # he chooses which card to throw down
    with pytest.raises(IllegalAction):
        game.apply(state, 1, Defend(card="leg", foe=0))
    state, events = _apply(game, state, 1, Defend(card="torso", foe=0))
    wound = next(e for e in events if isinstance(e, Wound))
    assert (wound.life, wound.left, wound.initiative) == (1, 2, 3)
    roll = next(e for e in events if isinstance(e, InitiativeRolled))
    assert (roll.hero_total, roll.foe_total, roll.attacker) == (6, 6, "hero")  # the leg wound made it a tie
    # A head attack: Gabor holds a head card, so he is not hurt.
    state, events = _apply(game, state, 0, Play(card="head", target=0))
    assert not any(isinstance(e, Wound) for e in events)
    roll = next(e for e in events if isinstance(e, InitiativeRolled))
    assert (roll.hero_roll, roll.foe_roll, roll.attacker, roll.reason) == (1, 2, "foes", "one")
    # Gabor's last card is a torso card: with nothing to choose it is played at once (and said so);
    # Labienus defends; the combat round ends.
    last = next(e for e in events if isinstance(e, CardPlayed) and e.by == "Bodyguard" and e.role == "attack")
    assert (last.card, last.auto, last.why) == ("torso", True, "only")
    c = state.combat
    assert c is not None and c.step == "keep" and len(c.hand) == 3 and not c.foes[0].hand
    with pytest.raises(IllegalAction):
        game.apply(state, 0, Keep(cards=("hand", "hand", "inspired")))
    # The book's redraw: Labienus keeps two of his three and draws up to his combat value, seven.
    state, events = _apply(game, state, 0, Keep(cards=("hand", "inspired")))
    drawn = {e.who: e for e in events if isinstance(e, CardsDrawn)}
    assert drawn["hero"].cards == 7 and drawn["hero"].kept == 2
    assert drawn["Bodyguard"].cards == 6  # no longer hampered by the pilum
    assert state.combat is not None and state.combat.round == 2


def _apply(game: object, state: State, seat: int, action: object) -> tuple[State, list[object]]:
    step = game.apply(state, seat, action)  # type: ignore[attr-defined]
    return step.state, list(step.events)


def test_starving_farmers_two_opponents_two_players() -> None:
    game = scripted()
    state = started(game, [("jahmesz", 1, "khopesh"), ("labienus", 1, "gladius"), ("tarsa", 1, "sica")],
                    names=["Vili", "Jeno", "Gyuri"])
    calm(state)
    me = state.heroes[0]
    me.items = []  # Jahmesz fights without a weapon, as in the book's example: six cards, no ranged attack
    assert (me.combat, me.initiative) == (6, 4)
    here = next(p.id for p in game.lib.map.province if any(game.lib.deck_of(q) == "easy" for q in game.lib.near[p.id]))
    state.heroes[0].province = here
    dest = next_to(game, here, "easy")
    story_on_top(state, "starving-farmers")
    stack_combat(state, ["torso", "leg", "inspired", "torso", "hand", "torso",  # Jahmesz
                         "torso", "leg", "head",  # the first farmer (Gyuri)
                         "head", "leg", "inspired"])  # the second farmer (Jeno)
    ScriptedDice.script = [2, 4, 3, 1, 5, 4, 3, 6, 2]  # the story roll, then (Vili, farmers) pairs
    state, events = _apply(game, state, 0, Caravan(to=dest))
    c = state.combat
    assert c is not None and [f.controller for f in c.foes] == [2, 1]  # Gyuri, then Jeno, to Vili's right
    assert len(c.hand) == 6 and all(len(f.hand) == 3 for f in c.foes)
    state, events = _apply(game, state, 0, Play(card="torso", target=0))  # Gyuri defends with his torso
    assert not any(isinstance(e, Wound) for e in events)
    assert game.to_act(state) == frozenset({1, 2})  # both farmers choose their attack at once
    with pytest.raises(NotYourTurn):
        game.apply(state, 0, Play(card="leg", foe=0))
    state, _ = _apply(game, state, 2, Play(card="leg", foe=0))
    combat = champion_rules(game).view(state, None).combat
    assert combat is not None and combat.foes[0].chosen
    state, events = _apply(game, state, 1, Play(card="head", foe=1))
    # The leg is warded off at once; against the head Vili has no card and throws one down.
    assert game.to_act(state) == frozenset({0})
    state, events = _apply(game, state, 0, Defend(card="inspired"))
    wound = next(e for e in events if isinstance(e, Wound))
    assert (wound.who, wound.life, wound.left) == ("hero", 2, 2)
    state, events = _apply(game, state, 0, Play(card="torso", target=0))  # Gyuri has one card, no torso
    assert any(e.name == "Farmer with a sickle" for e in events if type(e).__name__ == "FoeDied")
    state, events = _apply(game, state, 0, Play(card="hand", target=1))
    assert game.to_act(state) == frozenset({1})  # Jeno throws one of his two cards
    xp_before = state.heroes[0].xp
    state, events = _apply(game, state, 1, Defend(card="leg", foe=1))
    end = next(e for e in events if isinstance(e, FightEnded))
    assert (end.result, end.xp) == ("won", 2)
    assert state.heroes[0].xp == xp_before + 2


def test_tax_collector_two_of_three_killed_gives_three_xp() -> None:
    game = scripted()
    state = started(game, [("labienus", 1, "pilum"), ("jahmesz", 1, "khopesh")], opponents="bot")
    calm(state)
    state.heroes[0].items = []
    state.heroes[0].combat = 2  # two cards a round, so that the story's two rounds pass quickly
    story = game.lib.story["tax-collector"]
    refuse = next(i for i, o in enumerate(story.outcome) if len(o.opponent) == 3)
    assert story.outcome[refuse].rounds == 2 and [o.xp for o in story.outcome[refuse].opponent] == [1, 1, 1]
    here = next(p.id for p in game.lib.map.province
                if any(game.lib.deck_of(q) == story.deck for q in game.lib.near[p.id]))
    state.heroes[0].province = here
    story_on_top(state, "tax-collector")
    stack_combat(state, ["head", "head"] + ["leg"] * 4 + ["hand"] * 5 + ["inspired"] * 5
                 + ["head", "torso"] + ["leg"] * 3 + ["hand"] * 3)
    ScriptedDice.script = [6, 2] * 4
    state, _ = _apply(game, state, 0, Caravan(to=next_to(game, here, story.deck)))
    state, events = _apply(game, state, 0, Choose(option=str(refuse + 1)))
    xp = state.heroes[0].xp
    state, events = _apply(game, state, 0, Play(card="head", target=0))  # the collector (life 2) falls
    state, events = _apply(game, state, 0, Play(card="head", target=1))  # the older guard keeps 1 life
    assert state.combat is not None and state.combat.round == 2
    assert hand_types(state) == ["head", "torso"]
    state, events = _apply(game, state, 0, Play(card="torso", target=1))  # and falls in the second round
    # one card against one guard left: nothing to choose, so it is played at once (and said so)
    last = [e for e in events if isinstance(e, CardPlayed) and e.by == "hero" and e.role == "attack"]
    assert [(e.card, e.foe, e.why) for e in last] == [("torso", 1, ""), ("head", 2, "only")]
    end = next(e for e in events if isinstance(e, FightEnded))
    assert (end.result, end.xp, end.gold) == ("fled", 3, 0)
    assert state.heroes[0].xp == xp + 3


def _losing_fight(opponents: str, *, monster: bool = False) -> tuple[object, State]:
    game = scripted()
    state = started(game, [("labienus", 1, "pilum"), ("jahmesz", 1, "khopesh"), ("tarsa", 1, "sica")],
                    opponents=opponents)
    calm(state)
    me = state.heroes[0]
    me.items = ["pilum", "small-shield", "herb-salve"]
    me.life, me.gold = 1, 4  # 5 gold after the caravan pays 1
    return game, state


@pytest.mark.parametrize("opponents", ["players", "bot"])
def test_defeat_costs_half_the_gold_and_an_item_chosen_by_the_left_player(opponents: str) -> None:
    game, state = _losing_fight(opponents)
    story_on_top(state, "bodyguard")
    stack_combat(state, ["torso"] * 7 + ["head"] * 6)
    ScriptedDice.script = [1, 6]  # the bodyguard wins the first initiative
    dest = next_to(game, "latium", "medium")  # type: ignore[attr-defined]
    state, events = _apply(game, state, 0, Caravan(to=dest))
    state, events = _apply(game, state, 0, Choose(option="1"))  # stand your ground
    c = state.combat
    assert c is not None
    # Seat 2 plays the bodyguard (it sits to Labienus's right), but the bodyguard holds only head cards:
    # its attack is played at once, and the thread is told why.
    attack = next(e for e in events if isinstance(e, CardPlayed) and e.role == "attack")
    assert (attack.card, attack.auto, attack.why) == ("head", True, "only" if opponents == "players" else "")
    # The small shield's armed hand card gives Labienus a choice of what to throw down against the head.
    assert game.to_act(state) == frozenset({0})  # type: ignore[attr-defined]
    state, events = _apply(game, state, 0, Defend(card="hand"))
    defeat = next(e for e in events if isinstance(e, Defeated))
    assert (defeat.gold_lost, defeat.life) == (3, 2)
    me = state.heroes[0]
    assert me.gold == 2 and me.life == 2
    if opponents == "players":
        assert state.phase == "item" and game.to_act(state) == frozenset({1})  # type: ignore[attr-defined]
        with pytest.raises(IllegalAction, match="starting weapon"):
            game.apply(state, 1, Drop(item="pilum"))  # type: ignore[attr-defined]
        with pytest.raises(NotYourTurn):
            game.apply(state, 0, Drop(item="herb-salve"))  # type: ignore[attr-defined]
        state, events = _apply(game, state, 1, Drop(item="herb-salve"))
        assert me.items != state.heroes[0].items
    assert "pilum" in state.heroes[0].items and len(state.heroes[0].items) == 2


def test_losing_the_final_battle_also_loses_the_trail() -> None:
    game, state = _losing_fight("bot")
    me = state.heroes[0]
    me.info, me.regions, me.province_card, me.monster = 6, ["italia"], "chest", "minotaur"
    lair = game.table.lair(me)  # type: ignore[attr-defined]
    assert lair is not None
    me.province = lair
    cards = len(state.province_cards)
    stack_combat(state, ["torso"] * 7 + ["head"] * 6 + ["leg"] * 3)
    ScriptedDice.script = [1, 6]
    from rules.champion.state import Attack

    state, events = _apply(game, state, 0, Attack())
    if state.phase == "combat":  # Labienus throws down his shield's hand card: nothing answers the blow
        state, events = _apply(game, state, 0, Defend(card="hand"))
    assert any(isinstance(e, TrailLost) for e in events)
    me = state.heroes[0]
    assert me.info == 5 and me.province_card == "" and len(state.province_cards) == cards + 1
    assert game.table.lair(me) is None  # type: ignore[attr-defined]


def test_heroic_kerberos_has_three_heads_with_one_more_combat_and_life() -> None:
    game = scripted()
    state = started(game, [("labienus", 1, "pilum"), ("jahmesz", 1, "khopesh"), ("tarsa", 1, "sica")],
                    opponents="players", heroic=True)
    calm(state)
    me = state.heroes[0]
    me.info, me.regions, me.province_card, me.monster = 6, ["italia"], "chest", "kerberos"
    me.province = game.table.lair(me) or ""
    from rules.champion.state import Attack, FightBegan

    step = game.apply(state, 0, Attack())
    fight = next(e for e in step.events if isinstance(e, FightBegan))
    k = game.lib.monster["kerberos"]
    assert [(f["combat"], f["life"]) for f in fight.foes] == [(k.combat + 1, k.life + 1)] * 3
    assert [f["controller"] for f in fight.foes] == [2, 1, 2]  # to the right in turn, never the hero
    # A torso wound to one head costs every head a life (single torso).
    from rules.champion.engine.combat import Melee

    melee = Melee(game.lib, step.state, ScriptedDice(0), [])
    melee.hurt_foe(1, "torso", 1)
    assert [f.life for f in step.state.combat.foes] == [k.life] * 3  # type: ignore[union-attr]
    melee.hurt_foe(1, "head", 2)
    assert [f.life for f in step.state.combat.foes] == [k.life, k.life - 2, k.life]  # type: ignore[union-attr]
