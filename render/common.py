"""Shared drawing helpers: bundled fonts (cached per size) with a per-character fallback to a Japanese font,
text wrapping and fitting, outlined labels, fixed palettes and fast PNG encoding.

Draw on ``canvas(img)`` rather than ``ImageDraw.Draw(img)`` and measure with ``text_length``: Pillow does not
fall back from one font to another by itself, so a player called 山田 would otherwise be drawn as boxes.

Every renderer draws in RGB with these helpers; ``to_palette`` + ``png_bytes`` turn the result into a small
PNG quickly (a paletted image encodes several times faster than RGB, and encoding is the big cost).
"""

from __future__ import annotations

import contextlib
import io
import re
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, TypeVar

from PIL import Image, ImageDraw, ImageFont

from render import png

FONT_DIR = Path(__file__).parent / "fonts"

FontName = Literal["sans", "bold", "serif", "cond", "cjk", "cjk-bold"]
_FONT_FILES: dict[str, str] = {
    "sans": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "serif": "DejaVuSerif-Bold.ttf",
    "cond": "DejaVuSansCondensed.ttf",
    # Noto Sans CJK JP, cut to JIS X 0208 (kana, 6,355 kanji, full-width forms): see LICENSE-NotoSansCJK.txt.
    "cjk": "NotoSansJP-Tabula-Regular.otf",
    "cjk-bold": "NotoSansJP-Tabula-Bold.otf",
}
#: Where a character missing from a face is looked for next (DejaVu has Latin, Greek and Cyrillic; Noto the rest).
_FALLBACK: dict[str, FontName] = {
    "DejaVuSans.ttf": "cjk", "DejaVuSansCondensed.ttf": "cjk",
    "DejaVuSans-Bold.ttf": "cjk-bold", "DejaVuSerif-Bold.ttf": "cjk-bold",
}

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]
T = TypeVar("T")

#: A player's token: its colour and the colour of the letter on it, for the five colours players take.
TOKENS: dict[str, tuple[RGB, RGB]] = {
    "red": ((229, 57, 53), (255, 255, 255)),
    "blue": ((30, 118, 220), (255, 255, 255)),
    "green": ((40, 150, 60), (255, 255, 255)),
    "orange": ((251, 140, 0), (0, 0, 0)),
    "white": ((250, 250, 250), (0, 0, 0)),
}
OTHER_TOKEN: tuple[RGB, RGB] = ((150, 150, 150), (0, 0, 0))


def token_colours(colour: str) -> tuple[RGB, RGB]:
    """A token's fill and the colour of its letter (grey for a colour no player takes)."""
    return TOKENS.get(colour.lower(), OTHER_TOKEN)


#: A disc's rims, from the outside in: (colour, width in pixels).
Rims = Sequence[tuple[RGB, float]]


def disc(diameter: int, fill: RGB, rims: Rims) -> Image.Image:
    """A smooth disc (drawn large, then shrunk) with concentric rims, on a transparent ground."""
    s = 4
    img, draw = supersampled((diameter, diameter), s)
    r = diameter * s
    inset = 0.0
    for colour, width in rims:
        draw.ellipse((inset, inset, r - inset - 1, r - inset - 1), fill=colour)
        inset += width * s
    draw.ellipse((inset, inset, r - inset - 1, r - inset - 1), fill=fill)
    return shrink(img, (diameter, diameter))


def token(colour: str, letter: str, *, diameter: int, margin: int, letter_size: int,
          ring: tuple[RGB, Rims] | None = None) -> Image.Image:
    """A player's token: a disc of the player's colour with white and black rims and the letter on it, and
    around it (for the player to act) a ``ring`` (its colour and rims) filling the ``margin``."""
    fill, ink = token_colours(colour)
    size = diameter + 2 * margin
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    if ring is not None:
        img.alpha_composite(disc(size, *ring))
    img.alpha_composite(disc(diameter, fill, [((0, 0, 0), 1.5), ((255, 255, 255), 2.5), ((0, 0, 0), 1)]),
                        (margin, margin))
    canvas(img).text((size / 2, size / 2 + 1), letter[:1].upper(), font=font("bold", letter_size), fill=ink,
                     anchor="mm")
    return img


