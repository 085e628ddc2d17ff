"""Drawn pictures kept as encoded PNG bytes: a bounded in-memory map, and optionally a directory on disk that
outlives the process, so a restart does not draw the same cards again.

A renderer marks a function that returns PNG bytes with ``@encoded``.  Its key is a hash of what the picture
shows (the function's arguments, their ``repr`` — values and structs, never live objects), the language it
is drawn in, and the *renderer version*: a hash of the source and layout files of the package the function
lives in (a plug-in's own folder) and of all of ``render/`` (the shared helpers and map kit included), of the
bundled fonts' names and sizes and of Pillow's version.  Editing a renderer, a font or Pillow therefore
changes the keys, and the old files are simply never read again (``prune`` removes files not used for a
while).

Static layers (a map's base, its label layer, highlight sprites, label places) are kept on disk the same way
by ``@layer`` and ``@data`` — losslessly, as PNG or JSON — and decoded into the caller's own ``lru_cache``, so
a restart does not spend seconds fitting coastlines before its first map.  A static layer is drawn at most
once per process, whether or not there is a directory: what was drawn stays in memory, compact (encoded),
until the directory holds it, and for the whole process when there is none (``layer_draws`` counts the
draws; a test plays whole games and fails on any second one).

Decoded images are never cached here: a 480×680 RGBA card is 1.3 MB decoded and ~60 KB as a paletted PNG.
Without a directory (tests) the cache lives in memory only.  ``configure`` sets it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import io
import logging
import os
import sys
import tempfile
import threading
import time
import typing
from collections import Counter, OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import msgspec
import PIL
from PIL import Image
from PIL.PngImagePlugin import PngImageFile, PngInfo

from render import png
from rules.i18n import language

log = logging.getLogger("tabula.pictures")

P = ParamSpec("P")
T = TypeVar("T")
NOTHING = b"tabula:none"
RENDER_ROOT = Path(__file__).resolve().parent
#: Bumped by hand when the cache's own format changes (the key's layout, the file naming).
FORMAT = "1"
#: PNG bytes kept in memory: with a directory the operating system's page cache keeps the files read often
#: (a read is a tenth of a millisecond), so memory holds only the newest few.
DEFAULT_MEMORY = 24 * 1024 * 1024
DISK_MEMORY = 2 * 1024 * 1024
#: Static layers' compressed pixels held in memory when a directory keeps them too (highlight sprites, label
#: places: a few KB to a few hundred each).
COMPACT_MEMORY = 6 * 1024 * 1024


class PictureCache:
    """PNG bytes by key: least recently used first out of memory past ``memory_bytes``; on disk in
    ``directory`` (written atomically, so two processes sharing one directory never read half a file)."""

    def __init__(self, directory: Path | None = None, memory_bytes: int = DEFAULT_MEMORY) -> None:
        self.directory = directory
        self.memory_bytes = memory_bytes
        self._memory: OrderedDict[str, bytes] = OrderedDict()
        self._held = 0
        self._lock = threading.Lock()  # renderers run in worker threads
        self.hits = self.disk_hits = self.misses = 0
        self._pending: set[threading.Thread] = set()
        #: Static layers drawn or read in this process, compact (compressed pixels): all of them without a
        #: directory, so that none is drawn twice; the newest with one.  ``_fresh``: those still being written.
        self._compact: OrderedDict[str, tuple[object, int]] = OrderedDict()
        self._compact_held = 0
        self.compact_bytes = COMPACT_MEMORY
        self._fresh: dict[str, object] = {}
        if directory is not None:
            directory.mkdir(parents=True, exist_ok=True)

    def _path(self, key: str) -> Path:
        assert self.directory is not None
        return self.directory / key[:2] / f"{key}.png"

    def get(self, key: str, *, memory: bool = True) -> bytes | None:
        """The bytes kept under ``key``, or None.  ``memory=False``: from disk only, and not kept in memory
        (a decoded layer is kept by its caller)."""
        with self._lock:
            data = self._memory.get(key) if memory else None
            if data is not None:
                self._memory.move_to_end(key)
                self.hits += 1
                return data
        if self.directory is not None:
            try:
                data = self._path(key).read_bytes()
            except OSError:
                data = None
            if data:
                self.disk_hits += 1
                if memory:
                    self._remember(key, data)
                return data
        with self._lock:
            self.misses += 1
        return None

    def put(self, key: str, data: bytes, *, memory: bool = True) -> None:
        if memory:
            self._remember(key, data)
        if self.directory is None:
            return
        path = self._path(key)
        try:
            path.parent.mkdir(exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".part-")
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.replace(tmp, path)
        except OSError as err:  # a full or read-only disk costs a redraw next time, nothing more
            log.warning("could not keep a picture in %s: %s", self.directory, err)

    def forget(self, key: str) -> None:
        """Drop one picture from memory and from disk."""
        with self._lock:
            old = self._memory.pop(key, None)
            if old is not None:
                self._held -= len(old)
            self._fresh.pop(key, None)
            held = self._compact.pop(key, None)
            if held is not None:
                self._compact_held -= held[1]
        if self.directory is not None:
            with contextlib.suppress(OSError):
                self._path(key).unlink()

    def layer_get(self, key: str) -> tuple[bool, object]:
        """A static layer drawn before: ``(True, its compact form)`` from memory, ``(False, its encoded bytes)``
        from the directory, ``(False, None)`` when it was never drawn."""
        with self._lock:
            held = self._compact.get(key)
            if held is not None:
                self._compact.move_to_end(key)
                return True, held[0]
            if key in self._fresh:
                return True, self._fresh[key]
        return False, self.get(key, memory=False)

    def layer_keep(self, key: str, compact: object, nbytes: int) -> None:
        """Hold a layer's compact form in memory: all of them without a directory (so none is drawn twice),
        the newest ``compact_bytes`` with one (the rest are read back from it)."""
        with self._lock:
            old = self._compact.pop(key, None)
            if old is not None:
                self._compact_held -= old[1]
            self._compact[key] = (compact, nbytes)
            self._compact_held += nbytes
            while self.directory is not None and self._compact_held > self.compact_bytes and len(self._compact) > 1:
                _key, (_old, n) = self._compact.popitem(last=False)
                self._compact_held -= n

    def layer_write(self, key: str, compact: object, encode: Callable[[], bytes]) -> None:
        """Write a layer just drawn to the directory in a thread of its own (encoding a large layer takes a few
        hundred milliseconds), its compact form found meanwhile by ``layer_get``."""
        if self.directory is None:
            return
        with self._lock:
            self._fresh[key] = compact

        def keep() -> None:
            try:
                self.put(key, encode(), memory=False)
            except Exception as err:  # a layer that cannot be written is held as drawn instead
                log.warning("picture cache: could not keep a layer (%s)", err)
                return
            finally:
                with self._lock:
                    self._pending.discard(writer)
            with self._lock:
                self._fresh.pop(key, None)

        writer = threading.Thread(target=keep, name="tabula-keep-layer")  # not a daemon: exit waits for it
        with self._lock:
            self._pending.add(writer)
        writer.start()

    @property
    def layer_bytes(self) -> int:
        """Bytes of the layers' compact forms held in memory."""
        return self._compact_held

    def put_later(self, key: str, make: Callable[[], bytes]) -> None:
        """Encode and keep in a thread of its own, on disk only (encoding a large layer takes a few hundred
        milliseconds: the picture waiting for the layer need not wait for that too)."""
        def keep() -> None:
            try:
                self.put(key, make(), memory=False)
            finally:
                with self._lock:
                    self._pending.discard(writer)

        writer = threading.Thread(target=keep, name="tabula-keep-layer")  # not a daemon: exit waits for it
        with self._lock:
            self._pending.add(writer)
        writer.start()

    def flush(self) -> None:
        """Wait for the layers still being written."""
        with self._lock:
            pending = list(self._pending)
        for writer in pending:
            writer.join()

    def _remember(self, key: str, data: bytes) -> None:
        with self._lock:
            old = self._memory.pop(key, None)
            if old is not None:
                self._held -= len(old)
            if len(data) > self.memory_bytes:
                return
            self._memory[key] = data
            self._held += len(data)
            while self._held > self.memory_bytes:
                _, dropped = self._memory.popitem(last=False)
                self._held -= len(dropped)

    @property
    def held_bytes(self) -> int:
        """Bytes of PNG kept in memory now."""
        return self._held

    def clear_memory(self) -> None:
        with self._lock:
            self._memory.clear()
            self._held = 0

    def prune(self, older_than_days: float = 30.0) -> int:
        """Remove files not read or written for ``older_than_days`` (an old renderer's pictures)."""
        if self.directory is None:
            return 0
        cutoff = time.time() - older_than_days * 86400
        removed = 0
        for path in self.directory.glob("*/*.png"):
            try:
                st = path.stat()
                if max(st.st_atime, st.st_mtime) < cutoff:
                    path.unlink()
                    removed += 1
            except OSError:
                continue
        return removed


