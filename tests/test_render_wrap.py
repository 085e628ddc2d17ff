"""Word wrap adds a line's width up word by word and measures it whole only near the edge: it must break every
text exactly where a greedy wrap measuring each trial line whole breaks it, in every language the cards speak,
and fall back to that wrap wherever the sums are off."""

from __future__ import annotations

import pytest
from PIL import ImageFont

from render import common
from render.common import CJK, font, text_length, units, wrap
from rules.champion.content import library
from rules.champion.i18n import CATALOGUE, local
from rules.i18n import using

EXTRA = [
    "Antidisestablishmentarianism-and-more-of-the-same-without-a-single-break",  # cut with hyphens
    "Ann plays 山田太郎 against Κωνσταντίνος at Őrség, then rests.",  # three scripts, two faces
    "短い。",
    "",
    "one\n\ntwo paragraphs, the second of them long enough to wrap onto a further line",
]


def _texts() -> list[str]:
    found: list[str] = list(EXTRA)
    for lang in CATALOGUE.languages():
        with using(lang):
            for story in local(library()).stories[::9]:
                found += [story.text, *(o.text for o in story.outcome)]
    return found


TEXTS = _texts()


def _measured(text: str, face: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """The greedy wrap that measures every trial line whole (what ``wrap`` must give)."""
    lines: list[str] = []
    for para in text.split("\n"):
        if CJK.search(para):
            line = ""
            for word, glued in units(para):
                trial = (f"{line}{word}" if glued else f"{line} {word}") if line else word
                if line and common.text_length(trial, face) > width:
                    lines.append(line)
                    line = word
                else:
                    line = trial
            lines += [line] if line else [""]
            continue
        line = ""
        for word in para.split():
            trial = f"{line} {word}" if line else word
            if common.text_length(trial, face) <= width:
                line = trial
                continue
            if line:
                lines.append(line)
            while common.text_length(word, face) > width and len(word) > 1:
                cut = len(word) - 1
                while cut > 1 and common.text_length(word[:cut] + "-", face) > width:
                    cut -= 1
                lines.append(word[:cut] + "-")
                word = word[cut:]
            line = word
        lines.append(line)
    return lines


@pytest.mark.parametrize("name,size,width", [("sans", 13, 516), ("sans", 21, 230), ("bold", 17, 60)])
def test_wrap_breaks_where_a_wrap_measuring_every_line_breaks(name: common.FontName, size: int, width: int) -> None:
    face = font(name, size)
    for text in TEXTS:
        got = wrap(text, face, width)
        assert got == _measured(text, face, width), (text, size, width)
        for line in got:  # a line of several words (or Japanese characters) fits, measured whole
            if " " in line or (CJK.search(line) and len(line) > 1):
                assert text_length(line, face) <= width or len(units(line)) == 1, (line, width)


def test_where_the_sums_are_off_the_wrap_measures_every_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """A face whose widths do not add up (here: each word after the first of a line 5 px wider than alone) still
    breaks where the greedy wrap does, measured whole."""
    real = common.text_length
    fallbacks = []

    def uneven(text: str, face: ImageFont.FreeTypeFont) -> float:
        return real(text, face) + 5 * max(0, len(text.split()) - 1)

    def counted(*args: object, **kwargs: object) -> list[str] | None:
        fallbacks.append(kwargs["summed"] is False)
        return wrap_units(*args, **kwargs)  # type: ignore[arg-type]

    wrap_units = common._wrap_units
    monkeypatch.setattr(common, "_wrap_units", counted)

    monkeypatch.setattr(common, "text_length", uneven)
    face = font("sans", 17)
    for text in TEXTS[:40]:
        for width in (120, 340):
            assert wrap(text, face, width) == _measured(text, face, width), (text, width)
    assert any(fallbacks), "no paragraph needed the measured wrap: the test's widths added up after all"


def test_a_text_the_face_draws_whole_is_one_run() -> None:
    face = font("sans", 20)
    assert [p for p, _f in common.runs("Κωνσταντινούπολη Őrség", face)] == ["Κωνσταντινούπολη Őrség"]
    pieces = common.runs("Ann 山田 Bob", face)
    assert "".join(p for p, _f in pieces) == "Ann 山田 Bob" and len(pieces) == 3
    assert common.runs("Ann 山田 Bob", face) == pieces  # the second time from what the first learned