#: Text drawn lately, as the face rendered it (its mask and offset), by everything the rendering depends on:
#: a picture draws the same names, numbers and labels each time it is drawn, and rendering a line of text again
#: costs more than most of the rest of a picture.  Bounded by the masks' bytes.
_MASKS: OrderedDict[tuple[object, ...], tuple[object, int, tuple[int, int]]] = OrderedDict()
_MASKS_BYTES = 3 * 1024 * 1024
_masks_held = 0
_masks_lock = threading.Lock()


class _Face(ImageFont.FreeTypeFont):
    """A bundled face that remembers the text it rendered lately (see ``_MASKS``): the same pixels, drawn again."""

    def getmask2(self, text: str | bytes, mode: str = "", direction: str | None = None,
                 features: list[str] | None = None, language: str | None = None, stroke_width: float = 0,
                 anchor: str | None = None, ink: int = 0, start: tuple[float, float] | None = None,
                 *args: Any, **kwargs: Any) -> tuple[Any, tuple[int, int]]:
        if mode == "RGBA" or args or set(kwargs) - {"stroke_filled"}:  # colour glyphs (their ink is in the mask)
            return super().getmask2(text, mode, direction, features, language, stroke_width, anchor, ink, start,
                                    *args, **kwargs)
        key = (self.path, self.size, text, mode, direction, tuple(features or ()), language, stroke_width, anchor,
               start, bool(kwargs.get("stroke_filled", False)))
        global _masks_held
        with _masks_lock:
            found = _MASKS.get(key)
            if found is not None:
                _MASKS.move_to_end(key)
                return found[0], found[2]
        mask, offset = super().getmask2(text, mode, direction, features, language, stroke_width, anchor, ink, start,
                                        *args, **kwargs)
        width, height = mask.size
        with _masks_lock:
            if key not in _MASKS:
                _MASKS[key] = (mask, width * height, offset)
                _masks_held += width * height
                while _masks_held > _MASKS_BYTES and _MASKS:
                    _masks_held -= _MASKS.popitem(last=False)[1][1]
        return mask, offset


@lru_cache(maxsize=16)  # a face is 0.2 MB (DejaVu) to 0.5 MB (Noto CJK) and opens in under a millisecond
def font(name: FontName, size: int) -> ImageFont.FreeTypeFont:
    """A bundled DejaVu font (Greek and Hungarian glyphs included), loaded once per name and size."""
    return _Face(str(FONT_DIR / _FONT_FILES[name]), size)


def _file_of(face: ImageFont.FreeTypeFont) -> str:
    return _file_name(str(face.path))


@lru_cache(maxsize=64)
def _file_name(path: str) -> str:
    return Path(path).name


@lru_cache(maxsize=8)
def _notdef(file: str) -> bytes:
    """How a face draws a character it lacks (its .notdef box), to recognise one."""
    return bytes(ImageFont.truetype(str(FONT_DIR / file), 24).getmask("\U0010fffd"))


@lru_cache(maxsize=65536)
def has_glyph(file: str, char: str) -> bool:
    """Whether the bundled font ``file`` draws ``char`` itself (rather than its missing-glyph box)."""
    if char.isspace() or ord(char) < 0x250:
        return ord(char) >= 0x20 or char.isspace()
    return bytes(ImageFont.truetype(str(FONT_DIR / file), 24).getmask(char)) != _notdef(file)


#: The characters each bundled font file is known to draw itself (filled as texts are measured): a text made of
#: them only is one run, found without asking about each of its characters again.
_DRAWN_BY: dict[str, set[str]] = {}