_cache = PictureCache()


def configure(directory: Path | None, memory_bytes: int | None = None) -> PictureCache:
    """Use ``directory`` (None: memory only) for every renderer from now on; returns the new cache."""
    global _cache
    _cache.flush()
    if memory_bytes is None:
        memory_bytes = DEFAULT_MEMORY if directory is None else DISK_MEMORY
    _cache = PictureCache(directory, memory_bytes)
    return _cache


def current() -> PictureCache:
    return _cache


@contextlib.contextmanager
def kept_in(directory: Path | None) -> typing.Iterator[PictureCache]:
    """Keep pictures in ``directory`` inside the block (a run of the terminal), then go back to the cache
    used before: its layers and pictures are still there."""
    global _cache
    before = _cache
    try:
        directory_cache = configure(directory)
    except OSError as err:  # an unwritable folder: pictures are kept in memory only
        log.warning("pictures are kept in memory only: cannot use %s (%s)", directory, err)
        directory_cache = configure(None)
    try:
        yield directory_cache
    finally:
        directory_cache.flush()
        _cache = before


_PACKAGE_DIRS: dict[str, Path] = {}


def _package_dir(module: str) -> Path:
    """``render.<game>.cards`` → render/<game>; a renderer outside render/ (a plug-in) → its own folder.  Kept
    once found (every cached picture asks, and resolving a path is a system call a folder)."""
    known = _PACKAGE_DIRS.get(module)
    if known is not None:
        return known
    found = sys.modules.get(module)
    file = getattr(found, "__file__", None)
    if not file:
        return RENDER_ROOT
    folder = _PACKAGE_DIRS[module] = Path(file).resolve().parent
    return folder


