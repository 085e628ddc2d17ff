"""Legend of Heroes pictures in every language the catalogue has: each label fits its box (a translation
shrinks, never runs out or gets cut), every script draws with real glyphs (the Japanese fallback font), the
cached pictures follow the language, and the alt text speaks it."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

from bot.present.base import SeatName
from bot.present.legend import PRESENTER
from bot.service.moment import moment_for
from render import cache as picture_cache
from render import common, legend
from render.legend import board as board_layer
from render.legend import cards as card_layer
from render.legend import text as fit
from rules.i18n import using
from rules.legend.content import card_index, fighters, heroes, spells
from rules.legend.i18n import CATALOGUE, _
from rules.legend.ruleset import LegendRuleset
from rules.legend.state import FightRoll, HeroRoll, State
from rules.legend.view import HeroView, PartyView
from tests.legend_helpers import play_moves
from tests.picture_check import blank_of_size

RULES = LegendRuleset()
LANGS = ("en", "hu", "el", "ja")


class Fits:
    """Every label and box a Legend picture fills while it is drawn: what went in and what came out."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.bad: list[str] = []
        self.seen = 0
        real_lines, real_words = fit.fit_lines, fit.fit_words

        def fit_lines(text: str, name: Any, width: float, height: float, **kw: Any) -> Any:
            face, lines = real_lines(text, name, width, height, **kw)
            self._box(text, face, lines, width, height, kw.get("spacing", 1.2))
            return face, lines

        def fit_words(text: str, name: Any, width: float, height: float, **kw: Any) -> Any:
            face, lines = real_words(text, name, width, height, **kw)
            self._box(text, face, lines, width, None, kw.get("spacing", 1.1))
            return face, lines

        monkeypatch.setattr(fit, "fit_lines", fit_lines)
        monkeypatch.setattr(fit, "fit_words", fit_words)

    def labels(self, drawn: list[common.Fitted]) -> None:
        """The one-line labels ``fit_label`` fitted: never cut, never wider than their room."""
        for f in drawn:
            self.seen += 1
            if f.measured > f.width + 0.5:
                self.bad.append(f"{f.text!r} is {f.measured:.0f} px in a {f.width:.0f} px label")

    def _box(self, text: str, face: Any, lines: list[str], width: float, height: float | None,
             spacing: float) -> None:
        self.seen += 1
        cut = any(line.endswith("…") for line in lines) and not text.rstrip().endswith("…")
        wide = [line for line in lines if common.text_length(line, face) > width + 0.5]
        tall = height is not None and len(lines) * common.line_height(face, spacing) > height + 0.5
        if cut or wide or tall:
            self.bad.append(f"{text[:50]!r} does not fit its {width:.0f}×{height or 0:.0f} box at {face.size} px")


