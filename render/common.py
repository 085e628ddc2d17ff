"""Shared drawing helpers: bundled fonts (cached per size), text wrapping and fitting, outlined labels,
fixed palettes and fast PNG encoding.

Every renderer draws in RGB with these helpers; ``to_palette`` + ``png_bytes`` turn the result into a small
PNG quickly (a paletted image encodes several times faster than RGB, and encoding is the big cost).
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Literal

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path(__file__).parent / "fonts"

FontName = Literal["sans", "bold", "serif", "cond"]
_FONT_FILES: dict[str, str] = {
    "sans": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "serif": "DejaVuSerif-Bold.ttf",
    "cond": "DejaVuSansCondensed.ttf",
}

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]


@lru_cache(maxsize=128)
def font(name: FontName, size: int) -> ImageFont.FreeTypeFont:
    """A bundled DejaVu font (Greek and Hungarian glyphs included), loaded once per name and size."""
    return ImageFont.truetype(str(FONT_DIR / _FONT_FILES[name]), size)


def wrap(text: str, face: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """Greedy word wrap to ``width`` pixels; paragraphs (``\\n``) are kept, over-long words are split."""
    lines: list[str] = []
    for para in text.split("\n"):
        words = para.split()
        if not words:
            lines.append("")
            continue
        line = ""
        for word in words:
            trial = f"{line} {word}" if line else word
            if face.getlength(trial) <= width:
                line = trial
                continue
            if line:
                lines.append(line)
            while face.getlength(word) > width and len(word) > 1:
                cut = len(word) - 1
                while cut > 1 and face.getlength(word[:cut] + "-") > width:
                    cut -= 1
                lines.append(word[:cut] + "-")
                word = word[cut:]
            line = word
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


def ellipsize(text: str, face: ImageFont.FreeTypeFont, width: float) -> str:
    """``text`` cut short with "…" so that it fits ``width`` pixels."""
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
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
    """Encode as PNG.  Level 1 is several times faster than the default (6) for a few percent more bytes."""
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