@functools.cache
def renderer_version(folder: Path) -> str:
    """A hash of everything a picture drawn by the renderer in ``folder`` depends on besides its arguments."""
    h = hashlib.sha256(f"{FORMAT}|{PIL.__version__}".encode())
    sources = sorted(folder.glob("*.py")) + sorted(folder.glob("*.json"))
    sources += sorted(RENDER_ROOT.rglob("*.py")) + sorted(RENDER_ROOT.rglob("*.json"))
    for path in sources:
        h.update(path.name.encode())
        h.update(path.read_bytes())
    for font_file in sorted((RENDER_ROOT / "fonts").glob("*")):
        h.update(f"{font_file.name}:{font_file.stat().st_size}".encode())
    return h.hexdigest()[:16]


def _language() -> str:
    return language()


_SIMPLE = (str, int, float, bool, bytes, type(None), tuple, list, dict, set)
#: The text form of the large arguments seen lately (a map file: its ``repr`` is some 100 KB and takes
#: milliseconds), by identity, each with the object itself so that its id cannot be reused meanwhile.
_SHOWN: OrderedDict[int, tuple[object, str]] = OrderedDict()
_shown_lock = threading.Lock()


def _shown(arg: object) -> str:
    if isinstance(arg, _SIMPLE) or type(arg).__hash__ is None:
        return repr(arg)  # small, or mutable: its text now
    with _shown_lock:
        found = _SHOWN.get(id(arg))
        if found is not None and found[0] is arg:
            _SHOWN.move_to_end(id(arg))
            return found[1]
    text = repr(arg)
    with _shown_lock:
        _SHOWN[id(arg)] = (arg, text)
        while len(_SHOWN) > 16:
            _SHOWN.popitem(last=False)
    return text


