"""Champion of the Empire rules against the book: the story examples with their numbers, the actions and
their refusals, setup, the market, development, information and the monster choice."""

from __future__ import annotations

import msgspec
import pytest

from rules.champion.ruleset import ChampionRuleset
from rules.champion.state import (
    Buy,
    Caravan,
    Choose,
    Commission,
    Develop,
    Drop,
    Explore,
    FightBegan,
    Gained,
    Information,
    Lore,
    MonsterOffer,
    Pass,
    Pick,
    Recuperate,
    State,
    StoryDrawn,
    Use,
    Voyage,
)
from rules.core import GameError, IllegalAction, NotYourTurn, SeatInfo
from rules.spec import Command
from tests.champion_helpers import ScriptedDice, calm, champion_rules, next_to, scripted, started, story_on_top

PICKS = [("labienus", 1, "pilum"), ("jahmesz", 1, "khopesh")]


def two_heroes(**options: object) -> tuple[object, State]:
    game = scripted()
    state = started(game, PICKS, opponents="bot", **options)
    calm(state)
    return game, state


def beside(game: object, state: State, deck: str) -> str:
    """Stand hero 0 next to a province of ``deck`` and return that province."""
    lib = game.lib  # type: ignore[attr-defined]
    here = next(p.id for p in lib.map.province if any(lib.deck_of(q) == deck for q in lib.near[p.id]))
    state.heroes[0].province = here
    return next_to(game, here, deck)  # type: ignore[arg-type]


# --- the book's story examples ---------------------------------------------------------------------

@pytest.mark.parametrize("roll", [1, 2, 3])
def test_spring_oasis_low_roll_fights_the_robber(roll: int) -> None:
    game, state = two_heroes()
    dest = beside(game, state, "easy")
    story_on_top(state, "spring-oasis")
    ScriptedDice.script = [roll]
    step = game.apply(state, 0, Caravan(to=dest))  # type: ignore[attr-defined]
    fight = next(e for e in step.events if isinstance(e, FightBegan))
    assert fight.rounds == 2
    assert [(f["name"], f["combat"], f["initiative"], f["life"]) for f in fight.foes] == [("Robber", 5, 3, 3)]
    c = step.state.combat
    assert c is not None and c.foes[0].xp == 2


@pytest.mark.parametrize(("roll", "gold", "full"), [(4, 2, False), (5, 2, False), (6, 0, True)])
def test_spring_oasis_high_rolls(roll: int, gold: int, full: bool) -> None:
    game, state = two_heroes()
    dest = beside(game, state, "easy")
    state.heroes[0].life = 2
    story_on_top(state, "spring-oasis")
    ScriptedDice.script = [roll]
    before = state.heroes[0].gold
    state = game.apply(state, 0, Caravan(to=dest)).state  # type: ignore[attr-defined]
    me = state.heroes[0]
    assert me.gold == before + 1 + gold  # the caravan's gold, then the spring's
    assert me.life == (me.max_life if full else 2)


@pytest.mark.parametrize(("roll", "info"), [(1, 0), (2, 0), (3, 1), (4, 1), (5, 1), (6, 1)])
def test_greek_scholars(roll: int, info: int) -> None:
    game, state = two_heroes()
    dest = beside(game, state, "medium")
    story_on_top(state, "greek-scholars")
    ScriptedDice.script = [roll]
    step = game.apply(state, 0, Caravan(to=dest))  # type: ignore[attr-defined]
    me = step.state.heroes[0]
    assert me.info == info and len(me.regions) == 6 - info
    if info:
        assert any(isinstance(e, Information) and e.region_discarded for e in step.events)


def test_servants_of_mars_raise_max_and_current_life() -> None:
    game, state = two_heroes()
    dest = beside(game, state, "medium")
    me = state.heroes[0]
    assert me.max_life == 5  # Labienus the Veteran
    me.life = 3
    story_on_top(state, "servants-of-mars")
    state = game.apply(state, 0, Caravan(to=dest)).state  # type: ignore[attr-defined]
    assert (state.heroes[0].max_life, state.heroes[0].life) == (6, 4)


