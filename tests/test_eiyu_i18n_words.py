"""The Heroes' Road's sentences as each language builds them: a count with a noun takes the language's plural form,
a city is always named the same way (its number and name) so that a translator writes one construction around
it, every list is joined the language's way, and the rules name the panel's button as the button reads."""

from __future__ import annotations

import io

import msgspec
import pytest
from PIL import Image

from bot.present.base import SeatName
from bot.present.eiyu import PRESENTER
from bot.service.moment import moment_for
from render.common import drawing, fitting, font, text_length
from render.eiyu import board as art
from rules.core import GameError
from rules.eiyu import RULESET as R
from rules.eiyu.auto import Preview
from rules.eiyu.commands import did_text
from rules.eiyu.content import ACT, WAIT, library
from rules.eiyu.i18n import CATALOGUE
from rules.eiyu.spec import SPEC
from rules.eiyu.state import Building, RewardsTaken, SetOrder, SetRow, State, TitanSlain
from rules.eiyu.telling import rewards_line, why_text
from rules.i18n import using
from rules.spec import Command
from tests.eiyu_helpers import new_game, place_all, with_players
from tests.picture_check import cold_caches, problems

LIB = library()


def seats(n: int) -> list[SeatName]:
    return [SeatName(i, 100 + i, ["Ann", "Bob", "Cy"][i]) for i in range(n)]


def placed(names: list[str] | None = None) -> State:
    return place_all(new_game(2, seed=2, names=names or ["Ann", "Bob"]), [1, 9])


def refusal(state: State, seat: int, command: Command) -> str:
    with pytest.raises(GameError) as err:
        R.apply(state, seat, R.codec.parse(state, seat, command))
    return str(err.value)


# --- counts ------------------------------------------------------------------------------------------------


def test_eiyu_words_a_count_takes_the_plural_form_of_its_language() -> None:
    state = with_players(placed(), soldiers=[[2], [1, 3]])
    moment = moment_for(R, state, seats(2))
    one_chip = RewardsTaken(seat=0, city=2, fame=1, area="north")
    two_chips = RewardsTaken(seat=0, city=2, fame=2, area="north")
    felled = TitanSlain(seat=0, slot=2, city=4, titan=0, paid=1, gold=3, fame=2)
    with using("en"):
        rows = PRESENTER.status(moment).text.splitlines()
        assert rows[1].startswith("Ann: city 1 Akagane, 1 soldier, gold 0")
        assert rows[2].startswith("Bob: city 9 Kazemori, 2 soldiers, gold 0")
        assert rewards_line("Ann", one_chip) == "Ann places 1 fame chip in Northern Vale."
        assert rewards_line("Ann", two_chips) == "Ann places 2 fame chips in Northern Vale."
    with using("el"):
        rows = PRESENTER.status(moment).text.splitlines()
        assert "1 στρατιώτης," in rows[1] and "2 στρατιώτες," in rows[2]
        assert rewards_line("Ann", one_chip) == "Ann βάζει 1 μάρκα φήμης στην περιοχή Βόρεια Κοιλάδα."
        assert rewards_line("Ann", two_chips) == "Ann βάζει 2 μάρκες φήμης στην περιοχή Βόρεια Κοιλάδα."
        felled_text = PRESENTER.tell(moment_for(R, state, seats(2), events=(felled,)))[0][0]
        assert "στην πόλη 4 Μινάτο με 1 στρατιώτη:" in felled_text
    with using("ja"):
        assert "兵1人" in PRESENTER.status(moment).text.splitlines()[1]


def test_eiyu_words_a_suggested_row_counts_its_acts() -> None:
    state = placed()
    with using("en"):
        labels = [label for label, _ in PRESENTER.suggestions(moment_for(R, state, seats(2)), 0)]
    assert labels and all(" acts, ends in " in t or " 1 act, ends in " in t for t in labels)
    assert not any(" 1 acts," in t for t in labels)


# --- cities ------------------------------------------------------------------------------------------------


def test_eiyu_words_a_city_is_named_by_its_number_and_name_in_every_sentence() -> None:
    with using("en"):
        assert why_text("wait", "Ann", 4, 3, "wait") == "`3` Ann in 4 Minato waits (×)"
        assert why_text("no_road", "Ann", 4, 3, "red") == "`3` Ann in 4 Minato has no red road here: waits"
        assert did_text(Preview(order=ACT, city=2, did="hunt 0")) == f"hunts the {LIB.chip(0).monster} in 2 Hoshimi"
        assert did_text(Preview(order=WAIT, city=8, did="wait")) == "waits in 8 Yamabe"
    with using("hu"):
        assert why_text("wait", "Ann", 4, 3, "wait") == "`3` Ann (4 Minato): várakozik (×)"
        assert did_text(Preview(order=WAIT, city=8, did="wait")) == "várakozik (8 Jamabe)"
        built = RewardsTaken(seat=0, city=2, gold=3, built=1, built_city=2)
        assert rewards_line("Ann", built) == \
            "Ann 3 aranyat kap, és 1 szintet épít (2 Hosimi)."
    with using("el"):
        assert why_text("acted", "Ann", 4, 3, "act") == "`3` Ann στην πόλη 4 Μινάτο: έδρασε ήδη εδώ φέτος, αναμονή"


