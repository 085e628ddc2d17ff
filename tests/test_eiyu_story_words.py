"""The Heroes' Road's story and prompts after issue 22: the first telling says what was drawn (never a bare
"—"), the hidden centre is revealed before the rankings it decides, the button that lets Tabula program a year
says that it locks the row in, and the panel's dials name a recruit as the story does."""

from __future__ import annotations

from bot.present.base import SeatName
from bot.present.eiyu import PRESENTER, short_effect
from bot.service.moment import GameMoment
from rules.core import Rng, SeatInfo
from rules.eiyu import RULESET as R
from rules.eiyu.auto import Preview
from rules.i18n import using

NAMES = ("Ann", "Bob", "Cy")


def _seats(n: int) -> list[SeatName]:
    return [SeatName(i, 100 + i, NAMES[i]) for i in range(n)]


def test_the_first_telling_says_what_was_drawn() -> None:
    start = R.setup([SeatInfo(index=i, name=NAMES[i]) for i in range(3)], R.check_options({}, 3), 3)
    moment = GameMoment(game_id=1, rules=R, _state=start.state, seats=_seats(3), events=tuple(start.events))
    for lang, said in (("en", "🎲 Drawn for this game: the rankings at the end go "), ("hu", "🎲 A sorsolás"),
                       ("el", "🎲 Κληρώθηκαν"), ("ja", "🎲 抽選の結果")):
        with using(lang):
            text = PRESENTER.telling(moment).text
        assert text.strip() != "—" and text.startswith(said), (lang, text)


def test_the_hidden_centre_is_revealed_before_the_rankings() -> None:
    state = R.setup([SeatInfo(index=i, name=NAMES[i]) for i in range(3)], R.check_options({}, 3), 3).state
    rng = Rng(3)
    while True:
        seat = min(R.to_act(state))
        action = R.policy(state, seat, rng)
        step = R.apply(state, seat, action)
        if R.outcome(step.state) is not None:
            break
        state = step.state
    moment = GameMoment(game_id=1, rules=R, _state=step.state, seats=_seats(3), events=tuple(step.events),
                        actor=seat, action=action, _before=state, status="finished")
    with using("en"):
        lines = PRESENTER.telling(moment).text.splitlines()
    reveal = next(i for i, line in enumerate(lines) if line.startswith("🔓 The Hidden Heartland is revealed"))
    scores = next(i for i, line in enumerate(lines) if line.startswith("📊 Final scores"))
    first_ranking = next(i for i, line in enumerate(lines) if line.startswith("🏆 **"))
    assert reveal < scores < first_ranking
    assert sum(1 for line in lines if line.startswith("🔓")) == 1


def test_letting_tabula_program_the_year_says_it_locks_the_row_in() -> None:
    state = R.setup([SeatInfo(index=i, name=NAMES[i]) for i in range(2)], R.check_options({}, 2), 2).state
    rng = Rng(2)
    while state.phase != "program":
        seat = min(R.to_act(state))
        state = R.apply(state, seat, R.policy(state, seat, rng)).state
    moment = GameMoment(game_id=1, rules=R, _state=state, seats=_seats(2))
    with using("en"):
        buttons = [b.label for b in PRESENTER.program_controls(moment, 0).buttons]
    assert "Let Tabula program and lock in my year" in buttons
    assert "Let Tabula program my year" not in buttons


def test_the_panels_dial_names_the_soldier_a_recruit_takes() -> None:
    with using("en"):
        assert short_effect(Preview(order="act", city=1, did="recruit 2")) == "archer"
        assert short_effect(Preview(order="act", city=1, did="recruit 1")) == "peasant levy"
    with using("ja"):
        assert short_effect(Preview(order="act", city=1, did="recruit 2")) == "弓兵"