def runs(text: str, face: ImageFont.FreeTypeFont) -> list[tuple[str, ImageFont.FreeTypeFont]]:
    """``text`` split into pieces that one face draws each: the face itself, or its fallback for the rest."""
    file = _file_of(face)
    other = _FALLBACK.get(file)
    if other is None or text.isascii():
        return [(text, face)]
    drawn = _DRAWN_BY.setdefault(file, set())
    if drawn.issuperset(text):
        return [(text, face)]
    drawn.update(char for char in set(text) if has_glyph(file, char))
    if drawn.issuperset(text):
        return [(text, face)]
    spare = font(other, int(face.size))
    out: list[tuple[str, ImageFont.FreeTypeFont]] = []
    for char in text:
        use = face if has_glyph(file, char) or not has_glyph(_FONT_FILES[other], char) else spare
        if out and out[-1][1] is use:
            out[-1] = (out[-1][0] + char, use)
        else:
            out.append((char, use))
    return out


#: Widths measured lately, by text, font file and size: a picture measures the same names and numbers each
#: time it is drawn (fitting a label tries several sizes), and a measure costs a text layout.
_LENGTHS: OrderedDict[tuple[str, str, float], float] = OrderedDict()
_LENGTHS_KEPT = 8192


def text_length(text: str, face: ImageFont.FreeTypeFont) -> float:
    """The advance width of ``text`` in pixels, as ``canvas`` draws it (fallback glyphs included)."""
    key = (text, str(face.path), face.size)
    found = _LENGTHS.get(key)
    if found is None:
        found = sum(f.getlength(piece) for piece, f in runs(text, face))
        _LENGTHS[key] = found
        if len(_LENGTHS) > _LENGTHS_KEPT:
            with contextlib.suppress(KeyError):  # (drawn in several threads: another may have dropped it)
                _LENGTHS.popitem(last=False)
    return found


class Canvas(ImageDraw.ImageDraw):
    """``ImageDraw`` whose ``text`` draws each character in a face that has it (Japanese in Noto, the rest in
    DejaVu), keeping the anchor's meaning for the whole string.

    While a ``drawing()`` block runs, every text it draws is also noted (its box, moved by ``origin``: where
    this image will sit in the picture), with the frame it must stay inside (``inside``)."""

    origin: tuple[float, float] = (0.0, 0.0)
    frame: tuple[float, float, float, float] | None = None

    @contextmanager
    def inside(self, box: Sequence[float]) -> Iterator[None]:
        """Texts drawn in this block belong inside ``box`` (a label's frame): the picture check holds them to
        it."""
        before, self.frame = self.frame, (box[0], box[1], box[2], box[3])
        try:
            yield
        finally:
            self.frame = before

    def text(self, xy: tuple[float, float], text: str, fill: object = None,  # type: ignore[override]
             font: ImageFont.FreeTypeFont | None = None, anchor: str | None = None, *args: object,
             **kwargs: object) -> None:
        if font is None or "\n" in text or not isinstance(font, ImageFont.FreeTypeFont):
            super().text(xy, text, fill, font, anchor, *args, **kwargs)  # type: ignore[arg-type]
            return
        pieces = runs(text, font)
        if len(pieces) == 1 and pieces[0][1] is font:
            super().text(xy, text, fill, font, anchor, *args, **kwargs)  # type: ignore[arg-type]
            if _DRAWING and text.strip():  # the letters' box (a halo may lie over a neighbour, the letters not)
                self._noted(text, self.textbbox(xy, text, font, anchor))
            return
        anchor = anchor or "la"
        horizontal, vertical = anchor[0], anchor[1]
        total = sum(f.getlength(p) for p, f in pieces)
        x = xy[0] - {"l": 0.0, "m": total / 2, "r": total}.get(horizontal, 0.0)
        if vertical in "at":
            # Top anchors differ between faces; draw every piece on the first face's baseline instead.
            y = xy[1] + font.getmetrics()[0] if vertical == "a" else xy[1] - font.getbbox(text[:1] or "x",
                                                                                         anchor="ls")[1]
            vertical = "s"
        else:
            y = xy[1]
        boxes = []
        for piece, face in pieces:
            super().text((x, y), piece, fill, face, "l" + vertical, *args, **kwargs)  # type: ignore[arg-type]
            if _DRAWING and piece.strip():
                boxes.append(self.textbbox((x, y), piece, face, "l" + vertical))
            x += face.getlength(piece)
        if boxes:
            self._noted(text, (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
                               max(b[3] for b in boxes)))

    def _noted(self, text: str, box: Sequence[float]) -> None:
        ox, oy = self.origin
        frame = self.frame
        if frame is not None:
            frame = (frame[0] + ox, frame[1] + oy, frame[2] + ox, frame[3] + oy)
        mark(self, "text", box, text, frame=frame)


