"""The picture check's rules, read from the layout record a picture leaves while ``render.common.drawing()``
runs (every text a canvas draws, and the legends, tokens, badges and winner marks a renderer notes).

A picture fails when a text is drawn over another text or over a legend it is not part of, when a label runs
outside the frame it belongs to or off the picture, when a token or badge is smaller than a set size at the
width Discord shows on a phone, and (a final picture) when nothing marks the winner."""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from PIL import Image

from render import cache
from render.common import Drawn, png_bytes

#: The width Discord shows a picture at on a phone, and the smallest sizes a mark may have there (pixels).
PHONE = 500
SMALLEST = {"token": 12.0, "badge": 8.0}
#: How far two boxes may touch (in pixels at phone width) before it counts as drawing one over the other: a
#: glyph's box is a little larger than its ink.
TOUCH = 1.0
#: The least space between two texts on one line (at phone width), so that they do not read as one.
GAP = 2.0


def overlap(a: Sequence[float], b: Sequence[float], touch: float) -> bool:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w > touch and h > touch


def run_together(a: Sequence[float], b: Sequence[float], touch: float, gap: float) -> bool:
    """Two texts on one line with less than a narrow space between them: they read as one (a road's letter
    before a Japanese city name does)."""
    shared = min(a[3], b[3]) - max(a[1], b[1])
    if shared < 0.5 * min(a[3] - a[1], b[3] - b[1]):
        return False
    space = max(a[0], b[0]) - min(a[2], b[2])
    return -touch <= space < gap


def inside(box: Sequence[float], frame: Sequence[float], slack: float) -> bool:
    return (box[0] >= frame[0] - slack and box[1] >= frame[1] - slack and box[2] <= frame[2] + slack
            and box[3] <= frame[3] + slack)


def problems(drawn: Sequence[Drawn], size: tuple[int, int], *, final: bool) -> list[str]:
    """What is wrong with a picture of ``size`` whose layout record is ``drawn`` (empty: nothing)."""
    width, height = size
    scale = PHONE / width
    touch, gap = TOUCH / scale, GAP / scale  # in the picture's own pixels
    own = [d for d in drawn if d.width == width]  # a sprite drawn small and pasted keeps its own coordinates
    texts = list({(d.box, d.text): d for d in own if d.kind == "text"}.values())
    legends = [d for d in own if d.kind == "key"]
    arrows = [d for d in own if d.kind == "arrow"]
    out: list[str] = []
    for i, a in enumerate(texts):
        if not inside(a.box, (0, 0, width, height), touch):
            out.append(f"off the picture: {a.text!r} at {_r(a.box)}")
        if a.frame is not None and not inside(a.box, a.frame, touch):
            out.append(f"outside its box: {a.text!r} at {_r(a.box)}, its box {_r(a.frame)}")
        for b in texts[i + 1:]:
            if overlap(a.box, b.box, touch):
                out.append(f"text over text: {a.text!r} at {_r(a.box)} and {b.text!r} at {_r(b.box)}")
            elif max(len(a.text), len(b.text)) > 1 and run_together(a.box, b.box, touch, gap):
                # (two one-letter marks side by side are pieces, each in its own shape)
                out.append(f"texts run together: {a.text!r} at {_r(a.box)} and {b.text!r} at {_r(b.box)}")
        for arrow in arrows:
            if overlap(a.box, arrow.box, touch):
                out.append(f"an arrow over a text: {a.text!r} at {_r(a.box)}")
        for key in legends:
            if a.frame != key.box and overlap(a.box, key.box, touch):
                out.append(f"text over the legend: {a.text!r} at {_r(a.box)}")
    for d in own:
        least = SMALLEST.get(d.kind)
        if least is not None:
            side = min(d.box[2] - d.box[0], d.box[3] - d.box[1]) * scale
            if side < least:
                out.append(f"{d.kind} {d.text!r} is {side:.1f} px at {PHONE} px wide (at least {least})")
    if final and not any(d.kind == "winner" for d in own):
        out.append("the final picture does not show who won")
    return out


def _r(box: Sequence[float]) -> tuple[int, ...]:
    return tuple(round(v) for v in box)


#: Memoised functions kept warm: the shapes of the land, the same in every language and slow to fit, with no
#: words in them.
WORDLESS = ("geometry",)


def forget_drawn_layers() -> None:
    """Every renderer's kept layers and memoised pieces dropped (but the land's shapes), so that the next
    pictures draw (and note) everything: a layer taken from a cache is pasted, not drawn, and leaves no record."""
    cache.configure(None)
    for name, module in list(sys.modules.items()):
        if not name.startswith("render.") or module is None:
            continue
        for key, value in list(vars(module).items()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear) and not isinstance(value, type) and key not in WORDLESS:
                clear()


@contextmanager
def cold_caches() -> Iterator[None]:
    """``forget_drawn_layers`` for the block, and the process's picture cache put back after it."""
    kept = cache.current()
    forget_drawn_layers()
    try:
        yield
    finally:
        cache._cache = kept  # the test's own cache goes; the process's comes back


def blank_of_size(img: Image.Image) -> bytes:
    """A blank PNG the size of ``img``: what a fit test writes for a card it drew whole (its labels and its size are
    what it checks; the render tests encode every card)."""
    return png_bytes(Image.new("P", img.size))


def artifacts(tmp: Path) -> Path:
    """Where the pictures are kept for review: ``TABULA_TEST_ARTIFACTS`` if set, else the test's tmp dir."""
    root = os.environ.get("TABULA_TEST_ARTIFACTS")
    folder = Path(root) / "pictures" if root else tmp / "pictures"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def keep(folder: Path, name: str, png: bytes) -> Image.Image:
    """The picture saved at full size and at phone width (``name``.png, ``name``-500.png); returns it."""
    img = Image.open(io.BytesIO(png))
    img.load()
    img.save(folder / f"{name}.png")
    small = img.convert("RGB").resize((PHONE, round(img.height * PHONE / img.width)), Image.Resampling.LANCZOS)
    small.save(folder / f"{name}-{PHONE}.png")
    return img
