"""Champion's words after issue 22: a story card with one outcome is not framed as chosen, a choice tells what
each option costs or risks, the initiative marks the rolled number, the hero's own player is never asked to
"name an opponent you play", the XP a fight has earned shows at once, and a list of region cards reads as its
count (a region's name may hold commas)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.present.base import SeatName
from bot.present.champion import PRESENTER
from bot.service.moment import GameMoment
from render.champion import render_story
from render.common import drawing
from rules.champion import RULESET as R
from rules.champion.content import library
from rules.champion.state import Play
from rules.core import IllegalAction, Rng, SeatInfo
from rules.i18n import using

NAMES = ("Ann", "Bob", "Cy")


def test_a_story_card_with_one_outcome_is_not_framed_as_chosen() -> None:
    single = next(s for s in library().story.values() if len(s.outcome) == 1 and not s.roll)
    with using("en"), drawing() as drawn:
        told = render_story(single, chosen=0)
    assert told == render_story(single)
    assert not [d for d in drawn if d.text in ("CHOSEN", "ROLLED")]
    several = next(s for s in library().story.values() if len(s.outcome) > 1 and not s.roll)
    with using("en"), drawing() as drawn:
        render_story(several, chosen=1)
    assert [d for d in drawn if d.text == "CHOSEN"]


def _fight(seed: int = 4) -> Any:
    """A real game played by Tabula until a hero stands in a fight at the step of their own attack, an
    opponent already slain in it."""
    state = R.setup([SeatInfo(i, NAMES[i]) for i in range(2)], {"opponents": "bot"}, seed).state
    rng = Rng(seed)
    for _ in range(20_000):
        c = state.combat
        if state.phase == "combat" and c is not None and c.step == "hero_attack" and c.xp > 0:
            return state
        assert R.outcome(state) is None, "the seeded game ended before such a fight"
        seat = min(R.to_act(state))
        state = R.apply(state, seat, R.policy(state, seat, rng)).state
    raise AssertionError("no such fight")


def test_the_xp_a_fight_has_earned_shows_at_once_and_the_hero_is_told_what_to_do() -> None:
    state = _fight()
    hero = next(iter(R.to_act(state)))
    view = R.view(state, None)
    assert view.heroes[hero].xp == state.heroes[hero].xp + state.combat.xp
    with using("en"), pytest.raises(IllegalAction) as refused:
        R.apply(state, hero, Play(card="head", target=0, foe=0))
    assert "none" not in str(refused.value) and "The hero attacks now" in str(refused.value)


@pytest.mark.parametrize("lang", ["en", "hu", "el", "ja"])
def test_a_list_of_region_cards_reads_as_its_count(lang: str) -> None:
    state = R.setup([SeatInfo(i, NAMES[i]) for i in range(2)], {"opponents": "bot"}, 4).state
    rng = Rng(4)
    while not (state.phase == "action" and state.heroes[0].hero and len(state.heroes[0].regions) > 2):
        seat = min(R.to_act(state))
        state = R.apply(state, seat, R.policy(state, seat, rng)).state
    regions = state.heroes[0].regions
    moment = GameMoment(game_id=1, rules=R, _state=state, seats=[SeatName(i, 100 + i, NAMES[i]) for i in range(2)])
    with using(lang):
        text = PRESENTER.sheet(moment, 0).text
        separator = R.words.pgettext("list", "; ")
    names = [library().region[r].name for r in regions]
    line = next(x for x in text.splitlines() if str(len(regions)) in x and separator in x)
    assert line.count(separator) == len(regions) - 1, line
    if lang == "en":
        assert "; ".join(names) in line