@dataclass(frozen=True, slots=True)
class Drawn:
    """One thing a picture drew, as the picture check reads it: ``kind`` ("text"; "key" — a map key's box that
    nothing else may cover; "token" — a player's piece; "badge" — a small mark; "winner" — the mark that says
    who won), its box in the picture's pixels, its words, the frame a text must stay inside, and the width of
    the image it was drawn on (a sprite drawn small and pasted is told apart from the picture's own layers)."""

    kind: str
    box: tuple[float, float, float, float]
    text: str = ""
    frame: tuple[float, float, float, float] | None = None
    width: int = 0


#: The lists ``drawing`` is filling (cheap when empty: a canvas notes nothing).
_DRAWING: list[list[Drawn]] = []


@contextmanager
def collecting(into: list[list[T]]) -> Iterator[list[T]]:
    """A list that is one of ``into``'s while the block runs (a recorder fills every list in ``into``)."""
    seen: list[T] = []
    into.append(seen)
    try:
        yield seen
    finally:
        into.remove(seen)


def drawing() -> AbstractContextManager[list[Drawn]]:
    """Everything the pictures drawn in this block note (``Canvas.text`` and ``mark``), in order: the layout
    record the picture check reads.  Layers a cache keeps are not drawn again, so clear them first."""
    return collecting(_DRAWING)


def mark(draw: ImageDraw.ImageDraw | Image.Image, kind: str, box: Sequence[float], text: str = "", *,
         frame: Sequence[float] | None = None) -> None:
    """Note a box drawn on ``draw`` (a canvas, or the image itself) for the picture check: a map key, a token,
    a badge, the winner's mark (see ``Drawn``); nothing unless a ``drawing()`` block runs."""
    if not _DRAWING:
        return
    ox, oy = draw.origin if isinstance(draw, Canvas) else (0.0, 0.0)
    width = draw.im.size[0] if isinstance(draw, ImageDraw.ImageDraw) else draw.width
    shown = Drawn(kind, (box[0] + ox, box[1] + oy, box[2] + ox, box[3] + oy), text,
                  None if frame is None else (frame[0], frame[1], frame[2], frame[3]), width)
    for seen in _DRAWING:
        seen.append(shown)


def canvas(img: Image.Image, origin: tuple[float, float] = (0.0, 0.0)) -> Canvas:
    """A drawing surface for ``img`` that falls back per character to the Japanese font; ``origin``: where the
    image's corner will sit in the finished picture (a layer pasted lower down), for the layout record."""
    draw = Canvas(img)
    if origin != (0.0, 0.0):
        draw.origin = origin
    return draw


#: Japanese (and Chinese) script: a line may break between any two of its characters, no space needed.
CJK = re.compile(r"[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")
#: Characters a Japanese line must not begin with (closing brackets, small kana, punctuation).
NO_LINE_START = frozenset("、。，．・：；？！ー」』）】〕ぁぃぅぇぉっゃゅょァィゥェォッャュョ")


def capitals(label: str) -> str:
    """A label in capitals, as a band or a heading prints it: Greek capitals drop their accents (ΑΙΘΟΥΣΑ, not
    ΑΊΘΟΥΣΑ), as Greek typesetting does; other scripts keep theirs (SEBESÜLT)."""
    out = []
    for ch in label.upper():
        if "\u0370" <= ch <= "\u03ff":
            ch = unicodedata.normalize("NFC", "".join(c for c in unicodedata.normalize("NFD", ch) if c != "\u0301"))
        out.append(ch)
    return "".join(out)


