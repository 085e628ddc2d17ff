"""Text that fits its box in every language: each label Autokrator's pictures draw goes through ``label``,
which shrinks the face (down to ``smallest``) until the text fits the width it is given, and ellipsizes only
as a last resort.  English labels already fit at their size, so they are drawn exactly as before.

Tests record every label drawn (``recording``) and fail when one did not fit at any allowed size."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from PIL import ImageDraw, ImageFont

from render.common import FontName, ellipsize, font, text_length


@dataclass(frozen=True, slots=True)
class Fitted:
    text: str
    shown: str
    width: float
    measured: float
    size: int

    @property
    def overflows(self) -> bool:
        return self.shown != self.text or self.measured > self.width


_LOG: list[list[Fitted]] = []


@contextmanager
def recording() -> Iterator[list[Fitted]]:
    """Every label drawn inside the block (for the fit tests)."""
    seen: list[Fitted] = []
    _LOG.append(seen)
    try:
        yield seen
    finally:
        _LOG.remove(seen)


def note(text: str, shown: str, width: float, measured: float, size: int) -> None:
    for log in _LOG:
        log.append(Fitted(text, shown, width, measured, size))


def fitted(text: str, name: FontName, size: int, width: float, *, smallest: int | None = None,
           clip: bool = False) -> tuple[ImageFont.FreeTypeFont, str]:
    """The face (``size`` or smaller, down to ``smallest``) at which ``text`` fits ``width``, and the text to
    draw (cut short with "…" only when even the smallest face is too wide; ``clip`` says that is expected, as
    for a player's own name)."""
    low = smallest if smallest is not None else max(10, round(size * 0.7))
    face = font(name, size)
    for s in range(size, low - 1, -1):
        face = font(name, s)
        if text_length(text, face) <= width:
            note(text, text, width, text_length(text, face), s)
            return face, text
    shown = ellipsize(text, face, width)
    note(text if not clip else shown, shown, width, text_length(shown, face), low)
    return face, shown


def label(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, name: FontName, size: int, width: float,
          *, smallest: int | None = None, clip: bool = False, **kw: object) -> None:
    """Draw ``text`` at ``xy`` so that it fits ``width`` (see ``fitted``)."""
    face, shown = fitted(text, name, size, width, smallest=smallest, clip=clip)
    draw.text(xy, shown, font=face, **kw)  # type: ignore[arg-type]
