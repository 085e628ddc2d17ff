"""The tables: games, seats and the append-only action log (SQLModel).

The schema itself is created and upgraded by the Alembic migrations in ``bot/migrations``; these classes
describe it for ordinary queries.  The per-action hot path uses plain statements (see ``bot/store.py``).
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, Index, Text, UniqueConstraint
from sqlmodel import Field, SQLModel


class Game(SQLModel, table=True):
    __tablename__ = "game"

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int | None = Field(default=None, sa_column=Column(BigInteger, index=True))
    channel_id: int | None = Field(default=None, sa_column=Column(BigInteger))
    thread_id: int | None = Field(default=None, sa_column=Column(BigInteger, index=True))
    lobby_message_id: int | None = Field(default=None, sa_column=Column(BigInteger))
    # The newest prompt: the one message of this game whose buttons and menus are live.
    prompt_channel_id: int | None = Field(default=None, sa_column=Column(BigInteger))
    prompt_message_id: int | None = Field(default=None, sa_column=Column(BigInteger))
    host_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    ruleset: str
    options: str = "{}"  # JSON
    status: str = "lobby"  # lobby | active | finished | abandoned
    seed: int = Field(default=0, sa_column=Column(BigInteger, nullable=False))
    state: str | None = Field(default=None, sa_column=Column(Text))  # JSON of the ruleset's State
    version: int = 0
    deadline: float | None = Field(default=None, index=True)  # when the pending timeout action fires
    created_at: float = 0.0
    updated_at: float = 0.0


class Seat(SQLModel, table=True):
    __tablename__ = "seat"
    __table_args__ = (UniqueConstraint("game_id", "user_id"), UniqueConstraint("game_id", "seat"))

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    user_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    seat: int
    name: str


class Action(SQLModel, table=True):
    """One row per applied action (and one for the start): who, what, and every event it produced."""

    __tablename__ = "action"
    __table_args__ = (Index("ix_action_game_seq", "game_id", "seq", unique=True),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id")
    seq: int
    user_id: int = Field(sa_column=Column(BigInteger, nullable=False))  # 0: Tabula itself (a timeout)
    seat: int | None = None
    action: str  # JSON
    events: str  # JSON list
    created_at: float = 0.0
