"""Every script the books use renders with a real glyph: Hungarian accents, Greek and Japanese (issue 12)."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

from render.common import FontName, canvas, font, has_glyph, runs, text_length

NAMES = {
    "hungarian": "Kelemen Ődön és Ügyes Éva",
    "greek": "Κωνσταντινούπολη, Θεσσαλονίκη",
    "japanese": "山田太郎・英雄の道（ヒーロー）",
}


@pytest.mark.parametrize("name", ["sans", "bold", "serif", "cond"])
@pytest.mark.parametrize("script", sorted(NAMES))
def test_every_character_has_a_glyph(name: FontName, script: str) -> None:
    text = NAMES[script]
    for piece, face in runs(text, font(name, 24)):
        file = str(face.path).rsplit("/", 1)[-1]
        missing = [c for c in piece if not has_glyph(file, c)]
        assert not missing, f"{script} in {name}: no glyph for {missing!r} in {file}"


def test_japanese_is_not_drawn_as_boxes() -> None:
    """The same kanji drawn through the canvas differs from DejaVu's missing-glyph box drawn directly."""
    face = font("sans", 32)
    fallback = Image.new("L", (200, 50))
    canvas(fallback).text((5, 5), "山田", fill=255, font=face)
    boxes = Image.new("L", (200, 50))
    from PIL import ImageDraw

    ImageDraw.Draw(boxes).text((5, 5), "山田", fill=255, font=face)
    assert ImageChops.difference(fallback, boxes).getbbox() is not None
    assert fallback.getbbox() is not None


def test_length_counts_fallback_glyphs_and_anchor_centres_mixed_text() -> None:
    face = font("bold", 30)
    mixed = "名前 Name"
    assert text_length(mixed, face) > face.getlength("Name")
    img = Image.new("L", (400, 80))
    canvas(img).text((200, 40), mixed, fill=255, font=face, anchor="mm")
    left, _, right, _ = img.getbbox() or (0, 0, 0, 0)
    assert abs((left + right) / 2 - 200) <= 4


def test_ascii_stays_on_one_face() -> None:
    face = font("sans", 20)
    assert runs("Plain Latin text", face) == [("Plain Latin text", face)]
