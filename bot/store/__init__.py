"""Where games are kept: the per-move hot path (``hot``) and the ordinary queries (``queries``)."""

from bot.store.hot import Clock, CoreStore, GameRecord, GameStore, LogEntry, SqliteStore, open_store, sqlite_path
from bot.store.queries import Conflict, GameSummary, LobbyRow, Queries, SeatRow

__all__ = ["Clock", "Conflict", "CoreStore", "GameRecord", "GameStore", "GameSummary", "LobbyRow", "LogEntry",
           "Queries", "SeatRow", "SqliteStore", "open_store", "sqlite_path"]