def units(text: str) -> list[tuple[str, bool]]:
    """``text`` cut where a line may break: (piece, glued) — ``glued``: no space before it (inside a run of
    Japanese, where any two characters may part).  Text without Japanese cuts at its spaces only."""
    out: list[tuple[str, bool]] = []
    for word in text.split():
        if not CJK.search(word):
            out.append((word, False))
            continue
        piece, first = "", True
        for ch in word:
            if piece and (CJK.match(ch) or CJK.match(piece[-1])) and ch not in NO_LINE_START:
                out.append((piece, not first))
                piece, first = "", False
            piece += ch
        out.append((piece, not first))
    return out


#: How far a line's width added up piece by piece may be from its width measured whole, before the whole is
#: measured: text is shaped with no kerning across a space, so after a space the two agree for the bundled faces
#: (to the 1/64 pixel); Japanese characters glued together are shaped as a run (punctuation narrows), up to
#: 1.3 pixels apart per join, so each glued join since the line was last measured whole widens the margin.
_SUM_SLACK = 1.0
_GLUED_SLACK = 1.5


def _joined(line: str, width_of_line: float, glued_since: int, piece: str, glued: bool,
            face: ImageFont.FreeTypeFont, width: float) -> tuple[float, bool] | None:
    """The width of ``line`` with ``piece`` added (after a space unless ``glued``) and whether it was measured
    whole, when it fits ``width``: added up from the two widths (each kept), and measured whole only when the sum
    is near the edge (``glued_since``: glued joins since ``width_of_line`` was measured whole)."""
    joint = piece if glued else f" {piece}"
    guess = width_of_line + text_length(joint, face)
    slack = _SUM_SLACK + _GLUED_SLACK * (glued_since + glued)
    if guess > width + slack:
        return None
    if guess < width - slack:
        return guess, False
    whole = text_length(line + joint, face)
    return (whole, True) if whole <= width else None