def _pictures() -> Iterator[bytes]:
    """One of every kind of Legend picture, in the current language."""
    for card_id in card_index():
        yield legend.render_card(card_index()[card_id])
        yield legend.render_card(card_index()[card_id], fighter_only=True)
    for h in heroes():
        yield legend.render_hero(h, wounded=False)
        yield legend.render_hero(h, wounded=True)
    for sp in spells():
        yield legend.render_spell(sp)
    heroes_of = [h for h in heroes() if h.kind == "fighter"][:1] + [h for h in heroes() if h.kind != "fighter"][:4]
    row = tuple(HeroView(id=h.id, name=h.name, kind=h.kind, wounded=i == 2) for i, h in enumerate(heroes_of))
    yield legend.render_party(PartyView(player="Annabelle", colour="orange", letter="O", heroes=row, spell=None))
    yield legend.render_party(PartyView(player="Bob", colour="blue", letter="B", heroes=row,
                                        spell=spells()[0].id))
    for names, options in ((["Ann", "Bob", "Cy", "Di", "Eve"], {"mode": "expanded", "narration": "players"}),
                           (["Ann"], {"mode": "solo"}), (["Ann"], {"mode": "expanded"}),
                           (["Ann", "Bob", "Cy"], {"narration": "players"})):
        game = play_moves(RULES, names, 3000, seed=3, **options)
        for state, events in [*game[:: max(1, len(game) // 12)], game[-1]]:
            yield legend.render_board(RULES.view(state, None))
            yield from _fought(state, events)


def _fought(state: State, events: tuple[Any, ...]) -> Iterator[bytes]:
    view = RULES.view(state, None)
    for card_id in dict.fromkeys(e.card for e in events if isinstance(e, (FightRoll, HeroRoll))):
        yield PRESENTER.fought(view, card_id, events).png


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
def test_every_label_of_every_picture_fits_in_every_language(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    fits = Fits(monkeypatch)
    # a fresh, empty picture cache with no directory: every picture is drawn (and measured) here
    monkeypatch.setattr(picture_cache, "_cache", picture_cache.PictureCache(None))
    monkeypatch.setattr(card_layer, "_RESULT_PNGS", {})
    # each card drawn whole but written as a blank picture of its size: its labels are what is checked here, and
    # encoding each card (its palette, deflate at level 6) was a quarter of the test (every action card, hero and
    # spell is encoded in tests/test_render_legend.py and tests/test_render_legend_party.py)
    monkeypatch.setattr(card_layer, "_card_bytes", blank_of_size)
    with using(lang), common.fitting() as drawn:
        for png in _pictures():
            assert png.startswith(b"\x89PNG")
        face, widths = board_layer._key_layout(lang)
        room = board_layer._size(board_layer.dungeon())[0] - 2 * board_layer.MARGIN - board_layer.KEY_TITLE_ROOM
        assert sum(widths) <= room and face.size >= 11
    fits.labels(drawn)
    assert fits.seen > 500
    assert not fits.bad, "\n".join(dict.fromkeys(fits.bad))


def test_the_longest_translation_of_each_short_label_fits_at_a_readable_size() -> None:
    """The labels drawn at a fixed place: the longest of the languages still reads at 3/4 of its size."""
    labels = [("End of Room", 23, 276), ("gold pieces", 20, 190), ("WOUNDED", 44, 390), ("LEADER", 26, 150),
              ("Success", 12, 64), ("No Effect", 12, 64), ("Box beside the Monster's red dot:", 15, 440),
              ("Defence: what a Monster must roll to wound", 15, 440), ("CHOOSING", 22, 200),
              ("NARRATING", 22, 200), ("FINAL SCORE", 22, 200), ("TO ENTER", 22, 200)]
    for msgid, size, width in labels:
        for lang in LANGS:
            with using(lang):
                said = _(msgid)
            face, _shown = common.fit_label(said, "bold", size, width, smallest=10, cut=False)
            assert face.size >= size * 3 // 4, (lang, said, face.size)


def test_japanese_and_greek_labels_draw_with_real_glyphs() -> None:
    """Every character a translation puts on a picture (a label, a kind, a colour) is in the font that draws it
    (DejaVu, or the bundled Japanese font it falls back to): no empty boxes."""
    checked = 0
    for lang in ("ja", "el", "hu"):
        po = CATALOGUE.catalog(lang)
        assert po is not None
        for m in po:
            drawn = m.context in ("band", "initial", "class", "colour", "kind", "place") or any(
                loc.startswith("render/") for loc, _line in m.locations)
            if not drawn:
                continue
            strings = m.string if isinstance(m.string, tuple) else (m.string,)
            for s in strings:
                for ch in set(s or ""):
                    if ch.isspace() or ord(ch) < 0x80 or ord(ch) >= 0x1F000:  # ASCII; emoji are not drawn
                        continue
                    base = common._file_of(common.font("bold", 20))
                    assert common.has_glyph(base, ch) or common.has_glyph(
                        common._file_of(common.font(common._FALLBACK[base], 20)), ch), (lang, ch, s)
                    checked += 1
    assert checked > 300


def _open(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img.convert("RGB")


def test_the_cached_pictures_follow_the_language() -> None:
    card = card_index()[next(c for c in card_index() if card_index()[c].kind == "monster")]
    spell, hero = spells()[0], fighters()[0]
    drawn: dict[str, tuple[bytes, ...]] = {}
    for lang in LANGS:
        with using(lang):
            drawn[lang] = (legend.render_card(card), legend.render_spell(spell), legend.render_fighter(hero,
                           wounded=True))
    for lang in LANGS[1:]:
        assert all(a != b for a, b in zip(drawn["en"], drawn[lang], strict=True)), lang
    with using("en"):
        assert (legend.render_card(card), legend.render_spell(spell),
                legend.render_fighter(hero, wounded=True)) == drawn["en"]


def test_the_board_and_its_alt_text_speak_the_language_of_the_moment() -> None:
    game = play_moves(RULES, ["Ann", "Bob"], 40, seed=5)
    state, _events = game[-1]
    seats = [SeatName(seat=i, user_id=100 + i, name=n) for i, n in enumerate(["Ann", "Bob"])]
    with using("en"):
        english = PRESENTER.board(moment_for(RULES, state, seats), RULES.view(state, None))
    with using("hu"):
        magyar = PRESENTER.board(moment_for(RULES, state, seats), RULES.view(state, None))
    assert english.alt.startswith("Dungeon board:")
    assert magyar.alt.startswith("A kazamata táblája:")
    assert english.png != magyar.png
    assert _open(english.png).size == _open(magyar.png).size


def test_greek_card_bands_are_capitals_without_accents() -> None:
    assert common.capitals("Τραυματίας μάγος") == "ΤΡΑΥΜΑΤΙΑΣ ΜΑΓΟΣ"
    assert common.capitals("Sebesült törpe") == "SEBESÜLT TÖRPE"
    assert common.capitals("monster") == "MONSTER"
