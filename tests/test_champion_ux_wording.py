"""Champion of the Empire's wording slips from a first game: labels that say what is paid, refusals that say
what to type, wounds named plainly, and the market saying why only **Leave** is offered."""

from __future__ import annotations

import pytest

from bot.present.base import SeatName
from bot.present.champion import PRESENTER
from bot.service.moment import moment_for
from rules.champion import RULESET
from rules.champion.state import Commission, State, Wound
from rules.champion.telling import tell
from rules.core import IllegalAction, SeatInfo
from rules.spec import Command
from tests.champion_helpers import labienus_and_jahmesz

LIB = RULESET.engine.lib
SEATS = [SeatName(0, 100, "Ann"), SeatName(1, 101, "Bob")]


def _started() -> State:
    return labienus_and_jahmesz(RULESET)


def test_the_commission_label_says_what_this_round_pays() -> None:
    state = _started()
    seat = state.order[state.turn]
    gold = Command.of("commission", reward="gold")
    assert RULESET.codec.label(state, seat, gold) == "Commission: +2 gold"
    state.event = next(e.id for e in LIB.events if e.name == "The Emperor Builds")
    assert RULESET.codec.label(state, seat, gold) == "Commission: +3 gold"
    assert RULESET.codec.label(state, seat, Command.of("commission", reward="xp")) == "Commission: +2 XP"
    step = RULESET.apply(state, seat, Commission(reward="gold"))
    assert step.state.heroes[seat].gold == state.heroes[seat].gold + 3


def test_a_voyage_or_caravan_without_a_destination_says_what_to_type() -> None:
    state = _started()
    seat = state.order[state.turn]
    state.heroes[seat].province = "latium"
    with pytest.raises(IllegalAction) as voyage:
        RULESET.codec.parse(state, seat, Command.of("voyage"))
    text = str(voyage.value)
    assert "`/voyage to:`" in text and "''" not in text and "Campania" in text and "more" in text
    with pytest.raises(IllegalAction) as caravan:
        RULESET.codec.parse(state, seat, Command.of("caravan"))
    assert "`/caravan to:`" in str(caravan.value) and "Etruria" in str(caravan.value)


def test_a_hero_named_alone_is_answered_with_the_whole_command() -> None:
    state: State = RULESET.setup([SeatInfo(0, "Ann"), SeatInfo(1, "Bob")], {}, 11).state
    with pytest.raises(IllegalAction) as err:
        RULESET.codec.parse(state, 0, Command.of("hero", hero="labienus"))
    text = str(err.value)
    assert "`/hero hero:labienus side:veteran weapon:pilum`" in text
    assert "Veteran" in text and "Signifer" in text and "Gladius" in text
    with pytest.raises(IllegalAction, match="the starting weapon"):
        RULESET.codec.parse(state, 0, Command.of("hero", hero="labienus", side="2"))


def test_an_inspired_wound_is_named_plainly() -> None:
    state = _started()
    view = RULESET.view(state, None)
    lines = tell(view, [Wound(who="hero", foe=-1, card="inspired", life=1, left=3, initiative=3)])
    assert "Inspired combat wound" not in lines[0] and "a wound from an Inspired combat card" in lines[0]


def test_a_market_with_nothing_affordable_says_why_only_leave_is_offered() -> None:
    state = _started()
    seat = state.order[state.turn]
    state.phase = "market"
    state.market = [i.id for i in LIB.items if i.price >= 2][:3]
    state.heroes[seat].gold = 0
    moment = moment_for(RULESET, state, SEATS)
    hand = PRESENTER.private("hand", moment, seat)
    assert hand is not None and hand.text[0].isupper() and hand.text.endswith(".")
    assert "0 gold" in hand.text and "only leave" in hand.text
    prompt = PRESENTER.telling(moment).prompt
    assert prompt is not None and "only leave" in prompt.text
    assert [b.label for b in prompt.buttons] == ["Leave the market"]
