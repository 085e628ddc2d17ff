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
by ``@layer`` and ``@data`` — losslessly, as PNG or JSON — and decoded once per process into the caller's
own ``lru_cache``, so a restart does not spend seconds fitting coastlines before its first map.

Decoded images are never cached here: a 480×680 RGBA card is 1.3 MB decoded and ~60 KB as a paletted PNG.
Without a directory (tests, the terminal runner) the cache lives in memory only.  ``configure`` sets it.
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
import zlib
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import msgspec
import PIL
from PIL import Image
from PIL.PngImagePlugin import PngImageFile, PngInfo

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
        if self.directory is not None:
            with contextlib.suppress(OSError):
                self._path(key).unlink()

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


def _package_dir(module: str) -> Path:
    """``render.<game>.cards`` → render/<game>; a renderer outside render/ (a plug-in) → its own folder."""
    found = sys.modules.get(module)
    file = getattr(found, "__file__", None)
    return Path(file).resolve().parent if file else RENDER_ROOT


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


def key_of(name: str, version: str, args: tuple[object, ...], kwargs: dict[str, object]) -> str | None:
    """The picture's key, or None when an argument has no stable text form (its ``repr`` names a memory
    address, so it would never be found again)."""
    shown = repr((args, sorted(kwargs.items())))
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
    info = PngInfo()
    if tail is not None:
        info.add_text("tabula", tail.decode())
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=1, pnginfo=info)
    return buf.getvalue()


def _keep_layer(fn: Callable[P, T], encode: Callable[[T], bytes], decode: Callable[[bytes], T]) -> Callable[P, T]:
    name = f"{fn.__module__}.{fn.__qualname__}"

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        cache = _cache
        key = key_of(name, renderer_version(_package_dir(fn.__module__)), args, dict(kwargs))
        if key is None or cache.directory is None:
            return fn(*args, **kwargs)
        data = cache.get(key, memory=False)
        if data is not None:
            try:
                return decode(data)
            except Exception as err:  # a damaged file is drawn again (and replaced)
                log.warning("picture cache: could not read a kept layer of %s (%s)", name, err)
        made = fn(*args, **kwargs)
        cache.put_later(key, lambda: encode(made))
        return made

    return wrapper


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

    return _keep_layer(fn, encode, decode)


@dataclasses.dataclass(frozen=True, slots=True)
class _Packed:
    """An image's pixels compressed with zlib at its fastest level, with what it takes to rebuild it exactly:
    inflating this is two to three times quicker than decoding the same picture's PNG."""

    mode: str
    size: tuple[int, int]
    palette: list[int] | None
    transparency: object
    pixels: bytes

    @classmethod
    def of(cls, img: Image.Image) -> _Packed:
        palette = img.getpalette() if img.mode == "P" else None
        return cls(img.mode, img.size, palette, img.info.get("transparency"), zlib.compress(img.tobytes(), 1))

    def image(self) -> Image.Image:
        img = Image.frombytes(self.mode, self.size, zlib.decompress(self.pixels))
        if self.palette is not None:
            img.putpalette(self.palette)
        if self.transparency is not None:
            img.info["transparency"] = self.transparency
        return img


class Kept(typing.Generic[P]):
    """A large static layer (a map's whole base) never held decoded: kept compressed in memory (a few of its
    arguments' results), as PNG on disk when there is a directory, and decoded afresh at each call, so that
    the caller may draw on what it gets.

    A new picture pays one inflate (3–15 ms for a map) instead of the process holding each map's layers
    decoded between pictures (4–5 MB apiece, per language).  Lossless: the image returned is the one drawn,
    pixel for pixel, with its mode, palette and transparency.  ``cache_clear()`` forgets what it kept (tests
    that watch a layer being drawn)."""

    def __init__(self, fn: Callable[P, Image.Image], keep: int = 4) -> None:
        functools.update_wrapper(self, fn)
        self.fn = fn
        self.name = f"{fn.__module__}.{fn.__qualname__}"
        self.keep = keep
        self.made: set[str] = set()
        self._packed: OrderedDict[str, _Packed] = OrderedDict()
        self._lock = threading.Lock()  # renderers run in worker threads

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> Image.Image:
        key = key_of(self.name, renderer_version(_package_dir(self.fn.__module__)), args, dict(kwargs))
        if key is None:
            return self.fn(*args, **kwargs)
        with self._lock:
            packed = self._packed.get(key)
            if packed is not None:
                self._packed.move_to_end(key)
        if packed is not None:
            return packed.image()
        img: Image.Image | None = None
        data = _cache.get(key, memory=False)  # a file an earlier run (or another process) drew
        if data is not None:
            try:
                img = Image.open(io.BytesIO(data))
                img.load()
            except Exception as err:  # a damaged file is drawn again (and replaced)
                log.warning("picture cache: could not read a kept layer of %s (%s)", self.name, err)
                img = None
        if img is None:
            img = self.fn(*args, **kwargs)
            if _cache.directory is not None:
                _cache.put(key, _png(img), memory=False)
            self.made.add(key)
        packed = _Packed.of(img)
        with self._lock:
            self._packed[key] = packed
            while len(self._packed) > self.keep:
                self._packed.popitem(last=False)
        return img  # what is kept is packed already: the caller may draw on this one

    def cache_clear(self) -> None:
        with self._lock:
            self._packed.clear()
        for key in self.made:
            _cache.forget(key)
        self.made.clear()


def kept(fn: Callable[P, Image.Image]) -> Kept[P]:
    """``@kept``: see ``Kept``."""
    return Kept(fn)


def data(fn: Callable[P, T]) -> Callable[P, T]:
    """Keep a function's result (plain data msgspec can write and read back by the function's return
    annotation: numbers, strings, tuples, dicts, dataclasses) on disk between runs, such as label places."""
    return _keep_layer(fn, msgspec.json.encode, lambda raw: msgspec.json.decode(raw, type=_hints(fn)))


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


__all__ = ["Kept", "PictureCache", "configure", "current", "data", "default_directory", "encoded", "kept", "key_of",
           "layer", "renderer_version"]
