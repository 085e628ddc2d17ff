"""A picture handed over as its drawing is drawn when first read, once, in the language it was made in; the
platform's tellings come drawn from their worker thread, and a run of moves told as one draws only the pictures
it keeps."""

from __future__ import annotations

import threading
from typing import Any

from bot.delivery import tellings
from bot.present.base import Picture, Telling
from rules.i18n import language, using


def _counting(drawn: list[str]) -> Any:
    def draw() -> bytes:
        drawn.append(language())
        return f"png in {language()}".encode()
    return draw


def test_a_drawing_is_run_when_the_png_is_first_read_and_only_once() -> None:
    drawn: list[str] = []
    pic = Picture("board.png", _counting(drawn), "the board")
    assert drawn == [] and "not drawn yet" in repr(pic)
    assert pic.png == b"png in en" and pic.png == b"png in en"
    assert drawn == ["en"]
    assert Picture("board.png", b"png in en", "the board") == pic  # compared by content, as before


def test_it_is_drawn_in_the_language_it_was_made_in() -> None:
    drawn: list[str] = []
    with using("hu"):
        pic = Picture("map.png", _counting(drawn), "a térkép")
    with using("ja"):
        assert pic.png == b"png in hu"
    assert drawn == ["hu"]


def test_two_threads_reading_one_picture_both_get_it() -> None:
    gate = threading.Event()

    def slow() -> bytes:
        gate.wait(5)
        return b"png"

    pic = Picture("map.png", slow, "")
    got: list[bytes] = []
    threads = [threading.Thread(target=lambda: got.append(pic.png)) for _ in range(4)]
    for t in threads:
        t.start()
    gate.set()
    for t in threads:
        t.join(5)
    assert got == [b"png"] * 4


def test_a_telling_drawn_has_every_picture_drawn() -> None:
    drawn: list[str] = []
    told = Telling(text="", pictures=[Picture("a.png", _counting(drawn), ""), Picture("b.png", b"b", "")]).drawn()
    assert drawn == ["en"] and [p.png for p in told.pictures] == [b"png in en", b"b"]


class _Moment:
    """Just what ``run_telling`` reads of a moment, for a run of two moves told by a stub presenter."""

    def __init__(self, n: int, drawn: list[str]) -> None:
        self.n, self.drawn = n, drawn
        self.undone = None
        self.table_events: list[object] = []
        self._before = None
        self.actor = None

        class _Meta:
            free = False
        self.meta = _Meta()

        class _Spec:
            key = "stub"
        self.spec = _Spec()


def test_a_run_of_moves_draws_only_the_newest_picture_of_each_kind(monkeypatch: Any) -> None:
    drawn: list[str] = []

    class Stub:
        def telling(self, moment: _Moment) -> Telling:
            return Telling(text=f"move {moment.n}", pictures=[
                Picture("map.png", _counting(moment.drawn), f"map {moment.n}")])

    monkeypatch.setattr(tellings, "presenter", lambda key: Stub())
    told = tellings.run_telling([_Moment(1, drawn), _Moment(2, drawn), _Moment(3, drawn)])  # type: ignore[list-item]
    assert [p.alt for p in told.pictures] == ["map 3"]
    assert drawn == ["en"]  # one drawing, the kept one: the older maps never were
    assert told.text.splitlines() == ["move 1", "move 2", "move 3"]