def test_eiyu_words_the_maps_description_names_cities_and_buildings() -> None:
    state = placed()
    buildings = list(state.buildings)
    buildings[1] = Building(owner=0, levels=2)
    view = R.view(msgspec.structs.replace(state, buildings=buildings), None)
    with using("en"):
        alt = art.board_alt_text(view)
        assert "Ann in city 1 Akagane." in alt and "Buildings: Ann's 2-level building in 2 Hoshimi." in alt
    with using("el"):
        assert "Κτίρια: κτίριο 2 ορόφων στην πόλη 2 Χοσίμι (Ann)." in art.board_alt_text(view)


# --- lists -------------------------------------------------------------------------------------------------


def test_eiyu_words_lists_are_joined_the_languages_way() -> None:
    state = placed()
    with using("ja"):
        said = refusal(state, 0, Command.of("program", slot="1", order="pink"))
        assert "赤、黄、青、水色、紫" in said  # the colours as a Japanese player types them
        with pytest.raises(GameError) as err:
            R.apply(state, 0, SetOrder(slot=0, order="pink"))
        assert "赤、黄、青、水色、紫" in str(err.value)
        with fitting() as drawn:
            art.render_board(R.view(state, None))
        assert any("4、8、12" in f.text for f in drawn)
    with using("el"), fitting() as drawn:
        art.render_board(R.view(state, None))
    assert any("4, 8, 12" in f.text for f in drawn)


def test_eiyu_words_a_wrong_reward_lists_the_areas_around_the_city() -> None:
    state = place_all(new_game(2, seed=2), [2, 3])  # city 2 holds a monster
    chip = LIB.chip(state.slot[1])
    state = with_players(state, soldiers=[sorted(chip.needs), []])
    state = R.apply(state, 0, SetRow(orders=(ACT, WAIT, WAIT, WAIT, WAIT, WAIT), lock=True)).state
    state = R.apply(state, 1, SetRow(orders=tuple([WAIT] * 6), lock=True)).state
    areas = [a.id for a in LIB.areas_of(2)]
    assert state.phase == "reward" and len(areas) > 1
    with using("ja"):
        said = refusal(state, 0, Command.of("choose", option="gold+gold"))
        assert "都市2 星見" in said and "、".join(areas) in said
    with using("en"):
        said = refusal(state, 0, Command.of("choose", option="gold+gold"))
        assert f"around city 2 Hoshimi: {', '.join(areas)}." in said


# --- the rules -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "button"), [("hu", "Parancsaid"), ("el", "Οι εντολές σου"), ("ja", "行動パネル")])
def test_eiyu_words_the_rules_name_the_panels_button_as_it_reads(lang: str, button: str) -> None:
    assert CATALOGUE.lookup(lang, "Your orders") == button
    for rule in SPEC.rules:
        text = CATALOGUE.lookup(lang, rule.text) or ""
        assert "Your orders" not in text
        if "**Your orders**" in rule.text:
            assert f"**{button}**" in text or f"**「{button}」**" in text  # Japanese quotes a button's name


# --- the story ---------------------------------------------------------------------------------------------


def test_eiyu_words_the_last_lock_in_lists_nobody_as_still_programming() -> None:
    state = R.apply(placed(), 0, SetRow(orders=tuple([WAIT] * 6), lock=True)).state
    step = R.apply(state, 1, SetRow(orders=tuple([WAIT] * 6), lock=True))
    assert step.state.phase == "program" and step.state.year == 2  # the next year has begun
    with using("en"):
        last = PRESENTER.telling(moment_for(R, step.state, seats(2), events=step.events, actor=1)).text
    assert "🔒 Bob has locked in their orders." in last and "Still programming" not in last


# --- pictures ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "hu", "el", "ja"])
def test_eiyu_words_the_widest_monster_tags_in_every_monster_city_cover_no_words(lang: str) -> None:
    """The widest tag of the language in every monster city at once (and every hero in one of them): each tag
    finds a place that covers no city's or area's name, no road's letter, no pin and no other tag."""
    with using(lang):
        widest = max(range(len(LIB.chips)), key=lambda k: text_length(CATALOGUE.gettext(
            "{monster} · B{building} G{gold} F{fame}", monster=CATALOGUE.gettext(LIB.chips[k].monster),
            building=LIB.chips[k].building, gold=LIB.chips[k].gold, fame=LIB.chips[k].fame), font("bold", 18)))
    state = place_all(new_game(3), [7, 7, 2])
    view = R.view(state, None)
    cities = [msgspec.structs.replace(c, kind="monster", chip=widest) if c.kind == "monster" else c
              for c in view.cities]
    view = msgspec.structs.replace(view, cities=cities)
    with using(lang), cold_caches(), drawing() as drawn:
        png = art.render_board(view, title="The Heroes' Road · #1234")
    size = Image.open(io.BytesIO(png)).size
    assert problems(drawn, size, final=False) == []
    assert sum(1 for d in drawn if d.kind == "token") == 3