def test_rainy_weather_explores_one_province_fewer() -> None:
    game, state = two_heroes()
    state.event = "rainy-weather"
    lib = game.lib  # type: ignore[attr-defined]
    moves = [a for a in game.legal(state, 0) if isinstance(a, Explore)]  # type: ignore[attr-defined]
    assert moves and all(len(a.path) == 1 for a in moves)
    far = next(q for p in lib.near["latium"] for q in lib.near[p] if q != "latium" and q not in lib.near["latium"])
    mid = next(p for p in lib.near["latium"] if far in lib.near[p])
    with pytest.raises(IllegalAction, match="at most 1 province"):
        game.apply(state, 0, Explore(path=(mid, far)))  # type: ignore[attr-defined]
    calm(state)
    assert game.apply(state, 0, Explore(path=(mid, far))).state.heroes[0].province == far  # type: ignore


# --- setup -----------------------------------------------------------------------------------------

def test_setup_choices_and_refusals() -> None:
    game = scripted()
    seats = [SeatInfo(0, "Ann"), SeatInfo(1, "Bob")]
    state = game.setup(seats, {}, seed=3).state
    assert game.to_act(state) == frozenset({0, 1})
    assert len(game.legal(state, 0)) == 5 * 2 * 2
    with pytest.raises(IllegalAction, match="starts with one of"):
        game.apply(state, 0, Pick(hero="labienus", side=1, weapon="khopesh"))
    with pytest.raises(IllegalAction, match="two sides"):
        game.apply(state, 0, Pick(hero="labienus", side=3, weapon="pilum"))
    with pytest.raises(IllegalAction, match="First choose"):
        game.apply(state, 0, Pass())
    state = game.apply(state, 0, Pick(hero="labienus", side=1, weapon="pilum")).state
    me = state.heroes[0]
    assert (me.gold, me.combat, me.initiative, me.life, me.province, me.items) == (3, 7, 3, 5, "latium", ["pilum"])
    assert len(me.offer) == 2 and len(me.regions) == 6
    with pytest.raises(IllegalAction, match="nobody has taken"):
        game.apply(state, 1, Pick(hero="labienus", side=2, weapon="gladius"))
    affordable = [b for b in game.legal(state, 0) if isinstance(b, Buy)]
    if affordable:
        state = game.apply(state, 0, affordable[0]).state
        assert len(state.heroes[0].items) == 2
    else:
        state = game.apply(state, 0, Pass()).state
    state = game.apply(state, 1, Pick(hero="jahmesz", side=2, weapon="egyptian-bow")).state
    state = game.apply(state, 1, Pass()).state
    assert state.phase == "action" and state.round == 1 and state.event


def test_options_are_checked() -> None:
    game = ChampionRuleset(scripted())
    with pytest.raises(IllegalAction):
        game.check_options({"opponents": "gods"}, 2)
    with pytest.raises(IllegalAction):
        game.check_options({}, 5)
    assert game.check_options({"fate": "yes"}, 3) == {"opponents": "players", "fate": True, "short": False,
                                                      "heroic": False, "tabula_level": "easy"}


# --- actions and their refusals --------------------------------------------------------------------

def test_caravan_gold_and_refusals() -> None:
    game, state = two_heroes()
    with pytest.raises(IllegalAction, match="neighbour"):
        game.apply(state, 0, Caravan(to="aegyptus"))  # type: ignore[attr-defined]
    with pytest.raises(NotYourTurn):
        game.apply(state, 1, Caravan(to="campania"))  # type: ignore[attr-defined]
    step = game.apply(state, 0, Caravan(to="campania"))  # type: ignore[attr-defined]
    assert any(isinstance(e, Gained) and e.changes == {"gold": 1} for e in step.events)
    assert any(isinstance(e, StoryDrawn) and e.deck == "easy" for e in step.events)  # amphora: the easy deck


def test_a_horse_adds_a_province_to_exploration_but_not_to_caravans() -> None:
    game, state = two_heroes()
    state.heroes[0].items.append("numidian-horse")
    assert game.movement.allowance(state, 0, "explore") == 3  # type: ignore[attr-defined]
    assert game.movement.allowance(state, 0, "caravan") == 1  # type: ignore[attr-defined]


def test_commission_not_twice_in_a_row() -> None:
    game, state = two_heroes()
    state.heroes[0].province = "campania"  # no city: no market after the action
    state = game.apply(state, 0, Commission(reward="xp")).state  # type: ignore[attr-defined]
    assert state.heroes[0].xp == 2 and state.order[state.turn] == 1
    state = game.apply(state, 1, Commission(reward="gold")).state  # type: ignore[attr-defined]
    if state.phase == "market":  # Jahmesz ends in Alexandria
        state = game.apply(state, 1, Pass()).state  # type: ignore[attr-defined]
    calm(state)
    with pytest.raises(IllegalAction, match="twice in a row"):
        game.apply(state, 0, Commission(reward="gold"))  # type: ignore[attr-defined]
    with pytest.raises(IllegalAction, match="xp"):
        game.apply(state, 0, Commission(reward="fame"))  # type: ignore[attr-defined]


