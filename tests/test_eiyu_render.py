"""The Heroes' Road's pictures and public texts: the map and the private panel are valid, legible PNGs, and
no public message (text or alt text) shows a row before it resolves or the hidden centre before the end."""

from __future__ import annotations

import io

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from bot.present.base import SeatName
from bot.present.eiyu import PRESENTER
from bot.service.moment import moment_for
from render.eiyu import render_board, render_panel
from rules.core import Rng
from rules.eiyu import RULESET as R
from rules.eiyu.state import AutoRow, Lock, SetOrder, SetRow
from tests.eiyu_helpers import new_game, place_all, play

ROW_WORDS = ("red road", "yellow road", "blue road", "light-blue road", "purple road", "row:", "order:")


def seats(n: int) -> list[SeatName]:
    return [SeatName(i, 100 + i, f"P{i}") for i in range(n)]


def test_the_map_and_the_panel_are_pngs_of_the_expected_size() -> None:
    state = place_all(new_game(3, seed=2, names=["Ann", "Bob", "山田"]), [1, 9, 6])
    png = render_board(R.view(state, None), paths=[[1, 8], [9, 10, 4], [6]], title="The Heroes' Road · #1")
    img = Image.open(io.BytesIO(png))
    assert img.size == (1000, 1322) and len(png) < 400_000
    panel = render_panel(R.view(state, 0), 0, ["act", "red", "blue", "act", "wait", "act"], [1, 8, 12, 12, 12, 12])
    assert Image.open(io.BytesIO(panel)).size == (1000, 1322)


def test_the_private_panel_is_only_its_owners() -> None:
    state = place_all(new_game(2, seed=2), [1, 9])
    state = R.apply(state, 0, SetOrder(slot=1, order="red")).state
    moment = moment_for(R, state, seats(2))
    mine = PRESENTER.private("hand", moment, 0)
    theirs = PRESENTER.private("hand", moment, 1)
    assert mine is not None and theirs is not None
    assert "`2` red road — → 8 Yamabe" in mine.text and "red road — → 8" not in theirs.text
    assert mine.prompt is not None and len(mine.prompt.menus) <= 4  # with the buttons: at most 5 rows
    assert all(len(m.choices) <= 25 for m in mine.prompt.menus)
    assert [p.filename for p in mine.pictures] == ["orders.png"]


@pytest.mark.slow
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(min_value=2, max_value=5), seed=st.integers(0, 2**32))
def test_no_public_message_shows_a_row_or_the_hidden_centre_before_its_time(players: int, seed: int) -> None:
    def visit(before: object, seat: int, action: object, step: object) -> None:
        after = step.state  # type: ignore[attr-defined]
        moment = moment_for(R, after, seats(players), events=step.events, actor=seat,  # type: ignore[attr-defined]
                            action=action, _before=before)
        told = PRESENTER.telling(moment)
        text = told.text + " ".join(p.alt for p in told.pictures)
        resolving = any(type(e).__name__ == "Resolving" for e in step.events)  # type: ignore[attr-defined]
        if isinstance(action, (SetOrder, SetRow, Lock, AutoRow)) and not resolving:
            assert not any(w in text for w in ROW_WORDS), text
        if after.phase != "over":
            assert "Hidden Heartland" not in text and "centre" not in text, text

    play(new_game(players, seed=seed), Rng(seed), visit=visit, random_share=2)


def test_during_a_hunts_rewards_the_panel_shows_what_has_resolved() -> None:
    from rules.eiyu.content import library
    from tests.eiyu_helpers import with_players

    state = place_all(new_game(2, seed=2), [2, 4])
    state = with_players(state, soldiers=[sorted(library().chip(state.slot[1]).needs), []])
    state = R.apply(state, 0, SetRow(orders=("act", "wait", "red", "wait", "wait", "wait"), lock=True)).state
    state = R.apply(state, 1, SetRow(orders=tuple(["wait"] * 6), lock=True)).state
    assert state.phase == "reward"
    told = PRESENTER.private("hand", moment_for(R, state, seats(2)), 0)
    assert told is not None and "`1` ■ act ✓" in told.text and "`3` red road\n" in told.text + "\n"
    assert "Choose your rewards" in told.text
    public = PRESENTER.telling(moment_for(R, state, seats(2)))
    assert public.prompt is not None and len(public.prompt.buttons) == len(R.legal(state, 0))