def key_of(name: str, version: str, args: tuple[object, ...], kwargs: dict[str, object]) -> str | None:
    """The picture's key, or None when an argument has no stable text form (its ``repr`` names a memory
    address, so it would never be found again)."""
    shown = "(" + ", ".join(_shown(a) for a in args) + ")" + repr(sorted(kwargs.items()))
    if " at 0x" in shown:
        return None
    return hashlib.sha256(f"{name}|{version}|{_language()}|{shown}".encode()).hexdigest()


def encoded(fn: Callable[P, bytes]) -> Callable[P, bytes]:
    """Cache a function that draws a PNG: memory first, then the cache directory, then draw (and keep)."""
    name = f"{fn.__module__}.{fn.__qualname__}"

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> bytes:
        key = key_of(name, renderer_version(_package_dir(fn.__module__)), args, dict(kwargs))
        if key is None:
            return fn(*args, **kwargs)
        cache = _cache
        data = cache.get(key)
        if data is None:
            data = fn(*args, **kwargs)
            cache.put(key, data)
        return data

    return wrapper


def _hints(fn: Callable[..., Any]) -> Any:
    return typing.get_type_hints(fn)["return"]


def _png(img: Image.Image, tail: bytes | None = None) -> bytes:
    fast = png.encode(img, None if tail is None else {"tabula": tail.decode()})
    if fast is not None:
        return fast
    info = PngInfo()
    if tail is not None:
        info.add_text("tabula", tail.decode())
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=1, pnginfo=info)
    return buf.getvalue()


#: How many times each static layer was drawn in this process, by the layer's name and key.
_draws: Counter[tuple[str, str]] = Counter()
_draws_lock = threading.Lock()


def _drawn(name: str, key: str) -> None:
    with _draws_lock:
        _draws[(name, key)] += 1


def layer_draws() -> Counter[tuple[str, str]]:
    """How many times each static layer (``@layer``, ``@data``, ``@kept``) was drawn in this process, by
    ``(name, key)``: each should be drawn once at most, whatever the picture directory holds."""
    with _draws_lock:
        return Counter(_draws)


def drawn_twice() -> list[str]:
    """The static layers this process drew more than once ("name ×n"): none, whatever the directory holds."""
    return sorted(f"{name} ×{n}" for (name, _key), n in layer_draws().items() if n > 1)


def _compact_size(compact: object) -> int:
    if isinstance(compact, _Packed):
        return compact.nbytes + 200
    if isinstance(compact, tuple):
        return sum(_compact_size(part) for part in compact) + 100
    return 1024  # plain data (label places): small


def _keep_layer(fn: Callable[P, T], encode: Callable[[T], bytes], decode: Callable[[bytes], T],
                pack: Callable[[T], object], unpack: Callable[[object], T]) -> Callable[P, T]:
    name = f"{fn.__module__}.{fn.__qualname__}"

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        cache = _cache
        key = key_of(name, renderer_version(_package_dir(fn.__module__)), args, dict(kwargs))
        if key is None:  # no stable key: nothing to find it by again
            _drawn(name, repr((args, sorted(kwargs.items()))))
            return fn(*args, **kwargs)
        held, found = cache.layer_get(key)
        if held:
            return unpack(found)
        if isinstance(found, bytes):
            try:
                value = decode(found)
            except Exception as err:  # a damaged file is drawn again (and replaced)
                log.warning("picture cache: could not read a kept layer of %s (%s)", name, err)
            else:
                compact = pack(value)
                cache.layer_keep(key, compact, _compact_size(compact))
                return value
        made = fn(*args, **kwargs)
        _drawn(name, key)
        compact = pack(made)
        cache.layer_keep(key, compact, _compact_size(compact))
        cache.layer_write(key, compact, lambda: encode(unpack(compact)))
        return made

    return wrapper


