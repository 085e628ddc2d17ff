"""Autokrator's pictures in every language its catalogue has: every label drawn fits its box at an allowed size
(none is cut short), the Greek map's region names stay inside the picture and crowd each other no more than
the English ones do, and the alt texts are in the game's language."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from render import autokrator as art
from render.autokrator import board, cards
from render.autokrator.world import HEIGHT, WIDTH
from render.common import fitting
from render.mapkit.labels import overlap
from rules.autokrator.content import library
from rules.autokrator.state import BattleFought, Clash
from rules.autokrator.view import BattleView, SideView
from rules.i18n import using
from tests.autokrator_helpers import R, deal, new_game, scene

GREEK = re.compile(r"[\u0370-\u03ff]")
LANGS = ("en", "el", "hu", "ja")


def _fresh() -> None:
    for cached in (cards._drawn_card, board._placed, board._drawn_overlay):
        cached.cache_clear()


def _battle(field: str, attacker_won: bool) -> BattleFought:
    return BattleFought(region="constantinople", field=field, attacker="byz", attacker_unit="admiral", defender="",
                        defender_unit="neutral", clashes=(
                            Clash("byz-cava2", "neutral-general-0", 1, 4, -1, 0, "defender"),
                            Clash("byz-admiral", "sar-arch1", 4, 5, -1, 0, "defender"),
                            Clash("byz-infa0", "sar-merc0", 4, 1, 0, -1, "attacker")),
                        swords=(4, 2), troops=(13000, 12000), points=(3, 2), attacker_won=attacker_won)


def _every_picture() -> list[bytes]:
    s = deal(new_game())
    s.names = ["Ἀλέξιος Κομνηνός", "山田", "Hildegard", "Ṭāriq"]
    s = scene(s, turn="byz", owner={"cyprus": "byz", "rome": "fra"}, pieces={"cyprus": "byz", "rome": "fra"})
    lib = library()
    pngs = [art.render_board(R.view(s, None), title="Autokrator · #1234")]
    for realm in ("sar", "byz", "fra", "moo"):
        pngs.append(art.render_hand(R.view(s, s.realms[realm].seat), realm))
    pngs.append(art.render_cards(list(lib.cards), "ambush"))  # every card, the longest names included
    for field in ("plain", "hill", "forest", "city", "ambush"):
        pngs.append(art.render_fought(_battle(field, field != "city")))
    side = SideView(realm="sar", holder="garrison", modifier=2, laid=True, cards=(), lineup=(), marks=())
    raid = SideView(realm="", holder="raid", modifier=0, laid=False, cards=(), lineup=(), marks=())
    for fields, field in ((("forest", "ambush"), ""), (("plain", "hill"), "hill")):
        pngs.append(art.render_battle(BattleView(region="constantinople", stage="lineup", fields=fields,
                                                 field=field, attacker=raid, defender=side)))
    return pngs


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
def test_every_label_fits_its_box(lang: str) -> None:
    _fresh()
    with using(lang), fitting() as drawn:
        pngs = _every_picture()
    for png in pngs:
        Image.open(io.BytesIO(png)).load()
    assert len(drawn) > 300
    tight = [f for f in drawn if f.overflows and not f.text.startswith("Autokrator · #")]
    assert not tight, [(f.text, f.width, round(f.measured)) for f in tight[:5]]
    if lang == "el":
        assert any(GREEK.search(f.shown) for f in drawn)


def _crowding(lang: str) -> tuple[float, list[str]]:
    _fresh()
    with using(lang):
        placed = board._placements()
    boxes = list(placed.values())
    total = sum(overlap(a.box, b.box) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    outside = [rid for rid, p in placed.items()
               if p.box[0] < 0 or p.box[1] < 0 or p.box[2] > WIDTH or p.box[3] > HEIGHT]
    return total, outside


def test_the_greek_map_names_stay_inside_and_crowd_no_more_than_the_english() -> None:
    english, out_en = _crowding("en")
    greek, out_el = _crowding("el")
    assert not out_en and not out_el
    assert greek <= english * 1.1, (greek, english)
    with using("el"):
        for rid in library().regions:
            face = board._name_face(rid)
            assert face.size >= board.NAME_SMALLEST


def test_alt_texts_are_in_the_games_language() -> None:
    s = deal(new_game())
    e = _battle("ambush", True)
    with using("el"):
        alts = [art.board_alt_text(R.view(s, None)), art.hand_alt(R.view(s, 0), "sar"), art.fought_alt(e)]
    for alt in alts:
        assert GREEK.search(alt) and len(alt) <= 1000
    assert alts[0].startswith("Χάρτης της Μεσογείου, εποχή 1.") and "στην Κωνσταντινούπολη" in alts[0]
    assert alts[2].startswith("Μάχη στην Κωνσταντινούπολη, στην Ενέδρα:")
    with using("en"):
        assert art.fought_alt(e).startswith("Battle of Constantinople on the Ambush:")


def test_a_label_too_long_for_its_box_is_caught() -> None:
    from render.common import fit_label

    with fitting() as drawn:
        face, shown = fit_label("Κωνσταντινούπολη " * 8, "bold", 24, 200)
    assert shown.endswith("…") and drawn[-1].overflows and face.size < 24
    with fitting() as drawn:
        fit_label("Πεδιάδα", "bold", 20, 200)
    assert not drawn[-1].overflows and drawn[-1].size == 20
