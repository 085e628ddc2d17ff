"""Legend of Heroes: fitting a title into a box without ever breaking a word (the font shrinks instead)."""

from __future__ import annotations

from PIL import ImageFont

from render.common import CJK, FontName, ellipsize, fit_text, font, line_height, text_length, units, wrap, wrap_words

#: Below this a title is no longer worth reading: at the floor a word too long for the box is cut with "…".
FLOOR = 10


def fit_words(text: str, name: FontName, width: float, height: float, *, largest: int, smallest: int,
              spacing: float = 1.1) -> tuple[ImageFont.FreeTypeFont, list[str]]:
    """The largest size from ``largest`` down at which ``text`` wraps into the box with every word whole.

    Sizes run down to ``smallest`` as usual, and further (to ``FLOOR``) rather than split a word; only at the
    floor may a line that still does not fit end in "…"."""
    for size in range(largest, FLOOR - 1, -1):
        face = font(name, size)
        if any(text_length(word, face) > width for word, _glued in units(text)):
            continue
        lines = wrap_words(text, face, width)
        if len(lines) * line_height(face, spacing) <= height or (size <= smallest and len(lines) == 1):
            return face, lines
    face = font(name, FLOOR)
    lines = [ellipsize(line, face, width) for line in wrap_words(text, face, width)]
    keep = max(1, int(height // line_height(face, spacing)))
    if len(lines) > keep:
        lines = lines[:keep]
        lines[-1] = ellipsize(lines[-1] + " …", face, width)
    return face, lines


def fit_lines(text: str, name: FontName, width: float, height: float, *, largest: int, smallest: int,
              spacing: float = 1.2) -> tuple[ImageFont.FreeTypeFont, list[str]]:
    """``render.common.fit_text`` (wrapped text shrunk into a box), called here so the fit checks see every
    box a Legend picture fills.  Japanese text breaks between its characters instead (never with a hyphen)."""
    if not CJK.search(text):
        return fit_text(text, name, width, height, largest=largest, smallest=smallest, spacing=spacing)

    def wrapped(face: ImageFont.FreeTypeFont) -> list[str]:
        return [line for para in text.split("\n") for line in (wrap_words(para, face, width) or [""])]

    for size in range(largest, smallest - 1, -1):
        face = font(name, size)
        lines = wrapped(face)
        if len(lines) * line_height(face, spacing) <= height:
            return face, lines
    face = font(name, smallest)
    lines = [ellipsize(line, face, width) for line in wrapped(face)]
    keep = max(1, int(height // line_height(face, spacing)))
    if len(lines) > keep:
        lines = lines[:keep]
        lines[-1] = ellipsize(lines[-1] + "…", face, width)
    return face, lines


def wrap_lines(text: str, face: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """``render.common.wrap``: paragraphs kept, Japanese broken between its characters."""
    return wrap(text, face, width)