def _pack_image(made: object) -> object:
    """A layer's result (an image, None, or an image and plain data) with its image compressed."""
    if isinstance(made, Image.Image):
        return _Packed.of(made)
    if isinstance(made, tuple) and made and isinstance(made[0], Image.Image):
        return (_Packed.of(made[0]), *made[1:])
    return made


def _unpack_image(compact: object) -> Any:
    if isinstance(compact, _Packed):
        return compact.image()
    if isinstance(compact, tuple) and compact and isinstance(compact[0], _Packed):
        return (compact[0].image(), *compact[1:])
    return compact


def layer(fn: Callable[P, T]) -> Callable[P, T]:
    """Keep a static layer on disk between runs (in memory it stays where the caller's ``lru_cache`` keeps
    it): the function returns an image, None, or a tuple of an image and plain data (a sprite and where it
    goes), and is annotated so; the image is stored losslessly as PNG (palette, mode and alpha kept)."""
    def encode(made: Any) -> bytes:
        if made is None:
            return NOTHING
        if isinstance(made, Image.Image):
            return _png(made)
        return _png(made[0], msgspec.json.encode(made[1:]))

    def decode(data: bytes) -> Any:
        if data == NOTHING:
            return None
        img = Image.open(io.BytesIO(data))
        img.load()
        tail = img.info.get("tabula") if isinstance(img, PngImageFile) else None
        if tail is None:
            return img
        hint = _hints(fn)
        shapes = [hint] if typing.get_origin(hint) is tuple else typing.get_args(hint)  # T, or T | None
        whole = next(a for a in shapes if typing.get_origin(a) is tuple)
        rest = msgspec.json.decode(tail.encode(), type=tuple[*typing.get_args(whole)[1:]])  # type: ignore[misc]
        return (img, *rest)

    return _keep_layer(fn, encode, decode, _pack_image, _unpack_image)


#: Rows of pixels compressed together in a kept layer: a crop (the names over a highlighted province)
#: inflates only the bands it touches.
BAND = 32


