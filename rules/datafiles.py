"""What the games' content modules do with their data files (``rules/<key>/data/*.toml``): read a file into
frozen msgspec Structs (a malformed file fails loudly there, not in the middle of a game), and look its records
up by id."""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from typing import Protocol, TypeVar

import msgspec

S = TypeVar("S")


class Record(Protocol):
    """A record of a data file: a hero, an item, a card... with an id unique in its file."""

    @property
    def id(self) -> str: ...


R = TypeVar("R", bound=Record)


def load_toml(path: Path, kind: type[S]) -> S:
    """The TOML file at ``path``, converted to ``kind`` (msgspec checks every field and type)."""
    return msgspec.convert(tomllib.loads(path.read_text(encoding="utf-8")), kind)


def indexed(listed: Callable[[], Iterable[R]]) -> Callable[[], dict[str, R]]:
    """A look-up by id of the records ``listed`` gives, built once on its first use."""

    @cache
    def index() -> dict[str, R]:
        return {record.id: record for record in listed()}

    return index


def records(path: Path, key: str, kind: type[S]) -> tuple[S, ...]:
    """The records a TOML file lists as ``[[key]]`` tables, each converted to ``kind``; a file without them, or
    a record that does not fit, fails with the file, the key and the record's number."""
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    listed = raw.get(key)
    if not isinstance(listed, list):
        raise ValueError(f"{path.name}: no [[{key}]] records")
    out = []
    for number, record in enumerate(listed, start=1):
        try:
            out.append(msgspec.convert(record, kind))
        except msgspec.ValidationError as error:
            raise ValueError(f"{path.name}: [[{key}]] record {number}: {error}") from error
    return tuple(out)


def listed(path: Path, key: str, kind: type[R]) -> tuple[Callable[[], tuple[R, ...]], Callable[[], dict[str, R]]]:
    """The ``[[key]]`` records of a data file (see ``records``), read on their first use and kept, and their
    look-up by id."""

    @cache
    def every() -> tuple[R, ...]:
        return records(path, key, kind)

    return every, indexed(every)
