"""Legend of Heroes for Tabula's search (``rules/search.py``): what a fighter cannot see, dealt anew, and how a
delve half-done is scored.

The hidden-information model (also in RULES.md, "Tabula's levels"):

* **Seen by the deciding seat, kept:** the board (every fighter, doorway, wound and treasure; which rooms are
  explored, partly explored or untouched; the Room cards read and the dangers left face up on partly explored
  rooms; every party and Spell card), the exploration under way and the kind of card the Narrator holds (the
  red arrow says it), and — when the seat narrates — the card in its hand.
* **Not seen, dealt anew every time the search deals:** the order of every draw pile and of the Spell pile; the
  Room cards still face down, dealt again among the untouched rooms together with the Room cards set aside at
  setup; the card in another Narrator's hand (swapped for one of the same kind from where such cards wait); the
  dice to come."""

from __future__ import annotations

from rules.core import Rng, copier
from rules.legend.content import card_index, cards
from rules.legend.state import State
from rules.search import leader_value

_copy = copier(State)


def sample(rules: object, state: State, seat: int, rng: Rng) -> State:
    """A game ``seat`` cannot tell from ``state``, its hidden parts dealt from ``rng``."""
    table = rules.table  # type: ignore[attr-defined]
    index = card_index()
    s = _copy(state)
    inside = s.exploring.room if s.exploring else None
    # the Room cards face down on untouched rooms, and those set aside at setup (the first room discards)
    hidden = sorted(r for r, stack in s.rooms.items() if r != inside and stack and index[stack[0]].kind == "room")
    set_aside = max(0, len(cards().room) - len(state.rooms))
    room_discards = s.discards.get("room", [])
    aside = room_discards[:set_aside]
    # the card in another Narrator's hand, while face down: back among its kind before the piles are shuffled
    ex = s.exploring
    pending_kind = ""
    if ex is not None and ex.pending is not None and ex.decision is None and seat != table.narrator(state) \
            and not (ex.pending_from_room and index[ex.pending].kind != "room"):
        pending_kind = index[ex.pending].kind
        if pending_kind == "room":
            aside = [*aside, ex.pending]
        else:
            s.piles[pending_kind] = [ex.pending, *s.piles.get(pending_kind, [])]
    pool = rng.shuffle(sorted([s.rooms[r][0] for r in hidden] + aside))
    for r in hidden:
        s.rooms[r] = [pool.pop(), *s.rooms[r][1:]]
    s.piles = {kind: rng.shuffle(sorted(pile)) for kind, pile in sorted(s.piles.items())}
    if pending_kind and ex is not None:
        if pending_kind == "room":
            ex.pending = pool.pop()
        else:
            ex.pending = s.piles[pending_kind].pop(0)
    if "room" in s.discards:
        s.discards["room"] = pool + room_discards[set_aside:]
    s.spell_pile = rng.shuffle(sorted(s.spell_pile))
    s.rng = rng.next64()
    return s


def value(rules: object, state: State) -> list[float]:
    """Each seat's chance to win: the gold carried out so far (the book's score), a wound counting against it."""
    table = rules.table  # type: ignore[attr-defined]
    points = [table.gold(state, i) - 15 * (p.wounded or p.overwhelmed) for i, p in enumerate(state.players)]
    return leader_value(points, sharpness=40.0)
