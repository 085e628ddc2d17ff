"""``rules.telling.by_event``: a game's table of tellers read from the tellers' own signatures."""

from __future__ import annotations

import pytest

from rules.core import Event
from rules.telling import by_event, silent, tell_each


class Hopped(Event, tag="hopped", frozen=True):
    by: int


class Skipped(Event, tag="skipped", frozen=True):
    pass


class Waited(Event, tag="waited", frozen=True):
    pass


def hopped(lines: list[str], e: Hopped) -> None:
    lines.append(f"hop {e.by}")


def idle(lines: list[str], e: Skipped | Waited) -> None:
    lines.append(type(e).__name__.lower())


def hopped_again(lines: list[str], e: Hopped) -> None:
    lines.append("again")


def untyped(lines: list[str], e: object) -> None:
    lines.append("?")


def test_each_teller_stands_under_the_event_its_signature_names_and_a_union_under_each() -> None:
    table = by_event(hopped, idle)
    assert table == {Hopped: hopped, Skipped: idle, Waited: idle}
    lines: list[str] = []
    tell_each(table, lines, [Hopped(by=2), Waited(), Skipped()])
    assert lines == ["hop 2", "waited", "skipped"]


def test_a_silent_entry_is_added_by_hand() -> None:
    table = by_event(hopped) | {Skipped: silent}
    lines: list[str] = []
    tell_each(table, lines, [Skipped(), Hopped(by=1)])
    assert lines == ["hop 1"]


@pytest.mark.parametrize("teller", [untyped, silent])
def test_a_teller_whose_event_is_no_event_type_is_refused_by_name(teller: object) -> None:
    with pytest.raises(TypeError, match=r"second parameter must be annotated with an event type"):
        by_event(teller)  # type: ignore[arg-type]


def test_two_tellers_for_one_event_are_refused() -> None:
    with pytest.raises(TypeError, match=r"hopped_again: Hopped is told already, by hopped"):
        by_event(hopped, hopped_again)
