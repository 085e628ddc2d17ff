"""render/png.py: the PNG Tabula writes itself for paletted and grey pictures reads back, through Pillow and
through zlib alone, as exactly the image it was given — pixels, palette, transparency and text — and every
other mode is left to Pillow."""

from __future__ import annotations

import io
import random
import struct
import zlib

import pytest
from PIL import Image, ImageDraw

from render import cache, png
from render.common import png_bytes


def _read(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def _paletted(colours: int, size: tuple[int, int] = (173, 61)) -> Image.Image:
    """A busy RGB picture mapped onto ``colours`` colours (so the palette is as long as Pillow makes it)."""
    rgb = Image.new("RGB", size, (240, 230, 200))
    draw = ImageDraw.Draw(rgb)
    rng = random.Random(colours)
    for _ in range(40):
        x, y = rng.randrange(size[0]), rng.randrange(size[1])
        draw.ellipse((x, y, x + rng.randrange(4, 40), y + rng.randrange(4, 30)),
                     fill=(rng.randrange(256), rng.randrange(256), rng.randrange(256)))
    draw.text((4, 4), "Tabula", fill=(0, 0, 0))
    return rgb.quantize(colours, method=Image.Quantize.FASTOCTREE)


@pytest.mark.parametrize("colours", [2, 16, 128, 256])
def test_a_paletted_picture_reads_back_exactly(colours: int) -> None:
    img = _paletted(colours)
    data = png.encode(img)
    assert data is not None and data.startswith(b"\x89PNG\r\n\x1a\n")
    back = _read(data)
    assert back.mode == "P" and back.size == img.size
    assert back.tobytes() == img.tobytes()
    assert back.getpalette() == img.getpalette()
    assert back.convert("RGB").tobytes() == img.convert("RGB").tobytes()


def test_a_picture_of_many_pieces_reads_back_exactly() -> None:
    """Wider and taller than one piece of rows (``_PIECE``), with a short piece at the bottom."""
    img = _paletted(200, (1203, 157))
    assert 157 % (png._PIECE // 1204) != 0
    back = _read(png.encode(img) or b"")
    assert back.tobytes() == img.tobytes() and back.getpalette() == img.getpalette()


def test_transparency_by_index_by_table_and_for_grey_is_kept() -> None:
    img = _paletted(64)
    img.info["transparency"] = 5
    back = _read(png.encode(img) or b"")
    assert back.info["transparency"] == 5
    assert back.convert("RGBA").tobytes() == img.convert("RGBA").tobytes()
    table = bytes(range(0, 256, 4))
    img.info["transparency"] = table
    back = _read(png.encode(img) or b"")
    assert back.info["transparency"] == table
    assert back.convert("RGBA").tobytes() == img.convert("RGBA").tobytes()
    grey = _paletted(256).convert("L")
    grey.info["transparency"] = 200
    back = _read(png.encode(grey) or b"")
    assert back.mode == "L" and back.tobytes() == grey.tobytes() and back.info["transparency"] == 200


def test_text_in_any_script_comes_back_in_the_info() -> None:
    tail = '[[3,-4],"Ἀθῆναι · 東京 · Győr"]'
    back = _read(png.encode(_paletted(16), {"tabula": tail}) or b"")
    assert back.info["tabula"] == tail


def test_other_modes_and_empty_pictures_are_left_to_pillow() -> None:
    for mode in ("RGB", "RGBA", "LA", "1", "I;16"):
        assert png.encode(Image.new(mode, (4, 3))) is None, mode
    assert png.encode(Image.new("P", (0, 5))) is None
    rgba_palette = Image.new("P", (4, 4))
    rgba_palette.putpalette([1, 2, 3, 128] * 4, "RGBA")
    assert png.encode(rgba_palette) is None
    rgb = _paletted(64).convert("RGB")
    assert _read(png_bytes(rgb)).tobytes() == rgb.tobytes()  # through Pillow, as before


def test_the_stream_is_plain_png_rows_each_unfiltered() -> None:
    """Read without Pillow: IHDR says 8-bit indexed, and the inflated IDAT is each row after a zero byte."""
    img = _paletted(32, (9, 4))
    data = png.encode(img) or b""
    chunks, at = {}, 8
    while at < len(data):
        (length,), kind = struct.unpack(">I", data[at:at + 4]), data[at + 4:at + 8]
        body = data[at + 8:at + 8 + length]
        assert struct.unpack(">I", data[at + 8 + length:at + 12 + length])[0] == zlib.crc32(kind + body)
        chunks[kind] = body
        at += 12 + length
    assert list(chunks)[-1] == b"IEND"
    assert struct.unpack(">IIBBBBB", chunks[b"IHDR"]) == (9, 4, 8, 3, 0, 0, 0)
    raw = img.tobytes()
    assert zlib.decompress(chunks[b"IDAT"]) == b"".join(b"\x00" + raw[y * 9:(y + 1) * 9] for y in range(4))


def test_cards_kept_at_a_higher_level_still_go_through_pillow() -> None:
    img = _paletted(256, (300, 200))
    assert png_bytes(img) == png.encode(img)
    assert png_bytes(img, compress_level=6) != png.encode(img)
    assert _read(png_bytes(img, compress_level=6)).tobytes() == img.tobytes()


def test_a_kept_layer_with_its_place_round_trips_through_the_writer() -> None:
    """``render.cache`` writes a layer with plain data after it (a sprite and where it goes) as text."""
    img = _paletted(64)
    data = cache._png(img, b'[[12,-7]]')
    assert data == png.encode(img, {"tabula": "[[12,-7]]"})
    back = _read(data)
    assert back.tobytes() == img.tobytes() and back.info["tabula"] == "[[12,-7]]"


def test_deflate_and_inflate_are_zlib_streams() -> None:
    raw = bytes(range(256)) * 300
    assert zlib.decompress(png.deflate(raw)) == raw
    assert png.inflate(zlib.compress(raw, 9)) == raw


@pytest.mark.parametrize("mode", ["P", "RGB", "RGBA", "L", "1"])
def test_a_packed_layer_rebuilds_whole_and_in_crops_across_its_bands(mode: str) -> None:
    """``render.cache`` keeps a layer deflated a band of rows at a time and rebuilds it band by band: the whole
    and any crop (inside one band, across several, past the edges) are the image's own pixels."""
    base = _paletted(200, (211, 3 * cache.BAND + 7))
    img = base if mode == "P" else base.convert(mode)
    if mode == "P":
        img.info["transparency"] = 7
    for tile in (0, 64):
        packed = cache.compact(img) if tile == 0 else cache._Packed.of(img, tile)
        whole = packed.image()
        assert whole.mode == mode and whole.tobytes() == img.tobytes()
        assert whole.info.get("transparency") == img.info.get("transparency")
        for box in [(5, 3, 60, 20), (0, 20, 211, 80), (100, cache.BAND - 1, 150, 2 * cache.BAND + 1),
                    (-10, -5, 30, 12), (200, 90, 230, 110)]:
            cut = packed.crop(box)
            want = img.crop(box)
            assert cut.size == want.size and cut.tobytes() == want.tobytes(), (tile, box)


def test_without_python_isal_the_standard_zlib_writes_the_same_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where python-isal has no wheel, ``render.png`` falls back on the standard library's zlib: a fresh copy of
    the module loaded with ``isal`` unimportable writes PNGs that read back as the same image."""
    import builtins
    import importlib.util

    real_import = builtins.__import__

    def no_isal(name: str, *args: object, **kwargs: object) -> object:
        if name == "isal" or name.startswith("isal."):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", no_isal)
    spec = importlib.util.spec_from_file_location("render_png_without_isal", png.__file__)
    assert spec is not None and spec.loader is not None
    plain = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(plain)
    assert plain._zlib is zlib
    img = _paletted(128, (300, 140))
    back = _read(plain.encode(img) or b"")
    assert back.tobytes() == img.tobytes() and back.getpalette() == img.getpalette()
    assert plain.inflate(png.deflate(b"tabula" * 100)) == b"tabula" * 100
