"""Legend of Heroes: fitting a title into a box without ever breaking a word (the font shrinks instead)."""

from __future__ import annotations

from PIL import ImageFont

from render.common import FontName, ellipsize, font, line_height, text_length

#: Below this a title is no longer worth reading: at the floor a word too long for the box is cut with "…".
FLOOR = 10


def wrap_words(text: str, face: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """Greedy wrap to ``width`` pixels at spaces only: a word wider than the box gets a line of its own."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}" if line else word
        if line and text_length(trial, face) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    if line:
        lines.append(line)
    return lines


def fit_words(text: str, name: FontName, width: float, height: float, *, largest: int, smallest: int,
              spacing: float = 1.1) -> tuple[ImageFont.FreeTypeFont, list[str]]:
    """The largest size from ``largest`` down at which ``text`` wraps into the box with every word whole.

    Sizes run down to ``smallest`` as usual, and further (to ``FLOOR``) rather than split a word; only at the
    floor may a line that still does not fit end in "…"."""
    for size in range(largest, FLOOR - 1, -1):
        face = font(name, size)
        if any(text_length(word, face) > width for word in text.split()):
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
