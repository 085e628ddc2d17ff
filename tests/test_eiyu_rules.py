"""The Heroes' Road: the book's rules one by one, its ranking example, and random play to the end."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.core import GameError, IllegalAction, NotYourTurn, Rng
from rules.eiyu import RULESET as R
from rules.eiyu.content import ACT, WAIT, library
from rules.eiyu.engine.scores import area_awards, has_troops, rank, scores
from rules.eiyu.state import (
    Building,
    ChooseCity,
    Lock,
    Moved,
    Recruited,
    Reveal,
    SetOrder,
    SetRow,
    Shown,
    TakeRewards,
    Waited,
)
from tests.eiyu_helpers import new_game, place_all, play, with_players

LIB = library()


# --- the map and the components ------------------------------------------------------------------------


def test_every_city_has_three_roads_of_different_colours_and_city_1_is_as_the_book_says() -> None:
    for c in LIB.cities:
        colours = [r.colour for r in LIB.roads if c.id in (r.a, r.b)]
        assert len(colours) == 3 and len(set(colours)) == 3, c
    assert LIB.road(1, "red") == 8
    assert LIB.road(1, "lightblue") is None


def test_recruitment_sides_run_weakest_first_and_chips_have_three_rewards() -> None:
    for chip in LIB.chips:
        assert list(chip.soldiers) == sorted(chip.soldiers) and chip.soldiers
        assert chip.needs and min(chip.building, chip.gold, chip.fame) > 0
    assert [s.name for s in LIB.soldiers] == ["peasant levy", "archer", "infantry", "priest"]
    assert sum(1 for a in LIB.areas if a.hidden) == 1
    for c in LIB.cities:
        assert LIB.areas_of(c.id), c


# --- the ranking example ------------------------------------------------------------------------------------


def test_the_books_ranking_example_d_wins() -> None:
    points = {"fame": [10, 15, 20, 12], "gold": [20, 10, 18, 15], "building": [30, 20, 11, 11]}
    events, winner = rank(["fame", "gold", "building"], points, [0, 0, 10, 10], start=2, players=4, dummy=False)
    assert [e.out for e in events] == [0, 1, 2]  # A out, then B, then C: D wins
    assert winner == 3
    assert events[0].order == (2, 1, 3, 0)  # C > B > D > A
    assert events[1].order == (2, 3, 1)  # C > D > B
    assert events[2].why == "start"


def test_the_books_ranking_example_from_a_finished_game_state() -> None:
    """The same example played through the engine: the scores arranged on a four-player state, C start player."""
    state = new_game(4, seed=3, names=["A", "B", "C", "D"])
    state = place_all(state, [1, 2, 3, 4])
    towers = {0: [4, 4, 4], 1: [4, 4], 2: [4, 1], 3: [4, 1]}  # 30, 20, 11, 11 building points
    buildings = [Building() for _ in LIB.cities]
    city = 0
    for seat, levels in towers.items():
        for lv in levels:
            buildings[city] = Building(owner=seat, levels=lv)
            city += 1
    state = with_players(state, renown=[10, 15, 20, 12], gold=[20, 10, 18, 15],
                         soldiers=[[], [1], [1] * 10, [2] * 10])
    state = msgspec.structs.replace(state, buildings=buildings, ranking=["fame", "gold", "building"], start=2,
                                    year=LIB.years, fame={k: [0] * 4 for k in state.fame})
    points = scores(state)
    assert points == {"fame": [10, 15, 20, 12], "gold": [20, 10, 18, 15], "building": [30, 20, 11, 11]}
    for seat in range(4):
        state = R.apply(state, seat, SetRow(orders=tuple([WAIT] * LIB.slots), lock=True)).state
    assert state.phase == "show"  # the last year ends with a show of strength: nobody shows anything
    for seat in sorted(R.to_act(state)):
        state = R.apply(state, seat, Reveal(types="")).state
    assert state.phase == "over"
    assert state.out == [0, 1, 2] and state.winner == 3
    outcome = R.outcome(state)
    assert outcome is not None and outcome.winners == (3,) and "D" in outcome.summary


def test_a_tie_for_last_goes_against_fewer_soldiers_and_the_dummy_loses_ties() -> None:
    points = {"fame": [5, 5, 5], "gold": [1, 1, 1], "building": [0, 0, 0]}
    events, winner = rank(["fame", "gold", "building"], points, [3, 2], start=0, players=2, dummy=True)
    assert events[0].out == 2 and events[0].why == "dummy"
    assert events[1].out == 1 and events[1].why == "soldiers"
    assert winner == 0


def test_five_players_rank_again_from_the_first_score() -> None:
    points = {"fame": [1, 2, 3, 4, 5], "gold": [5, 4, 3, 2, 1], "building": [1, 1, 5, 5, 1]}
    events, winner = rank(["fame", "gold", "building"], points, [0] * 5, start=0, players=5, dummy=False)
    assert [e.track for e in events] == ["fame", "gold", "building", "fame"]
    assert len(events) == 4 and winner not in [e.out for e in events]


# --- programming and resolution -------------------------------------------------------------------------


def _ready(players: int = 2, cities: list[int] | None = None, seed: int = 1) -> object:
    return place_all(new_game(players, seed=seed), cities or [1, 8][:players] + [3, 4, 5][: max(0, players - 2)])


def test_the_first_start_player_is_drawn_at_random() -> None:
    drawn = {new_game(4, seed=seed, start=None).start for seed in range(12)}
    assert len(drawn) > 1


def test_cities_are_chosen_in_seat_order_then_everyone_programs_at_once() -> None:
    state = new_game(3)
    assert R.to_act(state) == {0}
    with pytest.raises(NotYourTurn):
        R.apply(state, 1, ChooseCity(city=2))
    state = place_all(state, [1, 1, 5])
    assert state.phase == "program" and R.to_act(state) == {0, 1, 2}
    assert all(p.row == [ACT] * LIB.slots for p in state.players)  # every dial starts on ■


def test_a_row_can_be_changed_until_locked_and_stays_secret() -> None:
    state = _ready(2)
    before = R.moment(state)
    state = R.apply(state, 0, SetOrder(slot=0, order="red")).state
    state = R.apply(state, 0, SetOrder(slot=0, order="blue")).state
    assert state.players[0].row[0] == "blue"
    assert R.moment(state) == before  # nobody's controls go stale
    assert "blue" not in msgspec.json.encode(R.view(state, None)).decode()
    assert "blue" not in msgspec.json.encode(R.view(state, 1)).decode()
    assert R.view(state, 0).secret is not None and R.view(state, 0).secret.row[0] == "blue"
    state = R.apply(state, 0, Lock()).state
    assert R.to_act(state) == {1}
    with pytest.raises(IllegalAction, match="locked in"):
        R.apply(state, 0, SetOrder(slot=1, order="red"))


def test_orders_resolve_slot_by_slot_in_seat_order_and_a_missing_colour_is_a_wait() -> None:
    state = _ready(2, [1, 8])
    state = R.apply(state, 0, SetRow(orders=("red", "lightblue", WAIT, WAIT, WAIT, WAIT), lock=True)).state
    step = R.apply(state, 1, SetRow(orders=("red", WAIT, WAIT, WAIT, WAIT, WAIT), lock=True))
    moves = [e for e in step.events if isinstance(e, (Moved, Waited))]
    assert (moves[0].seat, moves[0].slot) == (0, 0) and isinstance(moves[0], Moved) and moves[0].to == 8
    assert (moves[1].seat, moves[1].slot) == (1, 0) and isinstance(moves[1], Moved) and moves[1].to == 1
    # P0 now stands in 8, which has a light-blue road (to 7); P1 in 1 waits: no light-blue road from city 1
    assert isinstance(moves[2], Moved) and moves[2].to == 7
    assert isinstance(moves[3], Waited) and moves[3].seat == 1 and moves[3].why == "wait"
    assert step.state.year == 2 and step.state.start == 1  # the start player passes to the left


def test_recruit_takes_the_weakest_once_per_city_per_year() -> None:
    state = _ready(2, [1, 1])
    chip = LIB.chip(state.slot[0])
    assert LIB.city(1).kind == "recruit"
    step = R.apply(state, 0, SetRow(orders=(ACT, ACT, WAIT, WAIT, WAIT, WAIT), lock=True))
    step = R.apply(step.state, 1, SetRow(orders=(ACT, WAIT, WAIT, WAIT, WAIT, WAIT), lock=True))
    got = [e for e in step.events if isinstance(e, Recruited)]
    assert [(e.seat, e.soldier) for e in got] == [(0, chip.soldiers[0]), (1, chip.soldiers[1])]
    again = [e for e in step.events if isinstance(e, Waited) and e.seat == 0 and e.slot == 1]
    assert again and again[0].why == "acted"


def test_a_hunt_needs_exactly_the_printed_soldiers() -> None:
    assert has_troops([1, 2, 3], [1, 3])
    assert not has_troops([2, 4], [1, 3])  # stronger soldiers never stand in
    assert not has_troops([1], [1, 1])


def test_a_hunt_spends_the_troops_and_the_hunter_takes_two_rewards() -> None:
    state = _ready(2, [2, 3])  # city 2 holds a monster
    chip = LIB.chip(state.slot[1])
    state = with_players(state, soldiers=[[*sorted(chip.needs), 4], []])
    state = R.apply(state, 0, SetRow(orders=(ACT, WAIT, WAIT, WAIT, WAIT, WAIT), lock=True)).state
    state = R.apply(state, 1, SetRow(orders=tuple([WAIT] * 6), lock=True)).state
    assert state.phase == "reward" and R.to_act(state) == {0}
    assert state.players[0].soldiers == [4]
    assert state.slot[1] != LIB.chips.index(chip) and LIB.chips.index(chip) in state.recruit_pile
    choices = R.legal(state, 0)
    assert all(isinstance(c, TakeRewards) and c.first != c.second for c in choices)
    with pytest.raises(IllegalAction):
        R.apply(state, 0, TakeRewards(first="gold", second="gold"))
    state = R.apply(state, 0, TakeRewards(first="building", second="gold")).state
    assert state.players[0].gold == chip.gold
    assert state.buildings[1].owner == 0 and state.buildings[1].levels == chip.building
    assert state.phase == "dummy"  # two players: the hunter raises the dummy
    d = list(state.dummy or [])
    state = R.apply(state, 0, R.codec.parse(state, 0, R.codec.encode(state, 0, R.legal(state, 0)[1]))).state
    assert state.dummy is not None and state.dummy[1] == d[1] + LIB.dummy.gold_step


def test_another_players_building_blocks_and_the_chips_are_kept() -> None:
    state = _ready(2, [2, 3])
    chip = LIB.chip(state.slot[1])
    buildings = list(state.buildings)
    buildings[1] = Building(owner=1, levels=1)
    state = msgspec.structs.replace(with_players(state, soldiers=[sorted(chip.needs), []]), buildings=buildings)
    state = R.apply(state, 0, SetRow(orders=(ACT, WAIT, WAIT, WAIT, WAIT, WAIT), lock=True)).state
    state = R.apply(state, 1, SetRow(orders=tuple([WAIT] * 6), lock=True)).state
    state = R.apply(state, 0, TakeRewards(first="building", second="gold")).state
    assert state.players[0].held == chip.building and state.buildings[1].owner == 1


def test_fame_in_the_hidden_centre_is_secret_until_the_end() -> None:
    state = _ready(2, [10, 3])  # city 10 holds a monster and touches the centre
    chip = LIB.chip(state.slot[9])
    state = with_players(state, soldiers=[sorted(chip.needs), []])
    state = R.apply(state, 0, SetRow(orders=(ACT, WAIT, WAIT, WAIT, WAIT, WAIT), lock=True)).state
    state = R.apply(state, 1, SetRow(orders=tuple([WAIT] * 6), lock=True)).state
    step = R.apply(state, 0, TakeRewards(first="gold", second="fame", area="centre"))
    assert step.state.players[0].central == chip.fame
    assert R.view(step.state, None).centre is None and R.view(step.state, 1).secret.central == 0
    assert all("centre" not in msgspec.json.encode(e).decode() for e in step.events)


def test_area_awards_first_and_second_with_ties() -> None:
    assert area_awards([3, 1, 0], 4, 2) == [4, 2, 0]
    assert area_awards([2, 2, 1], 4, 2) == [4, 4, 2]
    assert area_awards([0, 0, 0], 4, 2) == [0, 0, 0]


def test_a_show_of_strength_rewards_the_most_shown_of_each_type() -> None:
    state = _ready(2, [4, 8])  # two fields: nothing to do there
    state = with_players(state, soldiers=[[1, 1, 2], [1, 2, 2]])
    state = msgspec.structs.replace(state, year=LIB.year_track.shows[0])
    for seat in range(2):
        state = R.apply(state, seat, SetRow(orders=tuple([WAIT] * 6), lock=True)).state
    assert state.phase == "show" and R.to_act(state) == {0, 1}
    assert {a.types for a in R.legal(state, 0)} == {"", "1", "2", "12"}
    state = R.apply(state, 0, Reveal(types="12")).state
    assert state.phase == "show" and R.view(state, 1).secret.reveal is None
    step = R.apply(state, 1, Reveal(types="2"))
    shown = next(e for e in step.events if isinstance(e, Shown))
    assert shown.shown == ((2, 1, 0, 0), (0, 2, 0, 0))
    assert shown.winners[:2] == (0, 1)
    assert step.state.players[0].soldiers == [1, 1, 2]  # shown soldiers are kept


def test_titans_wake_and_can_be_fought_where_nothing_else_is_done() -> None:
    state = _ready(2, [4, 8])
    state = msgspec.structs.replace(with_players(state, soldiers=[[1, 1, 2, 3], []]), year=LIB.titans[0].wakes - 1)
    for seat in range(2):
        state = R.apply(state, seat, SetRow(orders=tuple([WAIT] * 6), lock=True)).state
    assert state.titans[0] == "awake"
    state = R.apply(state, 0, SetRow(orders=(ACT, WAIT, WAIT, WAIT, WAIT, WAIT), lock=True)).state
    state = R.apply(state, 1, SetRow(orders=tuple([WAIT] * 6), lock=True)).state
    assert state.titans[0] == "slain"
    assert state.players[0].soldiers == [3]  # the weakest paid
    assert state.players[0].renown == LIB.titans[0].fame


# --- random play --------------------------------------------------------------------------------------------


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(min_value=2, max_value=5), short=st.booleans(), seed=st.integers(0, 2**32))
def test_random_play_always_ends_with_one_winner_and_replays(players: int, short: bool, seed: int) -> None:
    start = new_game(players, short=short, seed=seed, start=None)
    final, log = play(start, Rng(seed))
    assert final.phase == "over" and final.winner is not None
    assert len(final.out) == players + (1 if final.dummy is not None else 0) - 1
    again = start
    for seat, action in log:
        again = R.apply(again, seat, action).state
    assert msgspec.json.encode(again) == msgspec.json.encode(final)
    assert msgspec.json.decode(msgspec.json.encode(final), type=type(final)) == final
    with pytest.raises(GameError):
        R.apply(final, 0, Lock())


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(min_value=2, max_value=5), seed=st.integers(0, 2**32))
def test_no_row_or_hidden_fame_reaches_anyone_else_before_it_is_revealed(players: int, seed: int) -> None:
    def visit(state: object, seat: int, action: object, step: object) -> None:
        before, after = state, step.state  # type: ignore[attr-defined]
        for owner in range(players):
            p = after.players[owner]
            public = R.view(after, None)
            others = [R.view(after, s) for s in range(players) if s != owner]
            for view in [public, *others]:
                shown = view.players[owner].resolved
                assert tuple(p.row[: len(shown)]) == shown
                if after.phase != "over":
                    assert view.centre is None
                    assert view.secret is None or view.secret.central == after.players[view.me].central
        del before

    play(new_game(players, seed=seed), Rng(seed), visit=visit)
