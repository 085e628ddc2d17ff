"""Autokrator's words and map after issue 22: who won and why (the tie-break too) on the final map and in the
summary, unit marks that never repeat a realm's shield letter, a prompt that says when a rule forces the move,
and the regions a move changed ringed on the map and named under it."""

from __future__ import annotations

import io

import msgspec
import pytest
from PIL import Image

from bot.present.autokrator import PRESENTER, changed
from bot.present.base import SeatName
from bot.service.moment import GameMoment
from render import autokrator as art
from render.autokrator import board
from render.common import drawing
from rules.autokrator.content import library
from rules.autokrator.i18n import OVER_FIFTH
from rules.autokrator.state import BattleFought, Conquered, Moved
from rules.autokrator.telling import why_won
from rules.core import Rng
from rules.i18n import using
from tests.autokrator_helpers import NAMES, R, deal, new_game, scene
from tests.picture_check import cold_caches, problems

LANGS = ("en", "hu", "el", "ja")


def _ended(scores: dict[str, tuple[int, int, int]], winner: str) -> object:
    """The public view of a finished game with each realm's (points, conquests held, gold) as given."""
    view = R.view(deal(new_game()), None)
    realms = tuple(msgspec.structs.replace(r, score=scores[r.key][0], conquests=scores[r.key][1],
                                           treasury=scores[r.key][2]) for r in view.realms)
    return msgspec.structs.replace(view, realms=realms, winner=winner, reason=OVER_FIFTH, phase="over")


@pytest.mark.parametrize(("scores", "said"), [
    ({"sar": (12, 14, 3), "byz": (10, 15, 9), "fra": (7, 10, 1), "moo": (9, 12, 2)}, "the most points (12)"),
    ({"sar": (10, 14, 3), "byz": (10, 12, 9), "fra": (7, 10, 1), "moo": (9, 12, 2)},
     "level on points (10) with the Byzantine Empire; more conquests held decide (14 to 12)"),
    ({"sar": (10, 12, 5), "byz": (10, 12, 4), "fra": (10, 11, 9), "moo": (9, 12, 2)},
     "level on points (10) and conquests held (12) with the Byzantine Empire; more gold decides (5 to 4)"),
    ({"sar": (8, 12, 5), "byz": (8, 12, 5), "fra": (7, 11, 9), "moo": (1, 12, 2)},
     "level on points (8), conquests held and gold with the Saracens; the later place in the turn order "
     "decides"),
])
def test_the_winner_is_told_with_the_reason_and_the_tie_break(scores: dict[str, tuple[int, int, int]],
                                                              said: str) -> None:
    view = _ended(scores, "byz" if said.endswith("decides") and "Saracens" in said else "sar")
    with using("en"):
        assert why_won(view) == said  # type: ignore[arg-type]


def test_a_game_level_on_points_says_why_the_winner_won_in_the_summary_and_on_the_final_map() -> None:
    """A whole seeded game that ends level on points: the summary names the tie-break, and the final map
    marks the winner (the picture check reads the mark) in every language."""
    state = deal(new_game(seed=19))
    rng = Rng(19)
    while R.outcome(state) is None:
        seat = min(R.to_act(state))
        state = R.apply(state, seat, R.policy(state, seat, rng)).state
    scores = sorted((r.score for r in state.realms.values()), reverse=True)
    assert scores[0] == scores[1], "seed 19 is a game that ends level on points"
    with using("en"):
        summary = R.outcome(state).summary
    assert summary.startswith("Victory to the ") and "level on points" in summary and " win:" not in summary
    for lang in LANGS:
        with using(lang), cold_caches(), drawing() as drawn:
            png = art.render_board(R.view(state, None), title="Autokrator · #19")
        size = Image.open(io.BytesIO(png)).size
        assert [d for d in drawn if d.kind == "winner"], lang
        assert problems(drawn, size, final=True) == [], lang


@pytest.mark.parametrize("lang", LANGS)
def test_unit_marks_never_repeat_a_realms_shield_letter(lang: str) -> None:
    with using(lang):
        units = {board.letter(u) for u in ("king", "general", "admiral")}
        realms = {board.realm_letter(r) for r in library().realms}
    assert len(units) == 3 and len(realms) == len(library().realms)
    assert not units & realms, (lang, units & realms)


def _must_attack() -> GameMoment:
    """The Frankish King marched into a region of the Saracens: he stands on hostile ground."""
    state = scene(deal(new_game()), turn="fra", units={"fra.king": "antioch"}, owner={"antioch": "sar"})
    state = msgspec.structs.replace(state, current="king")
    seats = [SeatName(i, 100 + i, NAMES[i]) for i in range(4)]
    return GameMoment(game_id=1, rules=R, _state=state, seats=seats)


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "your King stands on hostile ground in Antioch, so the rules make him attack it now"),
    ("hu", "ellenséges földön áll"), ("el", "εχθρικό έδαφος"), ("ja", "敵地")])
def test_a_forced_attack_is_said_to_be_forced_and_why(lang: str, said: str) -> None:
    moment = _must_attack()
    seat = R.to_act(moment.state)
    choices = moment.choices(min(seat))
    assert choices and all(c.command.verb == "attack" for c in choices)
    with using(lang):
        prompt = PRESENTER.prompt(moment)
    assert prompt is not None and said in prompt.text
    assert "march, sail, attack or rest" not in prompt.text


def test_the_regions_a_move_changed_are_ringed_and_named_under_the_map() -> None:
    events = [Moved(realm="fra", unit="king", frm="aachen", to="bavaria"),
              Conquered(realm="fra", region="bavaria", former="", piece=True)]
    assert changed(events) == ("bavaria",)
    fought = BattleFought(region="venice", field="plain", attacker="fra", attacker_unit="admiral", defender="",
                          defender_unit="neutral", clashes=(), swords=(0, 0), troops=(0, 0), points=(0, 0),
                          attacker_won=False)
    assert changed([fought, Moved(realm="fra", unit="general", frm="paris", to="burgundy")]) == ("venice",
                                                                                                  "burgundy")
    view = R.view(deal(new_game()), None)
    with using("en"), drawing() as drawn:
        plain = Image.open(io.BytesIO(art.render_board(view)))
        ringed = Image.open(io.BytesIO(art.render_board(view, changed=("bavaria", "venice"))))
    assert ringed.height == plain.height + board.CAPTION_H
    assert any(d.text == "Changed this move (ringed in gold): Bavaria, Venice" for d in drawn)
