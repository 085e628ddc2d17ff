"""What one seat (or everyone) may see of an Autokrator game: the only way the state leaves ``rules/``.

Secret: each realm's assignment of battle cards (until those cards fight in the open, or a spy of the viewer's
has seen them), the assignment being made, a row of cards laid face down, and the seed."""

from __future__ import annotations

from collections.abc import Iterator

import msgspec

from rules.autokrator import board
from rules.autokrator.state import State


class UnitView(msgspec.Struct, frozen=True):
    realm: str
    unit: str
    region: str
    lives: int
    modifier: int
    done: bool


class RealmView(msgspec.Struct, frozen=True):
    key: str
    seat: int
    treasury: int
    score: int
    supply: int
    regions: int
    units: tuple[UnitView, ...]
    assigned: bool
    cards: dict[str, tuple[str, ...]]  # only the holders this viewer may see
    conquests: int = 0  # regions won and still held (its Garrison pieces on the board): the first tie-break


class SideView(msgspec.Struct, frozen=True):
    realm: str
    holder: str
    modifier: int
    laid: bool
    cards: tuple[str, ...]  # known to this viewer (own side, or neutral cards never)
    lineup: tuple[str, ...]  # own side only, before the reveal
    marks: tuple[int, ...]


class BattleView(msgspec.Struct, frozen=True):
    region: str
    stage: str
    fields: tuple[str, ...]
    field: str
    attacker: SideView
    defender: SideView


class RetreatView(msgspec.Struct, frozen=True):
    realm: str
    unit: str
    region: str
    options: tuple[str, ...]


class AutokratorView(msgspec.Struct, frozen=True):
    seat: int | None
    me: str  # the viewer's realm ("" for the public)
    mode: str
    raids: bool
    epoch: int
    phase: str
    order: tuple[str, ...]
    names: tuple[str, ...]
    seats: tuple[str, ...]
    acting: str  # the realm whose turn it is
    current: str
    owner: dict[str, str]
    pieces: dict[str, str]
    realms: tuple[RealmView, ...]
    battle: BattleView | None
    retreat: RetreatView | None
    offer: tuple[str, ...]
    truces: tuple[tuple[str, ...], ...]
    winner: str
    reason: str
    pending: dict[str, tuple[str, ...]]  # the viewer's assignment being made
    #: Before the war: the seats still to choose a realm, in order; the seats that have bid; the viewer's own bid
    #: (-1: none), and every bid once all are in.
    picks: tuple[int, ...] = ()
    bidders: tuple[int, ...] = ()
    bid: int = -1
    bids: tuple[int, ...] = ()

    def realm(self, key: str) -> RealmView:
        return next(r for r in self.realms if r.key == key)


def _modifier(state: State, realm: str, unit: str, lives: int) -> int:
    from rules.autokrator.content import library

    return library().numbers.lives[unit].modifier(lives)


def build_view(state: State, seat: int | None) -> AutokratorView:
    me = board.realm_of(state, seat) if seat is not None else ""
    realms = []
    for key in state.order:
        rs = state.realms[key]
        spied = state.realms[me].spied if me else []
        visible = {h: tuple(c) for h, c in rs.cards.items()
                   if key == me or h in rs.known or f"{key}.{h}" in spied}
        if rs.assigned is False and key != me and state.phase == "assign":
            visible = {}  # last epoch's cards are being dealt anew
        units = tuple(UnitView(realm=key, unit=n, region=u.region, lives=u.lives,
                               modifier=_modifier(state, key, n, u.lives), done=u.done) for n, u in rs.units.items())
        realms.append(RealmView(key=key, seat=rs.seat, treasury=rs.treasury, score=rs.score, supply=rs.supply,
                                regions=board.regions_held(state, key),
                                conquests=board.conquests_held(state, key), units=units, assigned=rs.assigned,
                                cards=visible))
    battle = None
    if state.battle is not None:
        b = state.battle
        sides = []
        for side in (b.attacker, b.defender):
            mine = bool(me) and side.realm == me
            sides.append(SideView(realm=side.realm, holder=side.holder, modifier=side.modifier, laid=side.laid,
                                  cards=tuple(side.cards) if mine else (),
                                  lineup=tuple(side.lineup) if mine else (),
                                  marks=tuple(side.marks) if mine else ()))
        battle = BattleView(region=b.region, stage=b.stage, fields=tuple(b.fields), field=b.field,
                            attacker=sides[0], defender=sides[1])
    retreat = None
    if state.retreat is not None:
        r = state.retreat
        retreat = RetreatView(realm=r.realm, unit=r.unit, region=r.region, options=tuple(r.options))
    pending = {h: tuple(c) for h, c in state.realms[me].pending.items()} if me else {}
    return AutokratorView(
        seat=seat, me=me, mode=state.mode, raids=state.raids, epoch=state.epoch, phase=state.phase,
        order=tuple(state.order), names=tuple(state.names), seats=tuple(state.seats),
        acting=state.order[state.turn] if state.phase == "turns" else "", current=state.current,
        owner=dict(state.owner), pieces=dict(state.pieces), realms=tuple(realms), battle=battle, retreat=retreat,
        offer=tuple(state.offer), truces=tuple(tuple(t.realms) for t in state.truces), winner=state.winner,
        reason=state.reason, pending=pending, picks=tuple(state.picks),
        bidders=tuple(i for i, b in enumerate(state.bids) if b >= 0),
        bid=state.bids[seat] if seat is not None and 0 <= seat < len(state.bids) else -1,
        bids=tuple(state.bids) if state.bids and min(state.bids) >= 0 else ())


def secret_variants(state: State, seat: int) -> Iterator[State]:
    """The same game with the seat's own secrets changed: its cards swapped between two of its units nobody else
    has seen, the assignment it is making, the row it has laid face down; and the seed."""
    from rules.core import copier

    copy = copier(State)
    if state.bids and min(state.bids) < 0 <= state.bids[seat]:  # a bid made in secret, not yet opened
        v = copy(state)
        v.bids[seat] = 0 if state.bids[seat] else 1
        yield v
    realm = board.realm_of(state, seat)
    if not realm:
        v = copy(state)
        v.rng ^= 0x5A5A5A5A
        yield v
        return
    rs = state.realms[realm]
    seen_by_others = {t.split(".", 1)[1] for k in state.order if k != realm for t in state.realms[k].spied
                      if t.startswith(realm + ".")}
    hidden = [h for h in rs.cards if h not in rs.known and h not in seen_by_others]
    if state.phase != "assign" and len(hidden) >= 2:
        v = copy(state)
        a, b = hidden[0], hidden[1]
        ca, cb = v.realms[realm].cards[a], v.realms[realm].cards[b]
        ca[1], cb[1] = cb[1], ca[1]
        yield v
    if rs.pending:
        v = copy(state)
        v.realms[realm].pending = {}
        yield v
    if state.battle is not None:
        for name in ("attacker", "defender"):
            side = getattr(state.battle, name)
            if side.realm == realm and side.laid:
                v = copy(state)
                vs = getattr(v.battle, name)
                vs.lineup = list(reversed(vs.lineup))
                yield v
    v = copy(state)
    v.rng ^= 0x5A5A5A5A
    yield v
