"""Where games are kept: the database and its migrations (``db``, ``models``, ``migrations/``), the per-move hot
path (``hot``), the ordinary queries (``queries`` and ``records``), and the claims that let exactly one process
do each piece of background work (``claims``)."""

from bot.store.hot import Clock, CoreStore, GameRecord, GameStore, LogEntry, SqliteStore, open_store, sqlite_path
from bot.store.queries import Conflict, GameSummary, LobbyRow, Queries, SeatRow

__all__ = ["Clock", "Conflict", "CoreStore", "GameRecord", "GameStore", "GameSummary", "LobbyRow", "LogEntry",
           "Queries", "SeatRow", "SqliteStore", "open_store", "sqlite_path"]
