"""Autokrator for Tabula's search (``rules/search.py``): what a realm cannot see, dealt anew, and how a war
half-fought is scored.

The hidden-information model (also in RULES.md, "Tabula's levels"):

* **Seen by the deciding realm, kept:** the whole board (owners, garrisons, units, lives, treasuries, scores,
  truces, offers), its own cards and the assignment it is making, the holders of other realms whose cards have
  fought in the open this epoch (``known``) or that its own spies have seen (``spied``), its own row in a battle.
* **Not seen, dealt anew every time the search deals:** every other holder's two free battle cards — drawn from
  that realm's free cards not seen anywhere, so that each holder again has three cards of three armies, as the
  book's dealing demands; an assignment another realm is still making (cleared: that realm deals again in the
  simulation); the neutral side's cards (drawn afresh from the stack the engine draws them from); a row laid face
  down by the other side (its cards in a random order, its markers on random cards); the dice to come.

Nothing is read from what is hidden: the free cards a holder may get are worked out from the realm's deck and
what the deciding realm sees."""

from __future__ import annotations

from rules.autokrator import board
from rules.autokrator.content import library
from rules.autokrator.engine.battle import dealable
from rules.autokrator.state import Side, State
from rules.core import Rng, copier
from rules.search import leader_value

_copy = copier(State)


def sample(rules: object, state: State, seat: int, rng: Rng) -> State:
    """A war ``seat`` cannot tell from ``state``, its hidden cards and dice dealt from ``rng``."""
    s = _copy(state)
    me = board.realm_of(s, seat)
    spied = set(s.realms[me].spied) if me else set()
    for key in s.order:
        if key == me:
            continue
        rs = s.realms[key]
        rs.pending = {}
        seen = set() if (s.phase == "assign" and not rs.assigned) else \
            {h for h in rs.cards if h in rs.known or f"{key}.{h}" in spied}
        _deal(rs.key, rs.cards, seen, rng)
    if s.battle is not None:
        for side in (s.battle.attacker, s.battle.defender):
            if side.realm != me:
                _redraw(s, side, rng)
    s.rng = rng.next64()
    return s


def _deal(realm: str, cards: dict[str, list[str]], seen: set[str], rng: Rng) -> None:
    """Every unseen holder of ``realm`` dealt two free cards again, three armies a holder."""
    lib = library()
    hidden = sorted(h for h in cards if h not in seen)
    if not hidden:
        return
    used = {c for h in seen for c in cards[h]}
    free = sorted(c for c in lib.deck(realm) if not lib.cards[c].fixed and c not in used)
    free = rng.shuffle(free)
    for n, holder in enumerate(hidden):
        fixed = lib.fixed(realm, holder)
        kinds = tuple(lib.cards[c].kind for c in free)
        rest = tuple(lib.cards[lib.fixed(realm, h)].kind for h in hidden[n + 1:])
        pairs = dealable(lib.cards[fixed].kind, kinds, rest)
        if pairs:
            i, j = pairs[rng.below(len(pairs))]
        elif len(free) >= 2:
            i, j = 0, 1
        else:
            continue
        cards[holder] = [fixed, free[i], free[j]]
        free = [c for k, c in enumerate(free) if k not in (i, j)]


def _redraw(s: State, side: Side, rng: Rng) -> None:
    """The other side of a battle as the deciding realm imagines it: a realm's holder with the cards just dealt
    (when the side fights for a realm), the neutral side with cards drawn afresh, a face-down row reshuffled."""
    lib = library()
    if side.realm:
        cards = s.realms[side.realm].cards.get(side.holder)
        if cards:
            side.cards = list(cards)
    elif side.holder == "raid":
        horse = lib.deck("neutral-general")[0]
        side.cards = [horse, *rng.shuffle([c for c in lib.deck("neutral-general") if c != horse])[:2]]
    else:
        stack = "neutral-region" if s.raids else "neutral"
        side.cards = rng.shuffle(list(lib.deck(stack)))[:3]
    if side.lineup:
        side.lineup = rng.shuffle(side.cards)
        marks = rng.shuffle(list(range(len(side.lineup))))[:len(side.marks)]
        side.marks = sorted(marks)


def value(rules: object, state: State) -> list[float]:
    """Each seat's chance to win: the points on the track, with a point for every two regions held and for
    every two gold (what the remaining epochs are likely to turn into points)."""
    points = [0.0] * len(state.seats)
    for key in state.order:
        rs = state.realms[key]
        if 0 <= rs.seat < len(points):
            points[rs.seat] = rs.score + board.regions_held(state, key) / 2 + rs.treasury / 4
    return leader_value(points, sharpness=2.5)
