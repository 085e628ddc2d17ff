"""The queries behind history, replay, export and stats (SQLModel selects; nothing here writes).

Stats read finished games only (an abandoned game counts for nobody) and count a game's moves in the
database: the game's own actions (every row but the start, an abandon and the table's ``tabula.*`` rows),
less one for each undo row (an undo cancels exactly one earlier game action).  The log's rows are written by
msgspec and the service, whose JSON puts the ``type`` tag first with no spaces, which the patterns rely on."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import case, func
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.store.models import Action as ActionRow
from bot.store.models import Game, Seat
from bot.store.queries import game_and_seats

_TABLE = '{"type":"tabula.%'
_UNDO = '{"type":"tabula.undo"%'


@dataclass(slots=True)
class GameFacts:
    """One game as history, replay and export read it."""

    game: Game
    seats: list[Seat]


@dataclass(slots=True)
class FinishedGame:
    """One finished game, for stats: who sat where, the result and its length."""

    game_id: int
    ruleset: str
    seats: dict[int, int]  # seat -> user id (negative: a seat Tabula plays)
    result: str | None  # JSON: winners, scores, summary
    moves: int
    started_at: float
    finished_at: float


class RecordQueries:
    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self.sessions = sessions

    async def facts(self, game_id: int) -> GameFacts | None:
        async with self.sessions() as session:
            found = await game_and_seats(session, game_id)
        return None if found is None else GameFacts(game=found[0], seats=found[1])

    async def log(self, game_id: int) -> list[ActionRow]:
        async with self.sessions() as session:
            return list((await session.exec(
                select(ActionRow).where(ActionRow.game_id == game_id).order_by(col(ActionRow.seq))
            )).all())

    async def finished(self, guild_id: int | None, ruleset: str | None = None, user_id: int | None = None
                       ) -> list[FinishedGame]:
        """The server's finished games (of one game, and with one person seated, when given), oldest first."""
        async with self.sessions() as session:
            query = select(Game.id, Game.ruleset, Game.result, Game.finished_at).where(
                Game.guild_id == guild_id, Game.status == "finished")
            if ruleset is not None:
                query = query.where(Game.ruleset == ruleset)
            if user_id is not None:
                query = query.where(col(Game.id).in_(select(Seat.game_id).where(Seat.user_id == user_id)))
            games = (await session.exec(query.order_by(col(Game.id)))).all()
            ids = [int(g[0]) for g in games if g[0] is not None]
            if not ids:
                return []
            seats: dict[int, dict[int, int]] = {i: {} for i in ids}
            for game_id, seat, user in (await session.exec(
                    select(Seat.game_id, Seat.seat, Seat.user_id).where(col(Seat.game_id).in_(ids)))).all():
                seats[int(game_id)][int(seat)] = int(user)
            action = col(ActionRow.action)
            # The start and an abandon are logged without a seat; the table's own rows are ``tabula.*``.
            is_move = (~action.like(_TABLE)) & col(ActionRow.seat).is_not(None)
            counted = (await session.exec(
                select(ActionRow.game_id,
                       func.sum(case((is_move, 1), else_=0)),
                       func.sum(case((action.like(_UNDO), 1), else_=0)),
                       func.min(ActionRow.created_at))
                .where(col(ActionRow.game_id).in_(ids)).group_by(col(ActionRow.game_id))
            )).all()
        lengths = {int(g): (int(m or 0) - int(u or 0), float(t or 0.0)) for g, m, u, t in counted}
        out = []
        for found, key, result, finished_at in games:
            assert found is not None
            game_id = int(found)
            moves, started = lengths.get(game_id, (0, 0.0))
            end = float(finished_at) if finished_at is not None else started  # finished before results were kept
            out.append(FinishedGame(game_id=game_id, ruleset=key, seats=seats[game_id], result=result,
                                    moves=max(moves, 0), started_at=started or end, finished_at=end))
        return out