def wrap_words(text: str, face: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """Greedy wrap of one paragraph to ``width`` pixels at spaces (and between Japanese characters) only: a
    word wider than the box gets a line of its own."""
    pieces = units(text)
    found = _wrap_units(pieces, face, width, summed=True)
    return found if found is not None else _wrap_units(pieces, face, width, summed=False) or []


def wrap(text: str, face: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """Greedy word wrap to ``width`` pixels; paragraphs (``\\n``) are kept, over-long words are split.  A
    paragraph in Japanese breaks between its characters instead (never with a hyphen).

    A line's width is added up piece by piece (each word's width is kept, a trial line's rarely is) and measured
    whole only near the edge; each line of several words is measured whole once it is complete, and a paragraph
    where a sum was off is wrapped again measuring every trial, as a greedy wrap does."""
    lines: list[str] = []
    for para in text.split("\n"):
        if CJK.search(para):
            lines += wrap_words(para, face, width) or [""]
            continue
        words = [(word, False) for word in para.split()]
        if not words:
            lines.append("")
            continue
        found = _wrap_units(words, face, width, summed=True, split=True)
        lines += found if found is not None else _wrap_units(words, face, width, summed=False, split=True) or []
    return lines


def _wrap_units(pieces: list[tuple[str, bool]], face: ImageFont.FreeTypeFont, width: float, *, summed: bool,
                split: bool = False) -> list[str] | None:
    """Greedy wrap of (piece, glued) to ``width``; ``split``: a word wider than the box is cut with hyphens, else it
    gets a line of its own.  ``summed``: widths added up (``_joined``), and None if a finished line measured whole
    does not fit after all; otherwise every trial line is measured whole."""
    lines: list[str] = []
    line, line_w, joins, glued_since = "", 0.0, 0, 0
    for word, glued in pieces:
        if line:
            if summed:
                joined = _joined(line, line_w, glued_since, word, glued, face, width)
            else:
                whole = text_length(f"{line}{word}" if glued else f"{line} {word}", face)
                joined = (whole, True) if whole <= width else None
            if joined is not None:
                line, line_w = (f"{line}{word}" if glued else f"{line} {word}"), joined[0]
                joins, glued_since = joins + 1, 0 if joined[1] else glued_since + glued
                continue
            if summed and joins and text_length(line, face) > width:
                return None
            lines.append(line)
        while split and text_length(word, face) > width and len(word) > 1:
            cut = len(word) - 1
            while cut > 1 and text_length(word[:cut] + "-", face) > width:
                cut -= 1
            lines.append(word[:cut] + "-")
            word = word[cut:]
        line, line_w, joins, glued_since = word, text_length(word, face), 0, 0
    if line:
        if summed and joins and text_length(line, face) > width:
            return None
        lines.append(line)
    return lines


def line_height(face: ImageFont.FreeTypeFont, spacing: float = 1.2) -> int:
    ascent, descent = face.getmetrics()
    return round((ascent + descent) * spacing)


def fit_text(
    text: str, name: FontName, width: float, height: float, *, largest: int, smallest: int,
    spacing: float = 1.2,
) -> tuple[ImageFont.FreeTypeFont, list[str]]:
    """The largest font size (``largest`` down to ``smallest``) at which ``text`` wraps into the box.

    At ``smallest`` the text may still overflow; the lines that do not fit end with an ellipsis.
    """
    for size in range(largest, smallest - 1, -1):
        face = font(name, size)
        lines = wrap(text, face, width)
        if len(lines) * line_height(face, spacing) <= height:
            return face, lines
    face = font(name, smallest)
    lines = wrap(text, face, width)
    keep = max(1, int(height // line_height(face, spacing)))
    if len(lines) > keep:
        lines = lines[:keep]
        lines[-1] = ellipsize(lines[-1] + " …", face, width)
    return face, lines


@dataclass(frozen=True, slots=True)
class Fitted:
    """One label as ``fit_label`` drew it: the text asked for, the text drawn, the room it had, how wide it was
    drawn and at what size."""

    text: str
    shown: str
    width: float
    measured: float
    size: int

    @property
    def overflows(self) -> bool:
        """Cut short, or wider than its room even at the smallest size allowed."""
        return self.shown != self.text or self.measured > self.width


#: The lists ``fitting`` is filling (a list per block; pictures may be drawn in a worker thread).
_FITTING: list[list[Fitted]] = []


def fitting() -> AbstractContextManager[list[Fitted]]:
    """Every label ``fit_label`` fits while the block runs, in order (the fit tests read them)."""
    return collecting(_FITTING)


def fit_label(text: str, name: FontName, size: int, width: float, *, smallest: int | None = None, cut: bool = True,
              clip: bool = False) -> tuple[ImageFont.FreeTypeFont, str]:
    """The face ``name`` at ``size``, or the largest smaller size (down to ``smallest``; by default 70% of
    ``size``, never under 10) at which the one-line label ``text`` fits ``width`` pixels, and the text to draw:
    a longer translation shrinks instead of running out of its box.  If even the smallest face is too wide the
    text is cut short with "…" (``cut=False``: it is drawn whole, and the fit checks catch it); ``clip`` says
    that cutting is expected there (a player's own name) and no overflow."""
    low = smallest if smallest is not None else max(10, round(size * 0.7))
    low = min(low, size)
    for s in range(size, low - 1, -1):
        face = font(name, s)
        measured = text_length(text, face)
        if measured <= width:
            note(text, text, width, measured, s)
            return face, text
    face = font(name, low)
    shown = ellipsize(text, face, width) if cut else text
    note(shown if clip else text, shown, width, text_length(shown, face), low)
    return face, shown


def note(text: str, shown: str, width: float, measured: float, size: int) -> None:
    """Tell the fit checks of a label fitted some other way (a name over two lines, say)."""
    for seen in _FITTING:
        seen.append(Fitted(text, shown, width, measured, size))


def label(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, name: FontName, size: int, width: float,
          *, smallest: int | None = None, clip: bool = False, **kw: object) -> None:
    """Draw ``text`` at ``xy`` so that it fits ``width`` (see ``fit_label``)."""
    face, shown = fit_label(text, name, size, width, smallest=smallest, clip=clip)
    draw.text(xy, shown, font=face, **kw)  # type: ignore[arg-type]


def ellipsize(text: str, face: ImageFont.FreeTypeFont, width: float) -> str:
    """``text`` cut short with "…" so that it fits ``width`` pixels."""
    if text_length(text, face) <= width:
        return text
    while text and text_length(text + "…", face) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def draw_lines(
    draw: ImageDraw.ImageDraw, lines: Sequence[str], box: Box, face: ImageFont.FreeTypeFont, fill: RGB, *,
    align: Literal["left", "center"] = "left", valign: Literal["top", "middle"] = "top",
    spacing: float = 1.2, stroke: int = 0, stroke_fill: RGB | None = None,
) -> int:
    """Draw wrapped lines inside ``box``; returns the y just below the last line."""
    x0, y0, x1, y1 = box
    step = line_height(face, spacing)
    total = step * len(lines)
    y = y0 if valign == "top" else y0 + (y1 - y0 - total) // 2
    for line in lines:
        if align == "center":
            draw.text(((x0 + x1) / 2, y), line, font=face, fill=fill, anchor="ma",
                      stroke_width=stroke, stroke_fill=stroke_fill)
        else:
            draw.text((x0, y), line, font=face, fill=fill, stroke_width=stroke, stroke_fill=stroke_fill)
        y += step
    return y


def outlined(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, face: ImageFont.FreeTypeFont, *,
    fill: RGB = (255, 255, 255), outline: RGB = (0, 0, 0), width: int = 2, anchor: str = "mm",
) -> None:
    """A label with a dark rim, legible on any background."""
    draw.text(xy, text, font=face, fill=fill, anchor=anchor, stroke_width=width, stroke_fill=outline)


# --- palettes and encoding --------------------------------------------------------------------------

def mix(a: RGB, b: RGB, t: float) -> RGB:
    """The colour ``t`` of the way from ``a`` to ``b``."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def build_palette(solids: Iterable[RGB], ramps: Iterable[tuple[RGB, RGB]], *, steps: int = 4) -> Image.Image:
    """A fixed 256-colour palette image: the exact ``solids``, then ``steps - 1`` blends along each ramp
    (the anti-aliased edges of text and shapes), then greys and a coarse colour cube to fill the rest.
    """
    colours: list[RGB] = []
    seen: set[RGB] = set()

    def add(c: RGB) -> None:
        if c not in seen and len(colours) < 256:
            seen.add(c)
            colours.append(c)

    for c in solids:
        add(c)
    for a, b in ramps:
        for i in range(1, steps):
            add(mix(a, b, i / steps))
    for g in range(0, 256, 17):
        add((g, g, g))
    steps4 = (0, 85, 170, 255)
    for red in steps4:
        for green in steps4:
            for blue in steps4:
                add((red, green, blue))
    flat = [v for c in colours for v in c]
    flat += [0] * (768 - len(flat))
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat)
    return pal


def to_palette(img: Image.Image, palette: Image.Image) -> Image.Image:
    """Map an RGB image onto a fixed palette, nearest colour, no dithering (crisp flat areas)."""
    return img.quantize(palette=palette, dither=Image.Dither.NONE)


def png_bytes(img: Image.Image, *, compress_level: int = 1) -> bytes:
    """Encode as PNG.  Level 1 (a picture drawn for each move): a paletted or grey image is written by
    ``render.png`` (ISA-L's deflate: two to three times quicker than zlib's level 1, and smaller), others by
    Pillow at level 1, several times faster than its default (6) for a few percent more bytes.  A higher level
    (a card, drawn once and kept) goes through Pillow's zlib, which packs it a fifth smaller than ISA-L."""
    if compress_level <= 1:
        fast = png.encode(img)
        if fast is not None:
            return fast
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=compress_level)
    return buf.getvalue()


def supersampled(size: tuple[int, int], scale: int = 4) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A transparent canvas ``scale`` times larger, for drawing smooth (anti-aliased) sprites."""
    img = Image.new("RGBA", (size[0] * scale, size[1] * scale), (0, 0, 0, 0))
    return img, ImageDraw.Draw(img)


def shrink(img: Image.Image, size: tuple[int, int]) -> Image.Image:
    return img.resize(size, Image.Resampling.LANCZOS)


def cap_alt(text: str, limit: int = 1000) -> str:
    """Alt text within Discord's 1,024 characters of attachment description."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
