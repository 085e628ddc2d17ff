"""Legend of Heroes: what a seat alone may know, and what nobody may, as alternative states.

The platform's conformance suite plays each variant against the real state: every view but the seat's own must
stay the same, or a secret leaks.  Nobody knows the order of a pile, the Spell Pile or the Room cards still face
down; a Narrator alone knows the card in hand until it is told (unless it is the danger left on the room, which
everyone saw).  A party's Spell card is no secret: the book lays it face up beside the Magic User."""

from __future__ import annotations

from collections.abc import Iterator

from rules.core import Rng, copier
from rules.legend.content import card_index, cards
from rules.legend.state import State
from rules.legend.table import Table

_copy = copier(State)


def secret_variants(rules: Table, state: State, seat: int) -> Iterator[State]:
    rng = Rng(state.rng ^ (0x5EC2E7 + seat))  # any shuffle will do: it is never played
    index = card_index()

    # every pile reshuffled, and the Room cards still face down dealt to other rooms
    s = _copy(state)
    s.piles = {kind: rng.shuffle(pile) for kind, pile in s.piles.items()}
    s.spell_pile = rng.shuffle(s.spell_pile)
    inside = s.exploring.room if s.exploring else None
    hidden = [r for r, stack in s.rooms.items() if r != inside and stack and index[stack[0]].kind == "room"]
    for room, card in zip(hidden, rng.shuffle([s.rooms[r][0] for r in hidden]), strict=True):
        s.rooms[room] = [card]
    yield s

    # another card in the Narrator's hand, of the same kind (the red arrow said which), while it is face down
    ex = state.exploring
    if ex is None or ex.pending is None or ex.decision is not None or seat != rules.narrator(state):
        return
    kind = index[ex.pending].kind
    if ex.pending_from_room and kind != "room":
        return  # the danger left on the room: everyone saw it
    set_aside = len(cards().room) - len(state.rooms)
    others = state.discards.get("room", [])[:set_aside] if kind == "room" else state.piles.get(kind, [])
    if others:
        s = _copy(state)
        assert s.exploring is not None
        pool = s.discards["room"] if kind == "room" else s.piles[kind]
        s.exploring.pending, pool[0] = pool[0], ex.pending
        yield s
