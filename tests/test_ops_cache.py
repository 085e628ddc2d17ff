"""The picture cache (render/cache.py): PNG bytes kept on disk between runs, found again after a restart,
and never found once the renderer, the language or the picture's content changes."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from render import cache as picture_cache
from render.common import png_bytes
from rules.i18n import using

ROOT = Path(__file__).resolve().parent.parent
DRAWN: list[str] = []


@picture_cache.encoded
def _card(title: str, colour: tuple[int, int, int]) -> bytes:
    DRAWN.append(title)
    return png_bytes(Image.new("RGB", (8, 8), colour))


@picture_cache.layer
def _sprite(side: int) -> tuple[Image.Image, tuple[int, int]] | None:
    DRAWN.append(f"sprite {side}")
    return (Image.new("RGBA", (side, side), (1, 2, 3, 4)), (side, -side)) if side else None


def test_a_picture_is_drawn_once_then_read_from_disk_by_a_new_cache(tmp_path: Path) -> None:
    DRAWN.clear()
    try:
        picture_cache.configure(tmp_path)
        first = _card("Troll", (10, 20, 30))
        assert _card("Troll", (10, 20, 30)) == first and DRAWN == ["Troll"]
        assert len(list(tmp_path.glob("*/*.png"))) == 1
        again = picture_cache.configure(tmp_path)  # as after a restart: nothing in memory
        assert _card("Troll", (10, 20, 30)) == first and DRAWN == ["Troll"]
        assert again.disk_hits == 1 and again.misses == 0
        _card("Troll", (10, 20, 31))  # other content, another key
        with using("ja"):
            _card("Troll", (10, 20, 30))  # another language, another key
        assert DRAWN == ["Troll", "Troll", "Troll"]
    finally:
        picture_cache.configure(None)


def test_a_changed_renderer_version_invalidates(tmp_path: Path) -> None:
    DRAWN.clear()
    try:
        picture_cache.configure(tmp_path)
        _card("Gate", (1, 1, 1))
        version = picture_cache.renderer_version(Path(__file__).resolve().parent)
        picture_cache.renderer_version.cache_clear()
        import pytest

        patch = pytest.MonkeyPatch()
        patch.setattr(picture_cache, "FORMAT", "changed")
        try:
            assert picture_cache.renderer_version(Path(__file__).resolve().parent) != version
            picture_cache.configure(tmp_path)
            _card("Gate", (1, 1, 1))
        finally:
            patch.undo()
            picture_cache.renderer_version.cache_clear()
        assert DRAWN == ["Gate", "Gate"]
    finally:
        picture_cache.configure(None)


def test_the_version_hashes_the_renderer_sources(tmp_path: Path) -> None:
    folder = tmp_path / "plugin"
    folder.mkdir()
    (folder / "draw.py").write_text("WIDTH = 1\n")
    before = picture_cache.renderer_version(folder)
    picture_cache.renderer_version.cache_clear()
    (folder / "draw.py").write_text("WIDTH = 2\n")
    assert picture_cache.renderer_version(folder) != before


def test_a_layer_round_trips_losslessly_with_its_place_and_none(tmp_path: Path) -> None:
    DRAWN.clear()
    try:
        picture_cache.configure(tmp_path)
        img, at = _sprite(6) or (None, None)
        picture_cache.configure(tmp_path)
        back = _sprite(6)
        assert back is not None and img is not None
        assert back[1] == at == (6, -6) and back[0].mode == "RGBA" and back[0].tobytes() == img.tobytes()
        assert _sprite(0) is None
        picture_cache.configure(tmp_path)
        assert _sprite(0) is None
        assert DRAWN == ["sprite 6", "sprite 0"]
    finally:
        picture_cache.configure(None)


def test_memory_is_bounded_and_a_damaged_file_is_drawn_again(tmp_path: Path) -> None:
    kept = picture_cache.PictureCache(None, memory_bytes=100)
    for i in range(10):
        kept.put(str(i), b"x" * 40)
    assert kept.held_bytes <= 100 and kept.get("0") is None and kept.get("9") == b"x" * 40
    DRAWN.clear()
    try:
        picture_cache.configure(tmp_path)
        _sprite(4)
        picture_cache.current().flush()
        for path in tmp_path.glob("*/*.png"):
            path.write_bytes(b"not a png")
        picture_cache.configure(tmp_path)
        assert _sprite(4) is not None and DRAWN == ["sprite 4", "sprite 4"]
    finally:
        picture_cache.configure(None)


def test_default_directory_sits_beside_the_sqlite_file(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    assert picture_cache.default_directory(url) == tmp_path / "games-pictures"
    assert picture_cache.default_directory("postgresql+asyncpg://u:p@h/db").name == "pictures"


def test_a_real_card_is_found_again_by_a_fresh_process(tmp_path: Path) -> None:
    """Two processes: the first draws a card into the directory, the second reads it and draws nothing."""
    code = ("import sys; from pathlib import Path; import render.cache as c; c.configure(Path(sys.argv[1]));"
            "from bot.present import presenter; from rules.registry import games;"
            "key = sorted(games())[0]; n = presenter(key).warm();"
            "k = c.current(); print(k.misses, k.disk_hits)")
    runs = [subprocess.run([sys.executable, "-c", code, str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                           timeout=120, check=True).stdout.split() for _ in range(2)]
    drawn, read = int(runs[1][0]), int(runs[1][1])
    assert int(runs[0][0]) > 0 and drawn == 0 and read >= 1, runs  # (a layer read may stand for several drawn)
    kept = [p.read_bytes() for p in tmp_path.glob("*/*.png")]
    pictures = [data for data in kept if data.startswith(b"\x89PNG")]  # (label places are kept as JSON)
    assert pictures and Image.open(io.BytesIO(pictures[0])).format == "PNG"


@picture_cache.kept
def _plan(side: int) -> Image.Image:
    DRAWN.append(f"plan {side}")
    img = Image.new("P", (side, side), 3)
    img.putpalette([i % 256 for i in range(768)])
    img.info["transparency"] = 5
    return img


def test_a_kept_layer_is_drawn_once_and_each_call_gets_its_own_copy_to_draw_on(tmp_path: Path) -> None:
    """``@kept`` holds compressed pixels, not the decoded image: every call gives a fresh, identical picture
    (mode, palette and transparency included), so the caller may draw on it; after a restart the file is
    read, not redrawn."""
    DRAWN.clear()
    try:
        picture_cache.configure(tmp_path)
        first = _plan(12)
        first.putpixel((0, 0), 9)  # the caller draws on what it got
        again = _plan(12)
        assert DRAWN == ["plan 12"] and again is not first
        assert again.mode == "P" and again.getpixel((0, 0)) == 3 and again.getpalette() == first.getpalette()
        assert again.info.get("transparency") == 5
        picture_cache.configure(tmp_path)
        assert _plan(12).tobytes() == again.tobytes() and DRAWN == ["plan 12"]
        _plan._packed.clear()  # as after a restart: only the file is left
        reread = _plan(12)
        assert DRAWN == ["plan 12"] and reread.tobytes() == again.tobytes() and reread.info["transparency"] == 5
        _plan.cache_clear()  # (tests that watch a layer being drawn) forget it, on disk too
        _plan(12)
        assert DRAWN == ["plan 12", "plan 12"]
    finally:
        picture_cache.configure(None)


def test_a_cache_marked_forget_when_idle_is_cleared_only_once_nothing_has_used_it_for_its_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from functools import lru_cache

    from render import idle

    monkeypatch.setattr(idle, "_IDLE", [])  # only this test's cache (the maps' geometry is marked too)

    @idle.forget_when_idle(120)
    @lru_cache(maxsize=2)
    def heavy(n: int) -> list[int]:
        return [n] * 1000

    heavy(1)
    t = 1_000_000.0
    assert idle.shed(t) == 0 and heavy.cache_info().currsize == 1  # just used
    assert idle.shed(t + 60) == 0 and heavy.cache_info().currsize == 1  # idle, not long enough
    heavy(1)
    assert idle.shed(t + 150) == 0 and heavy.cache_info().currsize == 1  # used meanwhile
    assert idle.shed(t + 300) == 1 and heavy.cache_info().currsize == 0  # idle 150 s: gone
    assert idle.shed(t + 900) == 0  # nothing left to clear
