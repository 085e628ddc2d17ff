"""Champion of the Empire's pictures in every language its catalogue has: each card, the sheet, the hand, the
played cards and the board are drawn, and no label overflows its box (a label that does not fit even at the
smallest size is shortened, and ``render.common.fitting`` says so); the alt texts and the map speak
the game's language, and the map's Hungarian name layout ships with the game."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render import cache as picture_cache
from render import champion as art
from render.champion import basemap
from render.champion import cards as card_layer
from render.common import fitting
from rules.champion.content import CARD_TYPES, library, map_file
from rules.champion.i18n import CATALOGUE, local
from rules.i18n import using
from tests.champion_helpers import midgame, sample_hero
from tests.picture_check import blank_of_size

LANGUAGES = [lang for lang in CATALOGUE.languages()]


def _size(png: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(png)).size


def _drawn_not_encoded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each card is drawn whole, labels and all, but written as a blank picture of its size: what a fit test reads
    is every label drawn (``fitting``) and the card's size, and encoding each card (its palette, deflate at level
    6) was a third of its time; ``test_every_real_card_renders`` encodes every card.  A cache of its own, so that
    no blank outlives the test."""
    monkeypatch.setattr(picture_cache, "_cache", picture_cache.PictureCache(None))
    monkeypatch.setattr(card_layer, "_card_bytes", blank_of_size)


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_card_fits_its_labels_in_every_language(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    _drawn_not_encoded(monkeypatch)
    with using(lang), fitting() as drawn:
        lib = local(library())
        for story in lib.stories:
            assert _size(art.render_story(story)) == (600, 860)
            if story.outcome:
                art.render_story(story, chosen=0, roll=6 if story.roll else 0,
                                 closed={len(story.outcome) - 1: "needs 3 gold — you have 1"})
        for event in lib.events:
            art.render_event(event)
        for item in lib.items:
            art.render_item(item)
        for monster in lib.monsters:
            art.render_monster(monster)
        for kind in CARD_TYPES:
            for armed in (False, True):
                art.render_combat_card(kind, armed, kind == "inspired")
    assert [f for f in drawn if f.overflows] == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_sheet_hand_and_played_cards_fit_in_every_language(lang: str) -> None:
    with using(lang), fitting() as drawn:
        hero = sample_hero()
        for side in ("Veteran", "Signifer"):
            art.render_sheet(hero, side_name=side)
        art.render_hand(["torso-1", "head-2", "armed-leg-1", "inspired-1", "hand-3", "leg-2"])
        art.render_hand([])
        art.render_played([("head", "Labienus"), ("leg", "Cintugnatos"), ("inspired", "Jahmesz")])
    assert [f for f in drawn if f.overflows] == []


def test_the_board_is_drawn_in_hungarian_from_the_shipped_layout() -> None:
    with using("hu"), fitting() as drawn:
        world = basemap.world()
        assert any(p.name == "Alsó-Pannónia" for p in world.province)
        shipped = basemap.msgspec.json.decode(basemap.layout_file("hu").read_bytes(), type=basemap._Layout)
        assert shipped.key == basemap._layout_key(world), "run: python -m render.champion.basemap"
        _state, view = midgame()
        png = art.render_board(view, title="A birodalom bajnoka · #1")
        alt = art.board_alt_text(view) + " " + art.map_alt_text(view)
    assert _size(png)[0] == 1600
    assert [f for f in drawn if f.overflows] == []
    assert "Életerő" in alt or "Élet" in alt
    assert "A római világ térképe" in alt and "Life" not in alt
    assert basemap.world() == map_file()  # English outside the block


def test_alt_texts_speak_hungarian() -> None:
    with using("hu"):
        lib = local(library())
        story = art.story_alt_text(lib.story["spring-in-the-desert"] if "spring-in-the-desert" in lib.story
                                   else lib.stories[0])
        item = art.item_alt_text(lib.item["gladius"])
        monster = art.monster_alt_text(lib.monster["kerberos"])
        event = art.event_alt_text(lib.events[0])
        sheet = art.sheet_alt_text(sample_hero(), side_name="Veteran")
        hand = art.hand_alt_text(["torso-1", "armed-head-1"])
    assert story.startswith("Könnyű történetkártya") or story.startswith("Közepes") or story.startswith("Nehéz")
    assert item.startswith("Tárgykártya: Gladius (fegyver, kezdőfegyver")
    assert monster.startswith("Szörnylap: Kerberosz")
    assert event.startswith("Eseménykártya:")
    assert sheet.startswith("Karakterlap: Labienus") and "Veterán" in sheet
    assert hand == "Kezed: 1 Törzs, 1 Fej (fegyveres)."
    assert art.hand_alt_text(["torso-1"]) == "Your hand: 1 Torso."


@pytest.mark.parametrize("lang", basemap.LAYOUT_LANGUAGES)
def test_every_language_with_its_own_map_names_ships_their_layout(lang: str) -> None:
    """Placing the names takes seconds: a language's first board must not wait for it."""
    with using(lang):
        world = basemap.world()
    assert world != map_file()
    shipped = basemap.msgspec.json.decode(basemap.layout_file(lang).read_bytes(), type=basemap._Layout)
    assert shipped.key == basemap._layout_key(world), "run: python -m render.champion.basemap"
    japanese = [label.name_lines for label in shipped.labels.values() if "・" in "".join(label.name_lines)]
    if lang == "ja":  # a compound name parts at its dot rather than run across its neighbours
        assert any(len(lines) > 1 for lines in japanese)
