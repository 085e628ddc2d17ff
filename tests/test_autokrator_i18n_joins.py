"""Autokrator's lists, clauses, sentences and epoch numbers are written the way each language writes them: the
standings, treasuries, map description, hand description and refusals list with the language's comma (Japanese
"、"), clauses are parted by its semicolon (Greek "·"), sentences run on with its spacing (none after a Japanese
"。"), and every epoch is numbered one way in a language (Japanese 第1時代 throughout) — while English reads as
it always did."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.present.autokrator import PRESENTER
from bot.present.base import SeatName
from bot.service.moment import GameMoment
from render import autokrator as art
from rules.autokrator import RULESET as R
from rules.autokrator.i18n import epoch_text
from rules.autokrator.state import EpochEnded, Field, Fields, Income, State
from rules.autokrator.telling import standings, tell
from rules.core import IllegalAction
from rules.i18n import using
from rules.spec import Command
from tests.autokrator_helpers import act, deal, new_game, scene, seat

ROMAN_EPOCH = re.compile(r"第[IVX]+時代")


@pytest.fixture(autouse=True)
def no_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("render_board", "render_fought", "render_battle", "render_hand", "render_cards"):
        monkeypatch.setattr(art, name, lambda *a, **k: b"")


def _moment(state: State, events: tuple[Any, ...] = (), actor: int | None = None) -> GameMoment[Any]:
    seats = [SeatName(seat=i, user_id=100 + i, name=n) for i, n in enumerate(state.names)]
    return GameMoment(game_id=1, rules=R, _state=state, seats=seats, events=events, actor=actor)


def _dealt() -> State:
    return deal(new_game())


def test_standings_list_units_with_the_languages_comma() -> None:
    view = R.view(_dealt(), None)
    with using("en"):
        row = standings(view)[0]
        assert "· King in " in row and "), General in " in row
    with using("ja"):
        rows = standings(view)
        assert all(", " not in r for r in rows), rows
        assert "）、" in rows[0]  # 王（…、3♥、+0）、将軍（…）
    with using("el"):
        assert "), " in standings(view)[0]


def test_the_treasuries_and_the_map_description_use_the_languages_comma_and_sentences() -> None:
    s = _dealt()
    view = R.view(s, None)
    income = (Income(realm="sar", gold=2, treasury=5), Income(realm="byz", gold=2, treasury=7))
    with using("en"):
        line = tell(view, income)[-1]
        assert line.endswith("Treasuries: Saracens 5, Byzantine Empire 7.")
        alt = art.board_alt_text(view)
        assert alt.startswith("Map of the Mediterranean, epoch 1. Saracens: ") and "; King in " in alt
    with using("ja"):
        line = tell(view, income)[-1]
        assert ", " not in line and "5、" in line
        alt = art.board_alt_text(view)
        assert ", " not in alt and "。 " not in alt and "。サラセン" in alt.replace("**", ""), alt


def test_a_hand_is_described_in_clauses_parted_the_languages_way() -> None:
    s = _dealt()
    view = R.view(s, seat(s, "sar"))
    with using("en"):
        assert re.search(r"\); (General|Admiral|Garrison|King): ", art.hand_alt(view, "sar"))
    with using("el"):
        alt = art.hand_alt(view, "sar")
        assert "); " not in alt and ")· " in alt, alt
    with using("ja"):
        alt = art.hand_alt(view, "sar")
        assert "; " not in alt and "）；" in alt and "、" in alt, alt


def test_a_refusal_names_the_units_in_the_language() -> None:
    s = _dealt()
    with using("en"), pytest.raises(IllegalAction, match=r"^Name a unit: king, general\.$"):
        R.codec.parse(s, 0, Command.of("move", unit="emperor", to="qattara"))
    with using("ja"):
        with pytest.raises(IllegalAction) as refused:
            R.codec.parse(s, 0, Command.of("move", unit="emperor", to="qattara"))
        assert "、" in str(refused.value) and "king" not in str(refused.value)


def test_every_epoch_is_numbered_one_way_in_each_language() -> None:
    s = _dealt()
    view = R.view(s, None)
    with using("en"):
        assert epoch_text(3).startswith("📜 **Epoch III (")
        assert tell(view, (EpochEnded(epoch=2),)) == ["Epoch II ends."]
        assert PRESENTER.status(_moment(s)).text.splitlines()[0].endswith("Epoch 1 (632–700, The Sword of the "
                                                                          "Caliphs): the turn of the Saracens.")
    for lang, first, ended in (("ja", "📜 **第3時代", "第2時代が終わります。"),
                               ("hu", "📜 **3. korszak", "2. korszak vége."),
                               ("el", "📜 **Εποχή 3 ", "Η εποχή 2 τελειώνει.")):
        with using(lang):
            assert epoch_text(3).startswith(first), (lang, epoch_text(3))
            assert tell(view, (EpochEnded(epoch=2),)) == [ended]
            status = PRESENTER.status(_moment(s)).text
            assert not re.search(r"\b(I|II|III|IV|V)\b", status.replace("**", "")), status
    with using("ja"):
        assert not ROMAN_EPOCH.search(PRESENTER.status(_moment(s)).text + art.board_alt_text(view))


def _lineup(lives: int) -> tuple[State, int]:
    """A battle at the laying of the rows, the Saracen King (with ``lives`` lives) attacking from Antioch."""
    s = scene(_dealt(), turn="sar", units={"sar.king": "antioch"}, lives={"sar.king": lives})
    step = act(s, "sar", R.legal(s, 0)[0])
    s = step.state
    assert s.battle is not None
    s = act(s, "sar", Fields(fields=("plain", "hill"))).state
    s = act(s, s.battle.defender.realm, Field(field="plain")).state if s.battle and s.battle.defender.realm \
        else s
    assert s.battle is not None and s.battle.stage == "lineup"
    return s, seat(s, "sar")


@pytest.mark.parametrize("lives", [1, 2, 3])
def test_the_markers_sentence_follows_the_order_sentence_as_the_language_runs_sentences(lives: int) -> None:
    s, me = _lineup(lives)
    moment = _moment(s, actor=me)
    modifier = s.battle.attacker.modifier if s.battle else 0
    with using("en"):
        text = PRESENTER.private("hand", moment, me).text  # type: ignore[union-attr]
        assert "and so on. Your " in text or "and so on. You have no modifier markers." in text
        assert "  " not in text
    with using("ja"):
        text = PRESENTER.private("hand", moment, me).text  # type: ignore[union-attr]
        assert "ぶつかります。修正マーカー" in text and "。 " not in text, text
    with using("hu"):
        text = PRESENTER.private("hand", moment, me).text  # type: ignore[union-attr]
        assert "így tovább. " in text and "  " not in text
        if abs(modifier) == 1:
            assert "1 módosítójelződ van" in text and "egy lapra kerül" in text
    with using("el"):
        text = PRESENTER.private("hand", moment, me).text  # type: ignore[union-attr]
        if abs(modifier) == 1:
            assert "Έχεις 1 δείκτη μετατροπής (" in text


def test_the_cards_dealt_so_far_stand_apart_unit_by_unit() -> None:
    s = new_game()
    me = seat(s, "sar")
    for _ in range(2):  # the King's and the General's cards
        s = R.apply(s, me, R.legal(s, me)[0]).state
    moment = _moment(s, actor=me)
    with using("en"):
        text = PRESENTER.private("hand", moment, me).text  # type: ignore[union-attr]
        assert re.search(r"\nSo far — King: [^;]+, General: [^;]+\.$", text), text
    with using("hu"):
        text = PRESENTER.private("hand", moment, me).text  # type: ignore[union-attr]
        assert re.search(r"\nEddig: Király: [^;]+; Hadvezér: [^;]+\.$", text), text
    with using("ja"):
        text = PRESENTER.private("hand", moment, me).text  # type: ignore[union-attr]
        assert "；将軍：" in text and "、" in text, text