@dataclasses.dataclass(frozen=True, slots=True)
class _Packed:
    """An image's pixels deflated at the fastest level (``render.png.deflate``), in bands of ``BAND`` rows (cut
    into tiles ``tile`` pixels wide when given), with what it takes to rebuild it exactly: inflating this is
    quicker than decoding the same picture's PNG, and a crop inflates only the bands (tiles) it covers."""

    mode: str
    size: tuple[int, int]
    palette: list[int] | None
    transparency: object
    bands: tuple[bytes, ...]
    tile: int = 0

    @classmethod
    def of(cls, img: Image.Image, tile: int = 0) -> _Packed:
        palette = img.getpalette() if img.mode == "P" else None
        w, h = img.size
        if tile:
            bands = tuple(png.deflate(img.crop((x, y, min(w, x + tile), min(h, y + BAND))).tobytes())
                          for y in range(0, h, BAND) for x in range(0, w, tile))
        else:  # band by band: a whole layer's bytes at once would be a fresh mapping where the bot is tuned
            bands = tuple(png.deflate(img.crop((0, y, w, min(h, y + BAND))).tobytes()) for y in range(0, h, BAND))
        return cls(img.mode, img.size, palette, img.info.get("transparency"), bands, tile)

    @property
    def nbytes(self) -> int:
        return sum(len(b) for b in self.bands)

    def _dressed(self, img: Image.Image) -> Image.Image:
        if self.palette is not None:
            img.putpalette(self.palette)
        if self.transparency is not None:
            img.info["transparency"] = self.transparency
        return img

    def _rows(self, first: int, last: int) -> Image.Image:
        """Bands ``first`` to ``last`` (included) as one image, the width of the whole (bands uncut): each band
        pasted in its place, so that no buffer holds more than a band (a whole layer's bytes would be a fresh
        mapping, and a page fault every 4 KB, in the bot: bot/ops/allocator.py)."""
        w = self.size[0]
        height = min(self.size[1], (last + 1) * BAND) - first * BAND
        if first == last:
            return self._dressed(Image.frombytes(self.mode, (w, height), png.inflate(self.bands[first])))
        out = Image.new(self.mode, (w, height))
        for top, band in zip(range(0, height, BAND), self.bands[first:last + 1], strict=True):
            out.paste(Image.frombytes(self.mode, (w, min(BAND, height - top)), png.inflate(band)), (0, top))
        return self._dressed(out)

    def _tiles(self, box: tuple[int, int, int, int]) -> Image.Image:
        """The tiles under ``box``, pasted where they go in a picture of the box's size (zero elsewhere)."""
        x0, y0, x1, y1 = box
        w, h = self.size
        cols = -(-w // self.tile)
        out = Image.new(self.mode, (max(0, x1 - x0), max(0, y1 - y0)), 0)
        for ty in range(max(0, y0) // BAND * BAND, min(h, y1), BAND):
            for tx in range(max(0, x0) // self.tile * self.tile, min(w, x1), self.tile):
                size = (min(w, tx + self.tile) - tx, min(h, ty + BAND) - ty)
                piece = png.inflate(self.bands[ty // BAND * cols + tx // self.tile])
                out.paste(Image.frombytes(self.mode, size, piece), (tx - x0, ty - y0))
        return self._dressed(out)

    def image(self) -> Image.Image:
        if self.tile:
            return self._tiles((0, 0, *self.size))
        return self._rows(0, len(self.bands) - 1)

    def crop(self, box: tuple[int, int, int, int]) -> Image.Image:
        """``image().crop(box)`` (what lies outside the image is zero: transparent), inflating only the bands
        (tiles) under ``box``."""
        if self.tile:
            return self._tiles(box)
        x0, y0, x1, y1 = box
        first = min(max(0, y0 // BAND), len(self.bands) - 1)
        last = min(max(first, (max(y0, y1 - 1)) // BAND), len(self.bands) - 1)
        top = first * BAND
        out = self._rows(first, last).crop((x0, y0 - top, x1, y1 - top))
        if self.transparency is not None:
            out.info["transparency"] = self.transparency
        return out


#: An image kept compressed in memory, losslessly: ``.image()`` gives it back (a fresh copy each time), ``.crop``
#: a part of it; ``nbytes`` is what it holds.
Compact = _Packed


def compact(img: Image.Image) -> Compact:
    """``img`` compressed (deflated at the fastest level, in bands of rows): for a cache of drawn pieces that are
    pasted again and again but rarely all at once (a 128 KB province wash holds 3 KB, and inflates in 0.15 ms)."""
    return _Packed.of(img)


def _settled(rgb: Image.Image, palette: Image.Image) -> Image.Image:
    """``rgb`` mapped onto ``palette`` so that mapping it back to RGB and onto the palette again changes nothing
    (Pillow finds the nearest colour per block of similar colours, so a palette colour may map to a neighbour
    of its: such pixels take that neighbour at once), and a snapshot drawn on the RGB of a layer kept mapped is
    the same, where nothing was drawn, as the layer itself."""
    mapped = rgb.quantize(palette=palette, dither=Image.Dither.NONE)
    for _round in range(8):
        again = mapped.convert("RGB").quantize(palette=palette, dither=Image.Dither.NONE)
        if again.tobytes() == mapped.tobytes():
            break
        mapped = again
    return mapped


class Kept(typing.Generic[P]):
    """A large static layer (a map's whole base, its names) never held decoded: kept compressed in memory, as
    PNG on disk when there is a directory, and decoded afresh at each call, so that the caller may draw on
    what it gets.  Drawn at most once per process: without a directory, what was drawn stays (compressed) in
    memory for the whole process; with one, only the newest ``keep`` stay, the rest are read back from disk.

    A new picture pays one inflate (a few ms for a map) instead of the process holding each map's layers
    decoded between pictures (4–5 MB apiece, per language).  ``crop`` inflates only the bands a rectangle
    covers.  With ``palette`` (a function of the same arguments giving a palette image, such as the one the
    finished picture is mapped onto), the layer is kept mapped onto that palette — a third of the bytes, and
    each call converts it back to RGB (a millisecond): a snapshot drawn on it and mapped onto the same palette
    is the picture it would be from the RGB layer, its unchanged pixels exactly so.  Otherwise lossless: the
    image returned is the one drawn, pixel for pixel, with its mode, palette and transparency.
    ``cache_clear()`` forgets what it kept (tests that watch a layer being drawn)."""

    def __init__(self, fn: Callable[P, Image.Image], keep: int = 4,
                 palette: Callable[..., Image.Image] | None = None, tile: int = 0) -> None:
        functools.update_wrapper(self, fn)
        self.fn = fn
        self.tile = tile
        self.name = f"{fn.__module__}.{fn.__qualname__}"
        self.keep = keep
        self.to_palette = palette
        self.made: set[str] = set()
        self._packed: OrderedDict[str, _Packed] = OrderedDict()
        self._lock = threading.Lock()  # renderers run in worker threads

    def _key(self, args: tuple[object, ...], kwargs: dict[str, object]) -> str | None:
        return key_of(self.name, renderer_version(_package_dir(self.fn.__module__)), args, kwargs)

    def _drawn(self, key: str, *args: P.args, **kwargs: P.kwargs) -> Image.Image:
        img = self.fn(*args, **kwargs)
        _drawn(self.name, key)
        if self.to_palette is not None and img.mode == "RGB":
            img = _settled(img, self.to_palette(*args, **kwargs))
        return img

    def _found(self, key: str) -> _Packed | None:
        """The layer being written to disk, or a file an earlier run (or another process) drew."""
        fresh, data = _cache.layer_get(key)
        if fresh and isinstance(data, _Packed):
            return data
        if not isinstance(data, bytes):
            return None
        try:
            img = Image.open(io.BytesIO(data))
            img.load()
        except Exception as err:  # a damaged file is drawn again (and replaced)
            log.warning("picture cache: could not read a kept layer of %s (%s)", self.name, err)
            return None
        return _Packed.of(img, self.tile)

    def packed(self, *args: P.args, **kwargs: P.kwargs) -> _Packed:
        """The layer as kept: found in memory, read from disk, or drawn."""
        key = self._key(args, dict(kwargs))
        if key is None:
            _drawn(self.name, repr((args, sorted(kwargs.items()))))
            return _Packed.of(self.fn(*args, **kwargs), self.tile)
        with self._lock:
            found = self._packed.get(key)
            if found is not None:
                self._packed.move_to_end(key)
                return found
        cache = _cache
        found = self._found(key)
        if found is None:
            made = _Packed.of(self._drawn(key, *args, **kwargs), self.tile)
            self.made.add(key)
            if cache.directory is not None:
                cache.layer_write(key, made, lambda: _png(made.image()))
            found = made
        with self._lock:
            self._packed[key] = found
            if cache.directory is not None:  # the rest are on disk (or on their way there: see layer_get)
                while len(self._packed) > self.keep:
                    self._packed.popitem(last=False)
        return found

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> Image.Image:
        img = self.packed(*args, **kwargs).image()  # ours alone: the caller may draw on it
        return img.convert("RGB") if self.to_palette is not None and img.mode == "P" else img

    def paletted(self, *args: P.args, **kwargs: P.kwargs) -> Image.Image:
        """The layer as kept, mapped onto its palette (with ``palette``), decoded afresh."""
        return self.packed(*args, **kwargs).image()

    def crop(self, box: tuple[int, int, int, int], *args: P.args, **kwargs: P.kwargs) -> Image.Image:
        """``self(*args).crop(box)`` without decoding the rest of the layer."""
        img = self.packed(*args, **kwargs).crop(box)
        return img.convert("RGB") if self.to_palette is not None and img.mode == "P" else img

    def cache_clear(self) -> None:
        with self._lock:
            self._packed.clear()
        for key in self.made:
            _cache.forget(key)
        self.made.clear()


class Recent(typing.Generic[P]):
    """The newest ``keep`` results of a function drawing a large picture from a game's state (a map coloured by
    who holds what), kept compressed in memory only — mapped onto ``palette`` when given — and decoded afresh at
    each call, so the caller may draw on what it gets: the next picture of the same game usually needs the same
    one.  Not a static layer: never written to disk, and dropped in favour of newer ones."""

    def __init__(self, fn: Callable[P, Image.Image], keep: int, palette: Callable[..., Image.Image] | None) -> None:
        functools.update_wrapper(self, fn)
        self.fn, self.keep, self.to_palette = fn, keep, palette
        self._packed: OrderedDict[tuple[object, ...], _Packed] = OrderedDict()
        self._lock = threading.Lock()

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> Image.Image:
        key = (language(), args, tuple(sorted(kwargs.items())))
        with self._lock:
            found = self._packed.get(key)
            if found is not None:
                self._packed.move_to_end(key)
        if found is None:
            img = self.fn(*args, **kwargs)
            if self.to_palette is not None and img.mode == "RGB":
                img = img.quantize(palette=self.to_palette(*args, **kwargs), dither=Image.Dither.NONE)
            found = _Packed.of(img)
            with self._lock:
                self._packed[key] = found
                while len(self._packed) > self.keep:
                    self._packed.popitem(last=False)
        img = found.image()
        return img.convert("RGB") if self.to_palette is not None and img.mode == "P" else img

    def cache_clear(self) -> None:
        with self._lock:
            self._packed.clear()


def recent(keep: int = 4, *, palette: Callable[..., Image.Image] | None = None
           ) -> Callable[[Callable[P, Image.Image]], Recent[P]]:
    """``@recent(keep, palette=...)``: see ``Recent``."""
    def wrap(fn: Callable[P, Image.Image]) -> Recent[P]:
        return Recent(fn, keep, palette)

    return wrap


@typing.overload
def kept(fn: Callable[P, Image.Image]) -> Kept[P]: ...


@typing.overload
def kept(*, palette: Callable[..., Image.Image] | None = None, tile: int = 0
         ) -> Callable[[Callable[P, Image.Image]], Kept[P]]: ...


def kept(fn: Callable[P, Image.Image] | None = None, *, palette: Callable[..., Image.Image] | None = None,
         tile: int = 0) -> Kept[P] | Callable[[Callable[P, Image.Image]], Kept[P]]:
    """``@kept``, or ``@kept(palette=..., tile=...)``: see ``Kept`` (``tile``: kept in tiles that many pixels
    wide, for a layer mostly cropped)."""
    if fn is not None:
        return Kept(fn)

    def wrap(f: Callable[P, Image.Image]) -> Kept[P]:
        return Kept(f, palette=palette, tile=tile)

    return wrap


def data(fn: Callable[P, T]) -> Callable[P, T]:
    """Keep a function's result (plain data msgspec can write and read back by the function's return
    annotation: numbers, strings, tuples, dicts, dataclasses) on disk between runs, such as label places."""
    return _keep_layer(fn, msgspec.json.encode, lambda raw: msgspec.json.decode(raw, type=_hints(fn)),
                       lambda made: made, lambda compact: typing.cast(T, compact))


def default_directory(database_url: str) -> Path:
    """Where pictures are kept when the settings name no directory: beside a SQLite file
    (``tabula.db`` → ``tabula-pictures/``), else the user's cache directory ($XDG_CACHE_HOME or ~/.cache),
    else the system's temporary directory."""
    prefix = "sqlite+aiosqlite:///"
    if database_url.startswith(prefix) and ":memory:" not in database_url:
        db = Path(database_url[len(prefix):].split("?", 1)[0])
        return db.resolve().parent / f"{db.stem}-pictures"
    base = os.environ.get("XDG_CACHE_HOME") or (str(Path.home() / ".cache") if Path.home().exists() else "")
    if base:
        return Path(base) / "tabula" / "pictures"
    return Path(tempfile.gettempdir()) / "tabula-pictures"


__all__ = ["Compact", "Kept", "PictureCache", "compact", "configure", "current", "data", "default_directory",
           "drawn_twice", "encoded", "kept", "kept_in", "key_of", "layer", "layer_draws", "recent",
           "renderer_version"]
