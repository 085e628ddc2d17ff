"""The tables: games, seats and the append-only action log (SQLModel).

The schema is upgraded by the Alembic migrations in ``bot/store/migrations``, and a new database is made from
these classes (``bot/store/db.py``): so they describe it exactly as the migrations build it, the server-side
defaults and lengths of columns added to tables that already had rows included (``tests/test_database.py``
compares the two).  The per-action hot path uses plain statements (see ``bot/store/hot.py``).
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
    options: str = Field(default="{}", sa_column_kwargs={"server_default": "{}"})  # JSON
    # lobby | active | finished | abandoned
    status: str = Field(default="lobby", sa_column_kwargs={"server_default": "lobby"})
    seed: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, server_default="0"))
    state: str | None = Field(default=None, sa_column=Column(Text))  # JSON of the ruleset's State
    version: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    deadline: float | None = Field(default=None, index=True)  # when the pending timeout action fires
    created_at: float = Field(default=0.0, sa_column_kwargs={"server_default": "0"})
    updated_at: float = Field(default=0.0, sa_column_kwargs={"server_default": "0"})
    result: str | None = Field(default=None, sa_column=Column(Text))  # JSON: winners, scores, summary
    finished_at: float | None = None
    # The turn clock (see bot/longplay/clock.py): when it runs out, when its one reminder is due, and the sooner of
    # the two, which is all the sweep reads (one indexed query).
    clock_deadline: float | None = None
    remind_at: float | None = None
    wake_at: float | None = Field(default=None, index=True)
    # 0 running; 1 paused by the host; 2 waiting for an absent player (the "pause" policy)
    paused: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    nudged_at: float | None = None
    # what the thread, pictures and tellings are written in (rules.i18n.LANGUAGES)
    language: str = Field(default="en", max_length=8, sa_column_kwargs={"server_default": "en"})
    # Which process is doing this game's background work (its clock, its timeout), and until when
    # (bot/store/claims.py): a crashed process's claim runs out by itself.
    claimed_by: str | None = Field(default=None, max_length=200)
    claimed_until: float | None = None


class ShardLease(SQLModel, table=True):
    """A running process's claim on Discord shards (bot/ops/shards.py): renewed by its heartbeat, free once expired."""

    __tablename__ = "shard_lease"

    shard: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})  # -1: every shard
    shard_count: int | None = None  # None: the process lets Discord decide
    owner: str = Field(max_length=200)
    started_at: float
    heartbeat_at: float
    expires_at: float


class Seat(SQLModel, table=True):
    __tablename__ = "seat"
    __table_args__ = (UniqueConstraint("game_id", "user_id"), UniqueConstraint("game_id", "seat"))

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    user_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    seat: int
    name: str
    # turns in a row Tabula played for this seat because its clock ran out
    strikes: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    vacation_until: float | None = None
    # seconds of vacation taken in this game
    vacation_used: float = Field(default=0.0, sa_column_kwargs={"server_default": "0"})
    # The seat's one offer in the lobby's channel while it is offered (bot/delivery/notices.py): edited, then closed.
    offer_channel_id: int | None = Field(default=None, sa_column=Column(BigInteger))
    offer_message_id: int | None = Field(default=None, sa_column=Column(BigInteger))


class PlayerPref(SQLModel, table=True):
    __tablename__ = "player_pref"

    user_id: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    notify: int = Field(default=0, sa_column_kwargs={"server_default": "0"})  # 1: remind me by DM too


class GuildSetting(SQLModel, table=True):
    __tablename__ = "guild_setting"

    guild_id: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    clock: str | None = None
    policy: str | None = None
    tabula_level: str | None = None  # how Tabula plays new games' seats (rules/search.py LEVELS)


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
    created_at: float = Field(default=0.0, sa_column_kwargs={"server_default": "0"})


class Outbox(SQLModel, table=True):
    """A move's public telling, owed to its thread from the move's own transaction until Discord accepted it
    (``delivered_at``): drained after each move and at start-up (see ``bot/delivery/outbox.py``)."""

    __tablename__ = "outbox"
    __table_args__ = (Index("ix_outbox_game_seq", "game_id", "seq", unique=True),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id")
    seq: int  # the game's version after the move
    kind: str = Field(default="move", max_length=16, sa_column_kwargs={"server_default": "move"})  # move | start
    state: str | None = Field(default=None, sa_column=Column(Text))  # the state the move was made in (JSON)
    created_at: float = Field(default=0.0, sa_column_kwargs={"server_default": "0"})
    delivered_at: float | None = Field(default=None, index=True)
    message_id: int | None = Field(default=None, sa_column=Column(BigInteger))


class StalePrompt(SQLModel, table=True):
    """An old prompt whose controls are still to be taken off (listed in the transaction that retires it)."""

    __tablename__ = "stale_prompt"

    message_id: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    channel_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    game_id: int
    created_at: float = Field(default=0.0, sa_column_kwargs={"server_default": "0"})


class OutboxNotice(SQLModel, table=True):
    """What a turn clock did (a reminder, a run-out's line, a wait, a seat offered or closed), owed to Discord
    from the transaction that did it until Discord accepted it (see ``bot/delivery/notices.py``)."""

    __tablename__ = "outbox_notice"
    __table_args__ = (Index("ix_outbox_notice_game_key", "game_id", "key", unique=True),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id")
    key: str = Field(max_length=80)  # the event it tells: a step tried again after a crash finds its row
    kind: str = Field(max_length=16)  # remind | ranout | paused | offer | unoffer
    after_seq: int  # the game's version when written: told after that move's telling, before the next
    seat: int | None = None
    body: str = Field(default="{}", sa_column=Column(Text, nullable=False, server_default="{}"))  # JSON
    anchor: int | None = Field(default=None, sa_column=Column(BigInteger))  # newest delivered message then
    created_at: float = Field(default=0.0, sa_column_kwargs={"server_default": "0"})
    delivered_at: float | None = Field(default=None, index=True)
    message_id: int | None = Field(default=None, sa_column=Column(BigInteger))


class WebPage(SQLModel, table=True):
    """A game's web page (``bot/web``): its unguessable public token, the key its personal links are signed
    with, and each seat's link generation as JSON (``{"0": 2}``: links of seat 0 made before the second
    ``/game web revoke`` no longer open)."""

    __tablename__ = "web_page"
    __table_args__ = (Index("ix_web_page_token", "token", unique=True),)

    game_id: int = Field(foreign_key="game.id", primary_key=True, sa_column_kwargs={"autoincrement": False})
    token: str = Field(max_length=64)
    secret: str = Field(max_length=64)
    generations: str = Field(default="{}", sa_column=Column(Text, nullable=False, server_default="{}"))
    created_at: float = Field(default=0.0, sa_column_kwargs={"server_default": "0"})
