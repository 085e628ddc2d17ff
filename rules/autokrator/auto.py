"""How Tabula plays a realm: deal the cards at random, offer the battlefields where its cards are strongest,
prefer a fight over a march and a march over rest, spend some gold on campaigns and spies, never offer a truce
(but answer one either way), and lay its cards in a random order."""

from __future__ import annotations

from rules.autokrator import board
from rules.autokrator import state as st
from rules.autokrator.content import library
from rules.autokrator.engine import Engine
from rules.autokrator.engine.battle import best_fields
from rules.core import Rng


def _weight(state: st.State, realm: str, action: st.AutokratorAction, seen: dict[str, bool]) -> int:
    if isinstance(action, st.Attack):
        return 40
    if isinstance(action, st.Move | st.Voyage):
        if action.to not in seen:
            seen[action.to] = bool(board.targets(state, realm, action.to))
        return 12 if seen[action.to] else 3
    if isinstance(action, st.Pass):
        return 1 if action.unit != "turn" else 0
    if isinstance(action, st.Campaign):
        return 3  # gold is for spending: a full treasury earns nothing
    if isinstance(action, st.Spy):
        return 1
    if isinstance(action, st.OfferTruce):
        return 0
    return 1


def _row(state: st.State, legal: list[st.AutokratorAction], rng: Rng) -> st.AutokratorAction:
    """Cards in a random order (the enemy's row is unknown), markers where they count most: a bonus on the
    strongest cards on this battlefield, a penalty on the weakest."""
    assert state.battle is not None
    rows = [a for a in legal if isinstance(a, st.Lineup)]
    order = rows[rng.below(len(rows))].cards
    lib = library()
    field = state.battle.field
    same = [r for r in rows if r.cards == order]
    sign = 1 if any(r.marks for r in same) and _modifier_sign(state, order) > 0 else -1

    def worth(row: st.Lineup) -> int:
        return sum(lib.cards[row.cards[i]].points(field) for i in row.marks) * sign
    return max(same, key=worth)


def _modifier_sign(state: st.State, cards: tuple[str, ...]) -> int:
    b = state.battle
    assert b is not None
    side = b.attacker if set(cards) == set(b.attacker.cards) else b.defender
    return 1 if side.modifier > 0 else -1


def policy(engine: Engine, state: st.State, seat: int, rng: Rng) -> st.AutokratorAction | None:
    legal = engine.legal(state, seat)
    if not legal:
        return None
    realm = board.realm_of(state, seat)
    first = legal[0]
    if isinstance(first, st.Fields) and state.battle is not None:
        best = best_fields(state.battle.attacker.cards, 2)
        return st.Fields(fields=(best[0], best[1]))
    if isinstance(first, st.Field) and state.battle is not None:
        return st.Field(field=best_fields(state.battle.defender.cards, 1, state.battle.fields)[0])
    if isinstance(first, st.Bid):
        return first  # any realm will do for Tabula: it bids nothing
    if isinstance(first, st.AnswerTruce):
        return legal[rng.below(2)]
    if isinstance(first, st.Lineup) and state.battle is not None:
        return _row(state, legal, rng)
    if state.phase != "turns":
        return legal[rng.below(len(legal))]
    seen: dict[str, bool] = {}
    weights = [_weight(state, realm, a, seen) for a in legal]
    total = sum(weights)
    if total == 0:
        return legal[-1]
    pick = rng.below(total)
    for action, w in zip(legal, weights, strict=True):
        if pick < w:
            return action
        pick -= w
    return legal[-1]
