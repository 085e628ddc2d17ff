"""Who plays which realm is the lobby's choice (`realms:`): drawn at random (the default), chosen in the order
the players joined (first come, first to choose), or bid for in secret with points — never "the host is always
the first realm"."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.front.offline import add_arguments, play
from rules.autokrator import RULESET as R
from rules.autokrator.content import library
from rules.autokrator.state import Bid, BidsOpened, Choose, RealmChosen, State
from rules.core import IllegalAction, NotYourTurn, SeatInfo

NAMES = ("Ann", "Bob", "Cleo", "Dara")


def _start(players: int, mode: str, realms: str | None, seed: int = 1) -> State:
    options: dict[str, object] = {"mode": mode}
    if realms is not None:
        options["realms"] = realms
    seats = [SeatInfo(index=i, name=NAMES[i]) for i in range(players)]
    state: State = R.setup(seats, R.check_options(options, players), seed).state
    return state


def test_by_default_the_realms_are_drawn_so_the_host_is_not_always_the_first() -> None:
    assert R.check_options({"mode": "west"}, 2)["realms"] == "random"
    hosts = {(mode, _start(2 if mode in ("east", "west") else 4, mode, None, seed).seats[0])
             for mode in ("east", "west", "full") for seed in range(40)}
    assert {r for m, r in hosts if m == "west"} == {"fra", "moo"}
    assert {r for m, r in hosts if m == "east"} == {"sar", "byz"}
    assert {r for m, r in hosts if m == "full"} == {"sar", "byz", "fra", "moo"}
    state = _start(4, "full", "random", 3)
    assert state.phase == "assign" and sorted(state.seats) == sorted(state.order)
    assert all(state.realms[k].seat == state.seats.index(k) for k in state.order)


def test_by_choice_the_first_to_join_chooses_first_and_the_last_takes_what_is_left() -> None:
    state = _start(4, "full", "choice")
    assert state.phase == "realms" and state.seats == ["", "", "", ""]
    assert R.to_act(state) == {0}
    assert R.legal(state, 0) == [Choose(realm=k) for k in ("sar", "byz", "fra", "moo")]
    with pytest.raises(NotYourTurn):
        R.apply(state, 1, Choose(realm="sar"))
    state = R.apply(state, 0, Choose(realm="moo")).state
    assert R.to_act(state) == {1} and Choose(realm="moo") not in R.legal(state, 1)
    with pytest.raises(IllegalAction, match="still free"):
        R.apply(state, 1, Choose(realm="moo"))
    state = R.apply(state, 1, Choose(realm="byz")).state
    step = R.apply(state, 2, Choose(realm="sar"))
    chosen = [e for e in step.events if isinstance(e, RealmChosen)]
    assert [(e.seat, e.realm, e.last) for e in chosen] == [(2, "sar", False), (3, "fra", True)]
    state = step.state
    assert state.phase == "assign" and state.seats == ["moo", "byz", "sar", "fra"]
    assert {k: state.realms[k].seat for k in state.order} == {"sar": 2, "byz": 1, "fra": 3, "moo": 0}
    start = library().numbers.start["full"]  # no bid paid: each realm has only its compensation, if any
    assert all(state.realms[k].score == start.get(k, 0) for k in state.order)


def test_by_auction_the_bids_are_secret_the_highest_chooses_first_and_pays_in_points() -> None:
    state = _start(2, "west", "auction")
    assert state.phase == "realms" and R.to_act(state) == {0, 1}
    assert R.legal(state, 1) == [Bid(points=p) for p in range(4)]  # rules.toml: max_bid = 3
    with pytest.raises(IllegalAction):
        R.apply(state, 1, Bid(points=4))
    state = R.apply(state, 1, Bid(points=2)).state
    assert R.to_act(state) == {0}
    assert R.view(state, 0).bid == -1 and R.view(state, 1).bid == 2  # only the bidder sees a bid
    assert R.view(state, None).bids == () and R.view(state, None).bidders == (1,)
    assert R.meta(Bid(points=2)).secret
    step = R.apply(state, 0, Bid(points=1))
    opened = next(e for e in step.events if isinstance(e, BidsOpened))
    assert opened.bids == (1, 2) and opened.order == (1, 0)
    state = step.state
    assert R.to_act(state) == {1} and R.view(state, None).bids == (1, 2)
    state = R.apply(state, 1, Choose(realm="moo")).state
    assert state.phase == "assign" and state.seats == ["fra", "moo"]
    assert (state.realms["moo"].score, state.realms["fra"].score) == (-2, -1)


def test_level_bids_are_ordered_by_a_draw() -> None:
    firsts = set()
    for seed in range(30):
        state = _start(4, "fast", "auction", seed)
        for seat in range(4):
            state = R.apply(state, seat, Bid(points=1)).state
        firsts.add(state.picks[0])
    assert firsts == {0, 1, 2, 3}


@pytest.mark.parametrize("realms", ["choice", "auction"])
def test_every_choice_before_the_war_reads_back_through_the_codec(realms: str) -> None:
    state = _start(4, "full", realms)
    while state.phase == "realms":
        seat = min(R.to_act(state))
        for action in R.legal(state, seat):
            command = R.codec.encode(state, seat, action)
            assert R.codec.parse(state, seat, command) == action
            assert R.codec.label(state, seat, command)
        state = R.apply(state, seat, R.legal(state, seat)[-1]).state
    assert state.phase == "assign" and sorted(state.seats) == sorted(state.order)


def test_tabula_bids_nothing_and_takes_a_realm_when_it_must() -> None:
    from rules.core import Rng

    state = _start(2, "east", "auction")
    assert R.policy(state, 0, Rng(1)) == Bid(points=0)
    state = R.apply(state, 0, Bid(points=0)).state
    state = R.apply(state, 1, Bid(points=0)).state
    seat = min(R.to_act(state))
    assert isinstance(R.policy(state, seat, Rng(2)), Choose)


async def test_in_the_terminal_the_players_choose_and_the_status_says_who_plays_which_realm(tmp_path: Path) -> None:
    import argparse

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    out = io.StringIO()
    args = parser.parse_args(["autokrator", "--players", "Ann,Bob", "--mode", "west", "--realms", "choice",
                              "--seed", "2", "--images", str(tmp_path)])
    assert await play(args, lines=["/realm realm:moo", "/game status", "/quit"], out=out) == 0
    text = out.getvalue()
    assert "Ann, choose your realm." in text, text[:3000]
    assert "[Take the Moors]" in text and "[Take the Franks]" in text
    assert "👑 Ann chooses the Moors." in text and "👑 Bob has the last realm left: the Franks." in text
    status = text.split("> /game status", 1)[-1] if "> /game status" in text else text.rsplit("> ", 2)[-2]
    assert "The Franks (Bob)" in status and "The Moors (Ann)" in status, status


def test_a_game_stored_before_the_lobby_chose_realms_keeps_its_seats_realms() -> None:
    """Options stored before `realms:` existed lack it: the seats keep the turn order's realms (as they were dealt
    then), so an old game replays as it was played; a new game's options always carry the lobby's choice."""
    seats = [SeatInfo(index=i, name=name) for i, name in enumerate(("Ann", "Bob", "Cy", "Dee"))]
    stored = {"mode": "full", "raids": False}  # what a game started before the option has in its options
    old = R.setup(seats, stored, 7).state
    assert old.seats == list(old.order[:4])
    assert R.check_options(stored, 4)["realms"] == "random"  # a new game's options name how realms were dealt
    drawn = [R.setup(seats, R.check_options(stored, 4), seed).state for seed in range(1, 6)]
    assert any(s.seats != list(s.order[:4]) for s in drawn)  # drawn: the host is not always the first realm
