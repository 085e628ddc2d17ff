"""Champion of the Empire as a plug-in: the ruleset satisfies the contract, the codec round-trips every legal
action of random games, the views keep every secret (the lair included), Tabula's policy finishes games, and
the presenter builds its tellings, status and private views for moments across a game."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec
import pytest

from bot.present.base import SeatName
from bot.present.champion import PRESENTER
from bot.service.moment import moment_for
from rules.champion import RULESET
from rules.champion.state import Attack, Buy, Develop, Pass, Pick, Play, State, Use, Voyage
from rules.champion.view import ChampionView
from rules.core import IllegalAction, Rng, SeatInfo
from rules.registry import ruleset
from rules.spec import Command
from tests.champion_helpers import calm, champion_rules, scripted, started

OPTIONS: list[dict[str, object]] = [
    {"opponents": "players"},
    {"opponents": "bot", "fate": True, "heroic": True},
    {"opponents": "players", "fate": True, "short": True},
]


def random_game(players: int, options: dict[str, object], seed: int, limit: int = 3000) -> Iterator[
        tuple[State, int, Any, State, tuple[object, ...]]]:
    """(state before, seat, action, state after, events) for each move of a game Tabula plays in every seat."""
    state: State = RULESET.setup([SeatInfo(i, f"P{i}") for i in range(players)], options, seed).state
    rng = Rng(seed)
    for _ in range(limit):
        if RULESET.outcome(state) is not None:
            return
        acting = sorted(RULESET.to_act(state))
        seat = acting[rng.below(len(acting))]
        action = RULESET.policy(state, seat, rng)
        assert action is not None, state.phase
        step = RULESET.apply(state, seat, action)
        yield state, seat, action, step.state, step.events
        state = step.state
    raise AssertionError(f"no champion after {limit} moves")


def test_the_registry_finds_champion() -> None:
    assert ruleset("champion") is RULESET
    spec = RULESET.spec
    assert spec.min_players == 2 and spec.max_players == 4
    assert {o.name for o in spec.options} == {"opponents", "fate", "short", "heroic", "tabula_level"}
    assert spec.verb("roll") is None and spec.verb("seed") is None
    assert spec.verb("hand") is not None and spec.verb("hand").view == "hand"  # type: ignore[union-attr]
    assert spec.verb("sheet") is not None and spec.verb("sheet").kind == "view"  # type: ignore[union-attr]
    for verb in spec.verbs:
        assert len(verb.description) <= 100 and verb.help and "\n" not in verb.help
    for option in spec.options:
        assert len(option.description) <= 100
    acts = {v.name for v in spec.verbs if v.kind == "act"}
    assert acts == {"hero", "caravan", "explore", "voyage", "commission", "recuperate", "lore", "develop", "buy",
                    "pass", "use", "attack", "choose", "drop", "weapon", "ranged", "play", "defend", "keep"}


@pytest.mark.parametrize("seed", range(4))
def test_policy_games_end_in_tens_of_rounds(seed: int) -> None:
    options = OPTIONS[seed % len(OPTIONS)]
    moves = list(random_game(2 + seed % 3, options, seed))
    final = moves[-1][3]
    assert RULESET.outcome(final) is not None
    assert final.round <= 80 and len(moves) < 2000


@pytest.mark.parametrize("seed", range(3))
def test_codec_round_trips_every_legal_action(seed: int) -> None:
    codec = RULESET.codec
    for state, _seat, _action, _after, _events in random_game(2 + seed, OPTIONS[seed], seed + 10):
        for seat in sorted(RULESET.to_act(state)):
            for action in RULESET.legal(state, seat):
                command = codec.encode(state, seat, action)
                assert len(command.encode()) <= 70, command
                assert codec.parse(state, seat, Command.decode(command.encode())) == action
                assert codec.label(state, seat, command)
                for name, _ in command.args:
                    assert codec.label(state, seat, command, arg=name)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_views_keep_every_secret(seed: int) -> None:
    checked = 0
    for _before, _seat, _action, state, _events in random_game(2 + seed, OPTIONS[seed], seed + 20):
        seats = range(len(state.heroes))
        views = {s: RULESET.view(state, s) for s in [None, *seats]}
        for seat in seats:
            for variant in RULESET.secret_variants(state, seat):
                for other, view in views.items():
                    if other != seat:
                        assert RULESET.view(variant, other) == view, (state.phase, seat, other)
                checked += 1
        assert msgspec.json.decode(msgspec.json.encode(views[None]), type=ChampionView) == views[None]
    assert checked


def lair_state() -> tuple[Any, State]:
    game = scripted()
    state = started(game, [("labienus", 1, "pilum"), ("jahmesz", 1, "khopesh")], names=["Ann", "Bob"])
    calm(state)
    me = state.heroes[0]
    me.info, me.regions, me.province_card, me.monster = 6, ["italia"], "amphora", "minotaur"
    me.province = game.lib.lairs[("italia", "amphora")]
    return game, state


def test_standing_in_ones_lair_reads_as_an_ordinary_turn() -> None:
    game, state = lair_state()
    rules = champion_rules(game)
    lair = state.heroes[0].province
    state.heroes[0].province = next(p for p in game.lib.near[lair])
    state.heroes[0].turn_end = ""
    step = rules.apply(state, 0, rules.codec.parse(state, 0, Command.of("caravan", to=lair)))
    in_lair = step.state
    assert in_lair.phase == "lair"
    for seat in (None, 1):
        view = rules.view(in_lair, seat)
        assert view.phase == "action" and "lair" not in view.caption
        assert view.secret is None or not view.secret.in_lair
    mine = rules.view(in_lair, 0)
    assert mine.secret is not None and mine.secret.in_lair and mine.secret.lair == lair
    # the lair can move in a secret variant, and nobody else's view changes
    variants = list(rules.secret_variants(in_lair, 0))
    assert any(rules.view(v, 0).secret.lair != lair for v in variants)  # type: ignore[union-attr]
    for v in variants:
        assert rules.view(v, None) == rules.view(in_lair, None)
        assert rules.view(v, 1) == rules.view(in_lair, 1)
    # the public prompt leaves out what would give it away; the hunter's own panel has it
    seats = [SeatName(0, 100, "Ann"), SeatName(1, 101, "Bob")]
    moment = moment_for(rules, in_lair, seats)
    public = PRESENTER.prompt(moment)
    assert public is not None and "lair" not in public.text
    labels = [b.label.lower() for b in public.buttons]
    assert not any("monster" in x or "story card" in x for x in labels)
    assert any(b.view == "hand" for b in public.buttons)
    mine_panel = PRESENTER.private("hand", moment, 0)
    assert mine_panel is not None and mine_panel.prompt is not None
    assert any("monster" in b.label.lower() for b in mine_panel.prompt.buttons)
    assert "lair" in mine_panel.text
    assert PRESENTER.private("hand", moment, 1) is None


def test_meta_marks_secret_free_and_undoable() -> None:
    assert RULESET.meta(Pick(hero="labienus", side=1, weapon="pilum")).secret
    assert not RULESET.meta(Pick(hero="labienus", side=1, weapon="pilum")).free  # the buy-or-pass prompt follows
    assert RULESET.meta(Buy(item="gladius")).secret and RULESET.meta(Pass()).secret
    assert RULESET.meta(Play(card="head", target=0)).secret
    assert not RULESET.meta(Attack()).secret and not RULESET.meta(Attack()).undoable
    assert not RULESET.meta(Voyage(to="aegyptus")).undoable
    assert RULESET.meta(Develop(attribute="life")).undoable and RULESET.meta(Use(item="x")).undoable


def test_old_button_values_still_parse() -> None:
    game, state = lair_state()
    rules = champion_rules(game)
    codec = rules.codec
    assert codec.parse(state, 0, Command.decode("commission?reward=xp")).reward == "xp"  # type: ignore[union-attr]
    here = state.heroes[0].province
    near = game.lib.near[here][0]
    assert codec.parse(state, 0, Command.decode(f"explore?path={near}")).path == (near,)  # type: ignore[union-attr]
    assert codec.parse(state, 0, Command.decode(f"caravan?to={near}")).to == near  # type: ignore[union-attr]
    name = game.lib.province[near].name.upper()
    assert codec.parse(state, 0, Command.of("caravan", to=name)).to == near  # type: ignore[union-attr]
    with pytest.raises(IllegalAction, match="has no `/fly`"):
        codec.parse(state, 0, Command.of("fly"))
    with pytest.raises(IllegalAction, match="xp"):
        codec.parse(state, 0, Command.of("commission", reward="fame"))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2))
def test_presenter_tells_every_moment_of_a_game(seed: int) -> None:
    options = OPTIONS[seed]
    n = 3 if seed else 2
    seats = [SeatName(i, 100 + i, f"P{i}") for i in range(n)]
    for k, (before, seat, action, after, events) in enumerate(random_game(n, options, seed + 30)):
        moment = moment_for(RULESET, after, seats, events=events, actor=seat, action=action, _before=before)
        pictures = k % 25 == 0 or RULESET.outcome(after) is not None
        if pictures:
            told = PRESENTER.telling(moment)
            assert told.text
            # the map comes at the end of an action (a new turn, the end), never per card of a fight
            assert any(p.filename == "map.png" for p in told.pictures) == (
                RULESET.view(after, None).phase in ("action", "over"))
            assert PRESENTER.status(moment).text
            for s in range(n):
                PRESENTER.private("sheet", moment, s)
        else:
            told_text(moment)
        for s in range(n):
            panel = PRESENTER.private("hand", moment, s)
            if panel is not None and panel.prompt is not None:
                for b in panel.prompt.buttons:
                    assert b.command is None or len(b.command.encode()) <= 70
        prompt = PRESENTER.prompt(moment)
        if RULESET.outcome(after) is None:
            assert prompt is not None and prompt.users
            for menu in prompt.menus:
                assert len(menu.choices) <= 25


def told_text(moment: Any) -> None:
    """The words of a telling without drawing the map (fast)."""
    from rules.champion.telling import tell

    view = moment.view()
    assert isinstance(tell(view, moment.events), list)
