"""Autokrator's turns: setup, who acts, what is legal, the flow of epochs and turns and the units' marches.
The battles are ``battles``', the applying of actions the ``Engine``'s; everything here is pure and deterministic."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from rules.autokrator import board
from rules.autokrator import i18n as words
from rules.autokrator.content import HOLDERS, REALMS, UNIT_NAMES, library
from rules.autokrator.engine.battle import dealable, lineups
from rules.autokrator.i18n import N_, _, and_list, place, unit_word
from rules.autokrator.state import (
    AnswerTruce,
    Assign,
    Attack,
    AutokratorAction,
    AutokratorEvent,
    Bid,
    BidsOpened,
    Campaign,
    Choose,
    EpochBegan,
    EpochEnded,
    Field,
    Fields,
    GameEnded,
    Income,
    Lineup,
    Move,
    Moved,
    OfferTruce,
    Pass,
    RealmChosen,
    RealmState,
    Rested,
    Spy,
    State,
    TurnBegan,
    Unit,
    Voyage,
    Withdraw,
)
from rules.core import Outcome, Rng, SeatInfo, Step, seed_state

PAIRS = {"east": ("sar", "byz"), "west": ("fra", "moo")}


def realm_name(realm: str) -> str:
    return library().realms[realm].name if realm in library().realms else "the neutral side"


def adjective(realm: str) -> str:
    return library().realms[realm].adjective if realm in library().realms else "Neutral"


def unit_title(realm: str, unit: str) -> str:
    if unit == "neutral":
        return "the neutral defenders"
    if unit == "raid":
        return "a Neutral General"
    return f"the {adjective(realm)} {UNIT_NAMES[unit]}"


#: The ``realms`` a game stored before the lobby chose realms is set up with (``AutokratorRuleset.setup``).
LEGACY_REALMS = "seats"

class Turns:
    """Setup, legality and the flow of the game: epochs, turns, each unit's activation and its marches."""

    # --- setup ---------------------------------------------------------------------------

    def setup(
            self, seats: Sequence[SeatInfo], options: Mapping[str, object], seed: int
    ) -> Step[State, AutokratorEvent]:
        lib = library()
        mode = str(options.get("mode", "full"))
        order = list(PAIRS[mode]) if mode in PAIRS else list(REALMS)
        rng = Rng(seed_state(seed))
        how = str(options.get("realms") or "random")  # LEGACY_REALMS: the seats keep the turn order's realms
        seat_realms = order[: len(seats)]
        if how == "random":
            seat_realms = rng.shuffle(seat_realms)  # the realms are drawn: the host is not always the first
        elif how in ("choice", "auction"):
            seat_realms = [""] * len(seats)  # chosen before the first dealing (``choose``)
        raids = bool(options.get("raids", True))
        start = lib.numbers.start_points(mode, raids)
        realms = {}
        for key in REALMS:
            seat = seat_realms.index(key) if key in seat_realms else -1
            rs = RealmState(key=key, seat=seat, treasury=lib.numbers.treasury["start"],
                            supply=lib.numbers.garrisons["supply"],
                            score=start.get(key, 0) if key in order else 0)
            if key in order:
                info = lib.realms[key]
                rs.units = {u: Unit(region=info.admiral if u == "admiral" else info.capital,
                                    lives=lib.numbers.lives[u].start) for u in ("king", "general", "admiral")}
            realms[key] = rs
        state = State(names=[s.name for s in seats], mode=mode, raids=raids,
                      seats=seat_realms, order=order, realms=realms,
                      owner={r.id: r.owner for r in lib.regions.values()}, pieces={},
                      rng=rng.state)
        if how == "choice":
            state.phase, state.picks = "realms", list(range(len(seats)))  # first come, first to choose
        elif how == "auction":
            state.phase, state.bids = "realms", [-1] * len(seats)
        return Step(state=state, events=(EpochBegan(epoch=1),))

    # --- who plays which realm -------------------------------------------------------------------------

    def choose(self, s: State, seat: int, realm: str, events: list[Any]) -> None:
        """``seat`` takes ``realm`` (paying its bid); the last seat takes the last realm; then the dealing."""
        bid = max(0, s.bids[seat]) if s.bids else 0
        self._take(s, seat, realm, bid, False, events)
        if len(s.picks) == 1:
            last = s.picks[0]
            free = [k for k in s.order if k not in s.seats]
            self._take(s, last, free[0], max(0, s.bids[last]) if s.bids else 0, True, events)
        if not s.picks:
            s.phase = "assign"

    def _take(self, s: State, seat: int, realm: str, bid: int, last: bool, events: list[Any]) -> None:
        s.seats[seat] = realm
        rs = s.realms[realm]
        rs.seat = seat
        rs.score -= bid
        s.picks.remove(seat)
        events.append(RealmChosen(seat=seat, realm=realm, bid=bid, last=last))

    def bid(self, s: State, seat: int, points: int, rng: Rng, events: list[Any]) -> None:
        """A secret bid; once every seat has bid, the highest bids choose first (level bids in a drawn order)."""
        s.bids[seat] = points
        if min(s.bids) < 0:
            return
        drawn = rng.shuffle(range(len(s.bids)))
        s.picks = sorted(drawn, key=lambda i: -s.bids[i])
        events.append(BidsOpened(bids=tuple(s.bids), order=tuple(s.picks)))

    # --- who acts ------------------------------------------------------------------------------------

    def to_act(self, state: State) -> frozenset[int]:
        if state.phase == "over":
            return frozenset()
        if state.phase == "realms":
            waiting = [i for i, b in enumerate(state.bids) if b < 0]
            return frozenset(waiting or state.picks[:1])
        if state.phase == "assign":
            return frozenset(state.realms[k].seat for k in state.order if not state.realms[k].assigned)
        if state.phase == "battle" and state.battle is not None:
            b = state.battle
            if b.stage == "fields":
                return frozenset({board.seat_of(state, b.attacker.realm)})
            if b.stage == "field":
                return frozenset({board.seat_of(state, b.defender.realm)})
            return frozenset(board.seat_of(state, s.realm) for s in (b.attacker, b.defender)
                             if s.realm and not s.laid)
        if state.phase == "retreat" and state.retreat is not None:
            return frozenset({board.seat_of(state, state.retreat.realm)})
        if state.phase == "truce":
            return frozenset({board.seat_of(state, state.offer[1])})
        return frozenset({state.realms[state.order[state.turn]].seat})

    # --- legal actions -------------------------------------------------------------------------------

    def legal(self, state: State, seat: int) -> list[AutokratorAction]:
        if seat not in self.to_act(state):
            return []
        realm = board.realm_of(state, seat)
        if state.phase == "realms":
            if state.bids and state.bids[seat] < 0:
                return [Bid(points=p) for p in range(library().numbers.realms.get("max_bid", 0) + 1)]
            return [Choose(realm=k) for k in state.order if k not in state.seats]
        if state.phase == "assign":
            return list(self.assignments(state, realm))
        if state.phase == "battle" and state.battle is not None:
            return self._battle_choices(state, realm)
        if state.phase == "retreat" and state.retreat is not None:
            return [Withdraw(to=r) for r in state.retreat.options]
        if state.phase == "truce":
            return [AnswerTruce(accept=True), AnswerTruce(accept=False)]
        return self._turn_choices(state, realm)

    def holders(self, rs: RealmState) -> list[str]:
        return [h for h in HOLDERS if h == "garrison" or h in rs.units]

    def _free_cards(self, rs: RealmState) -> list[str]:
        lib = library()
        taken = {c for cards in rs.pending.values() for c in cards}
        return [c for c in lib.deck(rs.key) if not lib.cards[c].fixed and c not in taken]

    def assignments(self, state: State, realm: str) -> list[Assign]:
        lib = library()
        rs = state.realms[realm]
        holders = [h for h in self.holders(rs) if h not in rs.pending]
        if not holders:
            return []
        holder, rest = holders[0], holders[1:]
        free = self._free_cards(rs)
        kind = lib.cards[lib.fixed(realm, holder)].kind
        pairs = dealable(kind, tuple(lib.cards[c].kind for c in free),
                         tuple(lib.cards[lib.fixed(realm, h)].kind for h in rest))
        out = [Assign(holder=holder, cards=(free[i], free[j])) for i, j in pairs]
        if not rs.pending and sorted(rs.cards) == sorted(holders):
            out.insert(0, Assign(holder="same", cards=()))  # last epoch's dealing again, in one choice
        return out

    def _battle_choices(self, state: State, realm: str) -> list[AutokratorAction]:
        b = state.battle
        assert b is not None
        if b.stage == "fields":
            return [Fields(fields=(a, c)) for a, c in combinations(library().numbers.battlefields, 2)]
        if b.stage == "field":
            return [Field(field=f) for f in b.fields]
        side = b.attacker if b.attacker.realm == realm and not b.attacker.laid else b.defender
        return [Lineup(cards=order, marks=marks) for order, marks in lineups(side)]

    def _unit_options(self, state: State, realm: str, name: str) -> list[AutokratorAction]:
        """What one unit may still do in its activation (Pass included where resting is allowed)."""
        rs = state.realms[realm]
        u = rs.units[name]
        if u.done:
            return []
        here = board.targets(state, realm, u.region)
        out: list[AutokratorAction] = []
        if here and not u.attacked:
            return [Attack(unit=name, target=t) for t in here]
        if not u.attacked:
            if name == "admiral":
                if u.moves == 0:
                    out += [Voyage(to=p) for p in board.ports_for(state, realm, u.campaign) if p != u.region]
            else:
                limit = 2 if (name == "king" and u.campaign) or (name == "general" and u.own_moves) else 1
                if u.moves < limit:
                    for n in board.steps(state, realm, name, u.region):
                        if name == "general" and u.moves == 1 and (state.owner[n] != realm
                                                                  or board.targets(state, realm, n)):
                            continue  # the General's second move runs only between his own regions
                        out.append(Move(unit=name, to=n))
            if u.moves == 0 and not u.campaign and rs.treasury >= self.cost(state, name) \
                    and (name != "admiral" or state.mode not in PAIRS):
                out.append(Campaign(unit=name))  # the 2-player game has no Admiral's campaign
        out.append(Pass(unit=name))
        return out

    def cost(self, state: State, unit: str) -> int:
        lib = library()
        base = lib.numbers.costs[f"{unit}_campaign"]
        epoch = lib.epochs[state.epoch - 1]
        return max(0, base - (epoch.value if epoch.kind == "discount" else 0))

    def _turn_choices(self, state: State, realm: str) -> list[AutokratorAction]:
        rs = state.realms[realm]
        if state.current:
            return self._unit_options(state, realm, state.current)
        out: list[AutokratorAction] = []
        for name in rs.units:
            out += self._unit_options(state, realm, name)
        spy_cost = library().numbers.costs["spy"]
        if rs.treasury >= spy_cost:
            for other in state.order:
                if other == realm:
                    continue
                for h in self.holders(state.realms[other]):
                    key = f"{other}.{h}"
                    if key not in rs.spied and h not in state.realms[other].known:
                        out.append(Spy(target=key))
        if state.mode not in PAIRS and not rs.offered:
            for other in state.order:
                if other != realm and not board.at_truce(state, realm, other):
                    out.append(OfferTruce(realm=other))
        pinned = any(not u.done and not u.attacked and board.targets(state, realm, u.region) for u in rs.units.values())
        if state.mode == "full" and not pinned:
            out.append(Pass(unit="turn"))
        return out

    def waiting_for(self, state: State) -> str:
        names = [state.names[i] for i in sorted(self.to_act(state)) if 0 <= i < len(state.names)]
        if not names:
            return _("It is not your move now: the game waits for another player.")
        return _("It is not your move now: the game waits for {who}.", who=and_list(names))

    def why_not(self, state: State, seat: int, action: AutokratorAction) -> str:
        if state.phase == "realms":
            if state.bids and state.bids[seat] < 0:
                return _("First bid for your realm: from 0 to {most} points, in secret (press **Your hand**).",
                         most=library().numbers.realms.get("max_bid", 0))
            return _("Choose one of the realms still free: {realms}.",
                     realms=and_list([words.realm_name(k) for k in state.order if k not in state.seats]))
        if state.phase == "assign":
            return _("First deal your battle cards for this epoch: press **Your hand** (or `/assign unit: cards:`) "
                     "and give each unit two cards, never two of the same army.")
        if state.phase == "battle" and state.battle is not None:
            asks = {"fields": N_("A battle is being fought in {region}: now the attacker offers two battlefields "
                                 "(`/fields`). Press **Your hand** for your choices."),
                    "field": N_("A battle is being fought in {region}: now the defender chooses one of the two "
                                "battlefields (`/field`). Press **Your hand** for your choices."),
                    "lineup": N_("A battle is being fought in {region}: now both sides lay their three cards face "
                                 "down (`/lineup`). Press **Your hand** for your choices.")}
            return _(asks[state.battle.stage], region=place(state.battle.region, "in"))
        if state.phase == "retreat":
            return _("Your beaten unit must fall back first: choose one of the regions offered (`/retreat to:`).")
        if state.phase == "truce":
            return _("Answer the truce first: `/truce answer:yes` or `/truce answer:no`.")
        if state.current and getattr(action, "unit", state.current) not in (state.current, "turn"):
            return _("Finish with your {unit} first: attack, march on or `/pass` to rest him.",
                     unit=unit_word(state.current, "acc"))
        if isinstance(action, Move | Voyage):
            return _("That march is not allowed now. A unit that stands beside enemies must fight first; the King "
                     "and General never share a region but the capital. The menu lists every place you can reach.")
        if isinstance(action, Attack):
            return _("Nothing can be attacked that way now: a unit attacks where it stands, enemy units before the "
                     "Garrison. The buttons show what you can attack.")
        if isinstance(action, Campaign | Spy):
            return _("You cannot pay for that now: a campaign is bought before the unit acts, and gold must "
                     "suffice.")
        return _("That is not allowed at this point of your turn; the menus and buttons show everything you can "
                 "do.")

    def begin_epoch(self, s: State, rng: Rng, events: list[Any]) -> None:
        lib = library()
        events.append(EpochBegan(epoch=s.epoch))
        epoch = lib.epochs[s.epoch - 1]
        extra = epoch.value if epoch.kind == "income" else 0
        for key in s.order:
            rs = s.realms[key]
            gold = lib.numbers.treasury["income"] + extra
            rs.treasury = min(lib.numbers.treasury["cap"], rs.treasury + gold)
            events.append(Income(realm=key, gold=gold, treasury=rs.treasury))
        s.phase = "assign"

    def start_turn(self, s: State, rng: Rng, events: list[Any], fresh: bool) -> None:
        """Find the next realm with something to do (from ``s.turn``), or end the epoch."""
        for _round in range(len(s.order) + 1):
            rs = s.realms[s.order[s.turn]]
            if any(not u.done for u in rs.units.values()):
                events.append(TurnBegan(realm=rs.key))
                return
            if not self._pass_turn(s, rng, events):
                return
        self._end_epoch(s, rng, events)

    def _next_realm(self, s: State, rng: Rng, events: list[Any]) -> None:
        s.current = ""
        if self._pass_turn(s, rng, events):
            self.start_turn(s, rng, events, fresh=False)

    def _pass_turn(self, s: State, rng: Rng, events: list[Any]) -> bool:
        """The turn passes to the next realm in order; after the last, the epoch ends (in the full game, or when
        every unit has done all it will) or the order starts again.  False when the epoch has ended."""
        if s.turn + 1 < len(s.order):
            s.turn += 1
            return True
        if s.mode == "full" or all(u.done for k in s.order for u in s.realms[k].units.values()):
            self._end_epoch(s, rng, events)
            return False
        s.turn = 0
        return True

    def _end_epoch(self, s: State, rng: Rng, events: list[Any]) -> None:
        events.append(EpochEnded(epoch=s.epoch))
        if s.epoch >= len(library().epochs):
            self.finish(s, self._leader(s), words.OVER_FIFTH, events)
            return
        s.epoch += 1
        s.truces = [t for t in s.truces if t.until >= s.epoch]
        for key in s.order:
            rs = s.realms[key]
            rs.assigned, rs.spied, rs.known, rs.offered, rs.conquests = False, [], [], False, 0
            for u in rs.units.values():
                u.done, u.moves, u.attacked, u.own_moves, u.campaign = False, 0, False, True, False
        s.turn, s.current = 0, ""
        self.begin_epoch(s, rng, events)

    def _leader(self, s: State) -> str:
        top = max(s.realms[k].score for k in s.order)
        level = [k for k in s.order if s.realms[k].score == top]
        # Where the setting gives a realm the level score against another (half a point of compensation), the
        # other drops out; then more conquests held (Garrison pieces on the board: what the war won, not what
        # the map gave), then more gold, then the realm later in the turn order.
        level = board.level_after_compensation(s.mode, s.raids, level)

        def rank(key: str) -> tuple[int, int, int]:
            rs = s.realms[key]
            return (board.conquests_held(s, key), rs.treasury, s.order.index(key))
        return max(level, key=rank)

    def finish(self, s: State, winner: str, reason: str, events: list[Any]) -> None:
        s.phase, s.winner, s.reason, s.battle, s.retreat, s.current = "over", winner, reason, None, None, ""
        events.append(GameEnded(winner=winner, reason=reason))

    # --- movement ------------------------------------------------------------------------------------

    def move(self, s: State, realm: str, unit: str, to: str, events: list[Any]) -> None:
        u = s.realms[realm].units[unit]
        frm = u.region
        if not (s.owner[frm] == realm and s.owner[to] == realm):
            u.own_moves = False
        u.region = to
        u.moves += 1
        s.current = unit
        events.append(Moved(realm=realm, unit=unit, frm=frm, to=to))
        self.settle(s, realm, events)

    def settle(self, s: State, realm: str, events: list[Any]) -> None:
        """End the current unit's activation when resting is all it has left."""
        if not s.current or s.phase != "turns":
            return
        u = s.realms[realm].units.get(s.current)
        if u is None:
            s.current = ""
            return
        left = [a for a in self._unit_options(s, realm, s.current) if not isinstance(a, Pass | Campaign)]
        if not left:
            u.done = True
            events.append(Rested(realm=realm, unit=s.current))
            s.current = ""

    def rest(self, s: State, realm: str, unit: str, rng: Rng, events: list[Any]) -> None:
        rs = s.realms[realm]
        names = [n for n, u in rs.units.items() if not u.done] if unit == "turn" else [unit]
        for n in names:
            rs.units[n].done = True
            events.append(Rested(realm=realm, unit=n))
        s.current = ""
        self.unit_finished(s, realm, rng, events)

    def unit_finished(self, s: State, realm: str, rng: Rng, events: list[Any]) -> None:
        """After a unit's activation: in the fast game the next realm acts; otherwise the realm goes on."""
        if s.phase != "turns":
            return
        if s.current:
            return
        rs = s.realms[realm]
        if s.mode == "full" and any(not u.done for u in rs.units.values()):
            return
        self._next_realm(s, rng, events)

    # --- the end -------------------------------------------------------------------------------------

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        scores = {state.realms[k].seat: state.realms[k].score for k in state.order}
        winner = state.realms[state.winner]
        board_line = words.comma(_("{realm} {points}", realm=words.realm_name(k), points=state.realms[k].score)
                               for k in state.order)
        from rules.autokrator.telling import why_won  # the story's words for the end (the tie-break included)
        from rules.autokrator.view import build_view

        return Outcome(winners=(winner.seat,), scores=scores, sides=tuple(realm_name(k) for k in state.seats),
                       summary=_("Victory to {realm} ({player}): {reason}. Points: {points}.",
                                 realm=words.the_realm(state.winner, "gen"), player=state.names[winner.seat],
                                 reason=why_won(build_view(state, None)), points=board_line))

    def moment(self, state: State) -> int:
        return state.tick

