"""Champion of the Empire setup keeps each player's pick private: the hero is public at once (first come, first
served), the side of the sheet, the starting weapon and the item offer are revealed when everyone is ready."""

from __future__ import annotations

from bot.present.base import SeatName
from bot.present.champion import PRESENTER
from bot.service.moment import moment_for
from rules.champion import RULESET
from rules.champion.state import Buy, Pass, Pick, State
from rules.core import SeatInfo

SEATS = [SeatName(0, 100, "Ann"), SeatName(1, 101, "Bob"), SeatName(2, 102, "Cy")]


def _setup() -> State:
    state: State = RULESET.setup([SeatInfo(s.seat, s.name) for s in SEATS], {}, 7).state
    return state


def _told(before: State, seat: int, action: object) -> tuple[State, str, list[str]]:
    step = RULESET.apply(before, seat, action)  # type: ignore[arg-type]
    moment = moment_for(RULESET, step.state, SEATS, events=step.events, actor=seat, action=action, _before=before)
    telling = PRESENTER.telling(moment)
    prompt = telling.prompt.text if telling.prompt else ""
    return step.state, telling.text + "\n" + prompt, [p.filename for p in telling.pictures]


def test_the_side_weapon_and_offer_stay_private_until_everyone_is_ready() -> None:
    lib = RULESET.engine.lib
    state = _setup()
    state, text, _ = _told(state, 0, Pick(hero="tarsa", side=2, weapon="sica"))
    assert "Tarsa" in text and "Dacia" in text
    offer = state.heroes[0].offer
    secrets = ["Mountain scout", "Sica", "combat 6", *(lib.item[i].name for i in offer)]
    assert not [word for word in secrets if word in text]
    for seat in (None, 1, 2):  # nobody else sees the side, the weapon, the numbers or the offer
        other = RULESET.view(state, seat).heroes[0]
        assert other.hero == "tarsa" and other.province == "dacia"
        assert (other.side, other.weapon, other.items, other.life, other.gold) == (None, None, (), 0, 0)
    own = RULESET.view(state, 0)
    assert own.heroes[0].side == "Mountain scout" and own.secret is not None and own.secret.offer == tuple(offer)
    status = PRESENTER.status(moment_for(RULESET, state, SEATS)).text
    assert "Mountain scout" not in status and "Sica" not in status and "Tarsa" in status
    # Ann buys: the thread says she is ready, neither what she bought nor its picture
    buy = next(a for a in RULESET.legal(state, 0) if isinstance(a, Buy))
    state, text, pictures = _told(state, 0, buy)
    assert "ready" in text and lib.item[buy.item].name not in text
    assert not [p for p in pictures if p.startswith("item-")]
    # the prompt speaks to each player about their own step
    state, text, _ = _told(state, 1, Pick(hero="labienus", side=1, weapon="pilum"))
    assert "choose your hero" in text and "once your hero is chosen, buy one of the two items" in text
    state, text, _ = _told(state, 1, Pass())
    state, text, _ = _told(state, 2, Pick(hero="nikandros", side=1, weapon="kopis"))
    assert "Veteran" not in text and "Pilum" not in text
    state, text, _ = _told(state, 2, Pass())
    # everyone is ready: each hero's side, numbers, weapon and purchase are told
    assert state.phase != "setup"
    for word in ("Mountain scout", "Sica", lib.item[buy.item].name, "Veteran", "Pilum", "Kopis", "combat 6"):
        assert word in text, word


def test_a_secret_variant_changes_the_side_and_weapon_and_no_other_view() -> None:
    state = _setup()
    state = RULESET.apply(state, 0, Pick(hero="tarsa", side=2, weapon="sica")).state
    variants = list(RULESET.secret_variants(state, 0))
    changed = [v for v in variants if v.heroes[0].weapon != "sica"]
    assert changed, "the pick itself is a secret while others choose"
    for v in changed:
        assert v.heroes[0].side == 0 and v.heroes[0].weapon == "falx"
        for seat in (None, 1, 2):
            assert RULESET.view(v, seat) == RULESET.view(state, seat)
        assert RULESET.view(v, 0) != RULESET.view(state, 0)
