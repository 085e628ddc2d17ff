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
F = TypeVar("F")


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


def listed(path: Path, kind: type[F], records: Callable[[F], tuple[R, ...]]
           ) -> tuple[Callable[[], tuple[R, ...]], Callable[[], dict[str, R]]]:
    """The records of one data file (``records`` picks them out of the file's ``kind``), read on their first use
    and kept, and their look-up by id."""

    @cache
    def every() -> tuple[R, ...]:
        return records(load_toml(path, kind))

    return every, indexed(every)
