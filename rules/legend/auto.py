"""Legend of Heroes played by Tabula: the move it makes for a seat it plays (an automatic seat, the terminal's
``--auto``, the benchmark, the conformance suite's random games).  A Narrator who stays away is read for by the
ruleset's ``timeout``."""

from __future__ import annotations

from rules.core import Rng
from rules.legend.engine import Engine
from rules.legend.state import Attack, Keep, Lead, LegendAction, Move, Retreat, State


def policy(engine: Engine, state: State, seat: int, rng: Rng) -> LegendAction | None:
    """A move as a player makes it: mostly press on in a fight, mostly head for rooms that still hold cards; a
    Narrator lets Tabula read the card."""
    legal = engine.legal(state, seat)
    if not legal:
        return None
    action = legal[rng.below(len(legal))]
    onward = [a for a in legal if isinstance(a, (Keep, Attack))]
    if isinstance(action, (Lead, Retreat)) and onward and rng.below(10) < 7:  # players mostly press on
        return onward[0]
    if isinstance(action, Move):
        promising = [a for a in legal if isinstance(a, Move) and explores(engine, state, seat, a.to)]
        if promising and rng.below(10) < 8:
            return promising[rng.below(len(promising))]
    return action


def explores(engine: Engine, state: State, seat: int, to: str) -> bool:
    """Whether moving to ``to`` walks through a room that still holds cards."""
    here = state.players[seat].doorway
    if here is None:
        return False
    board = engine.table.board
    room = board.room_of(here) if to == here else board.via.get((here, to))
    return room is not None and bool(state.rooms.get(room))