def test_recuperate_full_in_a_city_two_elsewhere() -> None:
    game, state = two_heroes()
    state.heroes[0].life = 1
    after = game.apply(state, 0, Recuperate()).state  # type: ignore[attr-defined]
    assert after.heroes[0].life == 5  # Roma is a city
    state.heroes[0].province = "campania"
    after = game.apply(state, 0, Recuperate()).state  # type: ignore[attr-defined]
    assert after.heroes[0].life == 3


def test_lore_needs_a_shrine_at_the_end_of_the_previous_turn() -> None:
    game, state = two_heroes()
    with pytest.raises(IllegalAction, match="no secret shrine"):
        game.apply(state, 0, Lore())  # type: ignore[attr-defined]
    state.heroes[0].province = "campania"  # Cumae
    with pytest.raises(IllegalAction, match="end a turn"):
        game.apply(state, 0, Lore())  # type: ignore[attr-defined]
    state.heroes[0].turn_end = "campania"
    state.heroes[0].gold = 1
    with pytest.raises(IllegalAction, match="costs 2 gold"):
        game.apply(state, 0, Lore())  # type: ignore[attr-defined]
    state.heroes[0].gold = 3
    after = game.apply(state, 0, Lore()).state  # type: ignore[attr-defined]
    me = after.heroes[0]
    assert (me.info, me.gold, me.shrines, len(me.regions)) == (1, 1, ["campania"], 5)
    me.turn_end = "campania"
    after.turn = 0
    with pytest.raises(IllegalAction, match="already learned"):
        game.apply(after, 0, Lore())  # type: ignore[attr-defined]


def test_voyage_refusals_and_shipwreck() -> None:
    game, state = two_heroes()
    lib = game.lib  # type: ignore[attr-defined]
    inland = next(p.id for p in lib.map.province if not p.coast)
    port = next(p for p in lib.ports if p != "latium")
    state.heroes[0].province = inland
    with pytest.raises(IllegalAction, match="no harbour"):
        game.apply(state, 0, Voyage(to=port))  # type: ignore[attr-defined]
    state.heroes[0].province = "latium"
    state.heroes[0].gold = 1
    with pytest.raises(IllegalAction, match="costs 2 gold"):
        game.apply(state, 0, Voyage(to=port))  # type: ignore[attr-defined]
    with pytest.raises(IllegalAction, match="coastal"):
        game.apply(state, 0, Voyage(to=inland))  # type: ignore[attr-defined]
    state.heroes[0].gold = 4
    state.heroes[0].items = ["pilum", "small-shield", "herb-salve"]
    ScriptedDice.script = [1]
    after = game.apply(state, 0, Voyage(to=port)).state  # type: ignore[attr-defined]
    assert after.heroes[0].province == port and after.heroes[0].gold == 2
    assert after.phase == "item" and game.to_act(after) == frozenset({0})  # type: ignore[attr-defined]
    with pytest.raises(IllegalAction, match="starting weapon"):
        game.apply(after, 0, Drop(item="pilum"))  # type: ignore[attr-defined]
    after = game.apply(after, 0, Drop(item="small-shield")).state  # type: ignore[attr-defined]
    assert after.heroes[0].items == ["pilum", "herb-salve"]
    state.event = next(e.id for e in lib.events if e.effect == "voyage_forbidden")
    with pytest.raises(IllegalAction, match="No ship"):
        game.apply(state, 0, Voyage(to=port))  # type: ignore[attr-defined]


