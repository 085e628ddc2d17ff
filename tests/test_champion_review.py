"""Champion of the Empire: what the review found — a second press of a button never acts twice, standing in
one's own lair stays secret, one horse at a time, and the sheet counts to five in the shorter version."""

from __future__ import annotations

import random

import msgspec
import pytest

from bot.present import presenter
from bot.present.base import SeatName
from bot.service.moment import GameMoment, moment_for
from bot.service.play import GameService, Person
from bot.store.db import Database
from render.champion import render_sheet
from rules.champion.engine import Engine
from rules.champion.state import Attack, State
from rules.champion.view import ChampionView
from rules.core import SeatInfo, StaleAction
from tests.champion_helpers import calm, champion_rules, sample_hero, scripted, started

RULES = Engine()


def test_every_action_moves_the_moment_unless_one_of_several_has_chosen() -> None:
    rng = random.Random(7)
    for game in range(6):
        seats = [SeatInfo(index=i, name=f"P{i}") for i in range(2 + game % 3)]
        opts = {"opponents": "players" if game % 2 else "bot"}
        state = RULES.setup(seats, opts, seed=game).state
        for _ in range(700):
            if state.phase == "over":
                break
            acting = RULES.to_act(state)
            seat = rng.choice(sorted(acting))
            step = RULES.apply(state, seat, rng.choice(RULES.legal(state, seat)))
            after = step.state
            if after.moment == state.moment:  # only a setup choice, or one of several choosing together
                assert state.phase == "setup" or RULES.to_act(after) < acting, (state.phase, after.phase)
                assert seat not in RULES.to_act(after) or state.phase == "setup"
            state = after


async def test_a_second_press_of_develop_is_refused(db: Database) -> None:
    svc = GameService(db)
    ann, bob = Person(1, "Ann"), Person(2, "Bob")
    info = await svc.create("champion", ann, options={"opponents": "bot"}, seed=3)
    await svc.join(info.game_id, bob)
    result = await svc.start(info.game_id, ann.id)
    for seat, person in enumerate((ann, bob)):
        pick = next(iter(result.rules.legal(result.state, seat)))
        result = await svc.act(info.game_id, person.id, pick)
        result = await svc.act(info.game_id, person.id, verb="pass", args={})
    current = min(result.to_act)
    mover = result.user_of(current)
    g = await svc._load(info.game_id, fresh=True)
    g.state.heroes[current].xp = 10  # enough for more than one development
    stamp = result.stamp
    await svc.act(info.game_id, mover, verb="develop", args={"attribute": "life"}, expect_version=stamp)
    with pytest.raises(StaleAction):
        await svc.act(info.game_id, mover, verb="develop", args={"attribute": "life"}, expect_version=stamp)


def as_moment(game: Engine, state: State) -> GameMoment[ChampionView]:
    seats = [SeatName(seat=i, user_id=100 + i, name=h.name) for i, h in enumerate(state.heroes)]
    return moment_for(champion_rules(game), state, seats)


def test_standing_in_ones_own_lair_is_told_to_nobody_else() -> None:
    game = scripted()
    state = started(game, [("labienus", 1, "pilum"), ("jahmesz", 1, "khopesh")], names=["Ann", "Bob"])
    calm(state)
    me = state.heroes[0]
    me.info, me.regions, me.province_card, me.monster = 6, ["italia"], "amphora", "minotaur"
    me.province = game.lib.lairs[("italia", "amphora")]
    assert any(isinstance(a, Attack) for a in RULES.legal(state, 0))
    shown = presenter("champion")
    public = shown.prompt(as_moment(game, state))  # type: ignore[attr-defined]
    assert public is not None and "lair" not in public.text and any(b.view == "hand" for b in public.buttons)
    assert not any("monster" in b.label.lower() for b in public.buttons)
    assert all(len(c.encode()) <= 70 for menu in public.menus for _label, c in menu.choices)
    for seat in (None, 1):
        assert "lair" not in champion_rules(game).view(state, seat).caption
    mine = shown.private("hand", as_moment(game, state), 0)
    assert mine is not None and mine.prompt is not None
    assert any("monster" in b.label.lower() for b in mine.prompt.buttons)


def test_one_horse_at_a_time() -> None:
    game = scripted()
    state = started(game, [("labienus", 1, "pilum"), ("jahmesz", 1, "khopesh")])
    calm(state)
    base = game.movement.allowance(state, 0, "explore")
    state.heroes[0].items += ["numidian-horse"]
    assert game.movement.allowance(state, 0, "explore") == base + 1
    state.heroes[0].items += ["asturian-horse"]
    assert game.movement.allowance(state, 0, "explore") == base + 1
    assert game.movement.allowance(state, 0, "caravan") == 1


def test_the_sheet_counts_information_to_five_in_the_shorter_version() -> None:
    hero = sample_hero()
    six = render_sheet(hero, side_name="Veteran")
    assert render_sheet(msgspec.structs.replace(hero, info_needed=5), side_name="Veteran") != six
