"""The Heroes' Road for Tabula's search (``rules/search.py``): what a seat cannot see, dealt anew, and how a year
half-played is scored.

The hidden-information model (also in RULES.md, "Tabula's levels"):

* **Seen by the deciding seat, kept:** the map (chips, soldiers left on each recruitment chip, buildings, the
  visible fame areas), the next chip of each waiting pile, the titans, the year, the dummy, every player's city,
  gold, renown, building points, soldier *count*, who has locked in and the orders already carried out this year;
  all of its own secrets (its soldiers' types, building chips held, centre chips, row, show of strength).
* **Not seen, dealt anew every time the search deals:** each other player's soldier types (the count kept, each
  type drawn at random); their building chips held and fame chips in the hidden centre (taken to be as many as
  the deciding seat's own: a mirror, since nothing public says more); the orders of their rows not yet carried
  out (planned afresh by Tabula's own programming from where their pawn stands); a show-of-strength choice made
  face down (the types of the soldiers just dealt); the order of both waiting piles after their first chip; the
  dice to come."""

from __future__ import annotations

from rules.core import Rng
from rules.eiyu.auto import plan
from rules.eiyu.engine.scores import TRACKS, rank, scores
from rules.eiyu.state import AutoRow, SetRow, State
from rules.search import leader_value

#: Soldier types run 1 (weakest) to 4.
TYPES = 4


def sample(rules: object, state: State, seat: int, rng: Rng) -> State:
    """A game ``seat`` cannot tell from ``state``, its hidden parts dealt from ``rng``."""
    import msgspec

    n = len(state.players)
    me = state.players[seat]
    players = list(state.players)
    for i, p in enumerate(players):
        if i == seat:
            continue
        soldiers = sorted(rng.below(TYPES) + 1 for _ in p.soldiers)
        reveal = None if p.reveal is None else "".join(str(t) for t in sorted(set(soldiers)))
        players[i] = msgspec.structs.replace(p, soldiers=soldiers, held=me.held, central=me.central, reveal=reveal)
    s = msgspec.structs.replace(
        state, players=players, rng=rng.next64(),
        recruit_pile=_rest_shuffled(state.recruit_pile, rng), monster_pile=_rest_shuffled(state.monster_pile, rng))
    if s.phase in ("program", "reward", "dummy", "resolve"):
        done, extra = divmod(s.cursor, n)
        for i, p in enumerate(s.players):
            if i == seat or not p.row:
                continue
            k = (i - s.start) % n
            resolved = 0 if s.phase == "program" else done + (1 if k < extra else 0)
            fresh = plan(s, i, rng)
            s.players[i] = msgspec.structs.replace(p, row=[*p.row[:resolved], *fresh[resolved:len(p.row)]])
    return s


def completes(request: object, action: object) -> bool:
    """"Let Tabula program my year" (``AutoRow``) is done by a whole row, locked in."""
    return isinstance(request, AutoRow) and isinstance(action, SetRow) and action.lock


def _rest_shuffled(pile: list[int], rng: Rng) -> list[int]:
    return pile[:1] + rng.shuffle(sorted(pile[1:])) if len(pile) > 2 else list(pile)


def value(rules: object, state: State) -> list[float]:
    """Each seat's chance to win: the final rankings run on the scores as they stand (the winner so far counts
    most), blended with how high each seat stands on the three tracks."""
    n = len(state.players)
    points = scores(state)
    dummy = state.dummy is not None
    _events, winner = rank(state.ranking, points, [len(p.soldiers) for p in state.players], state.start, n, dummy)
    standing = [0.0] * n
    contestants = n + (1 if dummy else 0)
    for track in TRACKS:
        column = points[track]
        for i in range(n):
            beaten = sum(1 for c in range(contestants) if c != i and column[c] < column[i])
            standing[i] += beaten / max(1, contestants - 1)
    soft = leader_value([x * 2 for x in standing], sharpness=1.0)
    return [0.5 * (1.0 if i == winner else 0.0) + 0.5 * soft[i] for i in range(n)]
