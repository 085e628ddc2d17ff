"""PNG written here for the pictures Tabula sends and keeps most: paletted and grey images, 8 bits a pixel.

Such a picture needs no row filter (a palette's indices gain nothing from one), so its PNG is the rows, each
after a zero byte, deflated once.  ISA-L's deflate (python-isal) at its fast level does that two to three times
quicker than zlib's level 1 inside Pillow, and 4–11 % smaller; its inflate is twice zlib's speed.  The same
deflate packs the layers kept in memory (``render.cache``).  Without python-isal (a platform it has no wheel
for) the standard library's zlib does it, in the same format.  Other modes go through Pillow.
"""

from __future__ import annotations

import struct
import zlib

from PIL import Image

try:
    from isal import isal_zlib as _zlib
except ImportError:  # pragma: no cover - python-isal is a dependency; this keeps an odd platform working
    import zlib as _zlib  # type: ignore[no-redef]  # the same functions, the same format

#: PNG's colour type for each mode written here (3: indexed, 0: grey).
_COLOUR_TYPE = {"P": 3, "L": 0}
_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def deflate(data: bytes) -> bytes:
    """``data`` as a zlib stream, at the fastest level that still finds repeats."""
    return _zlib.compress(data, 1)


def inflate(data: bytes) -> bytes:
    return _zlib.decompress(data)


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(body, zlib.crc32(kind)))


def encode(img: Image.Image, text: dict[str, str] | None = None) -> bytes | None:
    """``img`` as PNG bytes (``text``: international text chunks, read back in ``Image.info``), or None when its
    mode or palette is not one written here (the caller asks Pillow)."""
    colour = _COLOUR_TYPE.get(img.mode)
    if colour is None or (img.mode == "P" and img.palette is not None and img.palette.mode != "RGB"):
        return None
    w, h = img.size
    if w == 0 or h == 0:
        return None
    head = [_SIGNATURE, _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, colour, 0, 0, 0))]
    transparency = img.info.get("transparency")
    if img.mode == "P":
        head.append(_chunk(b"PLTE", bytes(img.getpalette() or [0, 0, 0])))
        if isinstance(transparency, int):
            head.append(_chunk(b"tRNS", b"\xff" * transparency + b"\x00"))
        elif isinstance(transparency, bytes):
            head.append(_chunk(b"tRNS", transparency))
        elif transparency is not None:
            return None
    elif isinstance(transparency, int):
        head.append(_chunk(b"tRNS", struct.pack(">H", transparency)))
    elif transparency is not None:
        return None
    for key, value in (text or {}).items():  # iTXt: keyword, no compression, no language, UTF-8 text
        head.append(_chunk(b"iTXt", key.encode("latin-1") + b"\x00\x00\x00\x00\x00" + value.encode("utf-8")))
    return b"".join((*head, _chunk(b"IDAT", _rows_deflated(img)), _chunk(b"IEND", b"")))


#: Rows deflated a piece at a time, so that no buffer is larger than this: a whole picture's would be a fresh
#: memory mapping, and so a page fault every 4 KB, where the bot's allocator is tuned (bot/ops/allocator.py).
_PIECE = 60 * 1024


def _rows_deflated(img: Image.Image) -> bytes:
    """Each row after its filter byte (0: none), deflated: a band of rows at a time is pasted one column in on a
    zeroed frame of the same mode, whose bytes are then exactly that."""
    w, h = img.size
    step = max(1, _PIECE // (w + 1))
    packer = _zlib.compressobj(1)
    out = []
    frame = Image.new(img.mode, (w + 1, min(step, h)), 0)
    for top in range(0, h, step):
        if h - top < frame.height:
            frame = Image.new(img.mode, (w + 1, h - top), 0)
        frame.paste(img, (1, -top))  # only the rows the frame covers are copied
        out.append(packer.compress(frame.tobytes()))
    out.append(packer.flush())
    return b"".join(out)
