"""Autokrator's pictures: the map, a hand, a card and a battle are valid PNGs of the expected size, drawn from
views only, with any script in players' names."""

from __future__ import annotations

import io

from PIL import Image

from render import autokrator as art
from render.autokrator.world import HEIGHT, WIDTH
from rules.autokrator.state import BattleFought, Clash
from tests.autokrator_helpers import R, deal, new_game, scene


def _png(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    assert len(data) < 1_000_000
    return img


def test_the_map_shows_every_realm_with_names_in_any_script() -> None:
    s = deal(new_game())
    s.names = ["山田", "Ἀλέξιος", "Hildegard", "Ṭāriq"]
    s = scene(s, turn="byz", owner={"cyprus": "byz"}, pieces={"cyprus": "byz"})
    img = _png(art.render_board(R.view(s, None), title="Autokrator · #1"))
    assert img.width == WIDTH and img.height > HEIGHT
    alt = art.board_alt_text(R.view(s, None))
    assert "Byzantine Empire" in alt and "Constantinople" in alt


def test_the_hand_a_card_and_the_battle_rows() -> None:
    s = deal(new_game())
    hand = _png(art.render_hand(R.view(s, 0), "sar"))
    assert hand.width < 900  # four cards wide: legible at chat size
    assert "King:" in art.hand_alt(R.view(s, 0), "sar")
    _png(art.render_card("byz-admiral"))
    e = BattleFought(region="sidon", field="ambush", attacker="byz", attacker_unit="admiral", defender="sar",
                     defender_unit="general", clashes=(
                         Clash("byz-cava2", "sar-general", 1, 4, -1, 0, "defender"),
                         Clash("byz-admiral", "sar-arch1", 4, 5, -1, 0, "defender"),
                         Clash("byz-infa0", "sar-merc0", 4, 1, 0, -1, "attacker")),
                     swords=(4, 2), troops=(13000, 12000), points=(3, 2), attacker_won=True)
    _png(art.render_fought(e))
    assert "Cavalry 1 against Infantry 4" in art.fought_alt(e)
