"""The shapes the schema migrations (``bot/store/migrations/versions``) use again and again, said once.

A migration is history: what it builds must never change once it is released.  So these helpers are only ever
added to, never altered; a new shape gets a new helper.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op


def row_id() -> sa.Column[Any]:
    """A table's own integer key."""
    return sa.Column("id", sa.Integer, primary_key=True)


def game_table(name: str, *columns: Any) -> None:
    """Create a table of rows that belong to a game: each row's own integer key and its game, then ``columns``."""
    op.create_table(name, row_id(), game_ref(), *columns)


def outbox_table(name: str, *columns: Any) -> None:
    """Create a table of what is owed to a game's thread on Discord (``bot/delivery``): a game's rows with
    ``columns``, when each was written, when Discord accepted it and the message it became; indexed by when it
    was delivered, which is how the deliverers find what is still owed."""
    game_table(name, *columns, moment("created_at"), optional("delivered_at", sa.Float),
               optional("message_id", sa.BigInteger))
    op.create_index(f"ix_{name}_delivered_at", name, ["delivered_at"])


def given_key(name: str, kind: Any) -> sa.Column[Any]:
    """A key the rows bring with them (a Discord id, a shard number), never counted up by the database."""
    return sa.Column(name, kind, primary_key=True, autoincrement=False)


def game_ref() -> sa.Column[Any]:
    """The game a row belongs to (``game.id``)."""
    return sa.Column("game_id", sa.Integer, sa.ForeignKey("game.id"), nullable=False)


def required(name: str, kind: Any, **more: Any) -> sa.Column[Any]:
    """A column that must have a value."""
    return sa.Column(name, kind, nullable=False, **more)


def optional(name: str, kind: Any) -> sa.Column[Any]:
    """A column that may be empty."""
    return sa.Column(name, kind, nullable=True)


def moment(name: str) -> sa.Column[Any]:
    """Seconds (a time, or a time used up) that every row has: 0 unless set."""
    return sa.Column(name, sa.Float, nullable=False, server_default="0")


def add_columns(table: str, *columns: sa.Column[Any]) -> None:
    """Add columns to a table that already exists (in a batch, so that SQLite can do it too)."""
    with op.batch_alter_table(table) as batch:
        for column in columns:
            batch.add_column(column)


def drop_columns(table: str, *names: str) -> None:
    """Drop columns from a table, in the order given (in a batch, so that SQLite can do it too)."""
    with op.batch_alter_table(table) as batch:
        for name in names:
            batch.drop_column(name)