def test_development_and_healing() -> None:
    game, state = two_heroes()
    with pytest.raises(IllegalAction, match="costs 4 experience"):
        game.apply(state, 0, Develop(attribute="initiative"))  # type: ignore[attr-defined]
    state.heroes[0].xp = 9
    state = game.apply(state, 0, Develop(attribute="initiative")).state  # type: ignore[attr-defined]
    state = game.apply(state, 0, Develop(attribute="combat")).state  # type: ignore[attr-defined]
    state = game.apply(state, 0, Develop(attribute="life")).state  # type: ignore[attr-defined]
    me = state.heroes[0]
    assert (me.xp, me.initiative, me.combat, me.max_life, me.life) == (0, 4, 8, 6, 6)
    with pytest.raises(IllegalAction, match="healing item"):
        game.apply(state, 0, Use(item="pilum"))  # type: ignore[attr-defined]
    me.items.append("herb-salve")
    with pytest.raises(IllegalAction, match="maximum"):
        game.apply(state, 0, Use(item="herb-salve"))  # type: ignore[attr-defined]
    me.life = 2
    after = game.apply(state, 0, Use(item="herb-salve")).state  # type: ignore[attr-defined]
    assert after.heroes[0].life == 4 and "herb-salve" not in after.heroes[0].items


def test_market_after_ending_in_a_city_and_the_item_limit() -> None:
    game, state = two_heroes()
    me = state.heroes[0]
    me.items = ["pilum", "herb-salve", "small-shield", "bronze-helmet"]
    me.gold = 20
    state = game.apply(state, 0, Commission(reward="gold")).state  # type: ignore[attr-defined]
    assert state.phase == "market" and len(state.market) == 3
    with pytest.raises(IllegalAction, match="market"):
        game.apply(state, 0, Buy(item="no-such-thing"))  # type: ignore[attr-defined]
    item = state.market[0]
    deck = len(state.item_deck)
    state = game.apply(state, 0, Buy(item=item)).state  # type: ignore[attr-defined]
    assert len(state.item_deck) == deck + 2  # the other two are shuffled back
    assert state.phase == "item" and len(state.heroes[0].items) == 4  # over the limit: one must go
    assert {a.item for a in game.legal(state, 0)} == {"herb-salve", "small-shield", "bronze-helmet", item}  # type: ignore
    state = game.apply(state, 0, Drop(item="herb-salve")).state  # type: ignore[attr-defined]
    assert len(state.heroes[0].items) == 4 and state.order[state.turn] == 1


def test_information_to_the_lair_and_the_monster_choice() -> None:
    game, state = two_heroes()
    me = state.heroes[0]
    me.info, me.regions = 5, ["italia"]
    me.province = "campania"
    me.turn_end = "campania"
    step = game.apply(state, 0, Lore())  # type: ignore[attr-defined]
    state = step.state
    offer = next(e for e in step.events if isinstance(e, MonsterOffer))
    assert len(offer.monsters) == 3 and state.phase == "monster"
    state = game.apply(state, 0, Choose(option=offer.monsters[1])).state  # type: ignore[attr-defined]
    me = state.heroes[0]
    assert me.monster == offer.monsters[1] and me.info == 6 and game.table.lair(me) is not None  # type: ignore
    rules = champion_rules(game)  # type: ignore[arg-type]
    secret = rules.view(state, 0).secret
    assert secret is not None and secret.lair == game.table.lair(me)  # type: ignore[attr-defined]
    assert rules.view(state, 0).heroes[0].monster == me.monster
    assert rules.view(state, None).secret is None


def test_state_round_trips_through_json() -> None:
    _game, state = two_heroes(fate=True, short=True, heroic=True)
    raw = msgspec.json.encode(state)
    assert msgspec.json.encode(msgspec.json.decode(raw, type=State)) == raw


def test_parse_and_choices() -> None:
    game, state = two_heroes()
    codec = champion_rules(game).codec  # type: ignore[arg-type]
    assert codec.parse(state, 0, Command.of("caravan", to="Campania")) == Caravan(to="campania")
    with pytest.raises(IllegalAction, match="no `/fly`"):
        codec.parse(state, 0, Command.of("fly"))
    lib = game.lib  # type: ignore[attr-defined]
    far = next(q for p in lib.near["latium"] for q in lib.near[p] if q != "latium" and q not in lib.near["latium"])
    action = codec.parse(state, 0, Command.of("explore", path=far))
    assert isinstance(action, Explore) and action.path[-1] == far and len(action.path) == 2
    options = [codec.encode(state, 0, a) for a in game.legal(state, 0) if isinstance(a, Explore)]  # type: ignore
    assert options
    for command in options:
        assert codec.label(state, 0, command, arg="path")
        game.apply(state, 0, codec.parse(state, 0, Command.of("explore", path=command.get("path"))))  # type: ignore
    with pytest.raises(GameError):
        codec.parse(state, 0, Command.of("commission", reward="fame"))
