"""Autokrator's rules engine: setup, who acts, what is legal and what an action does.  Pure and deterministic;
every random draw goes through the seeded ``Rng`` kept in the state and is told as an event."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

import msgspec

from rules.autokrator import board
from rules.autokrator.battle import best_fields, completable, fight, fits, lineups
from rules.autokrator.content import HOLDERS, REALMS, UNIT_NAMES, library
from rules.autokrator.state import (
    AnswerTruce,
    Assign,
    Assigned,
    Attack,
    AutokratorAction,
    Battle,
    BattleBegan,
    BattleFought,
    Campaign,
    CampaignBegan,
    CardsDrawn,
    CardsLaid,
    Conquered,
    EpochBegan,
    EpochEnded,
    Field,
    FieldChosen,
    Fields,
    FieldsChosen,
    GameEnded,
    Income,
    LifeLost,
    Lineup,
    Move,
    Moved,
    NoRaid,
    OfferTruce,
    Pass,
    RaidLaunched,
    RealmState,
    Rested,
    Retreat,
    Retreated,
    Scored,
    Side,
    Spied,
    Spy,
    State,
    Truce,
    TruceAnswered,
    TruceOffered,
    TurnBegan,
    Unit,
    UnitRemoved,
    Voyage,
    Withdraw,
)
from rules.core import GameOver, IllegalAction, NotYourTurn, Outcome, Rng, SeatInfo, Step, copier, seed_state

MODES = ("full", "fast", "east", "west")
PAIRS = {"east": ("sar", "byz"), "west": ("fra", "moo")}
_copy = copier(State)


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


class Engine:
    """The game of Autokrator.  Methods that change the state work on a copy (see ``apply``)."""

    # --- options and setup ---------------------------------------------------------------------------

    def check_options(self, options: Mapping[str, object], players: int) -> dict[str, object]:
        if players not in (2, 4):
            raise IllegalAction("Autokrator is played by 2 or 4 realms. For 3 players (or 1), seat Tabula in the "
                                "lobby for each realm nobody plays.")
        mode = str(options.get("mode") or ("east" if players == 2 else "full")).lower()
        if mode not in MODES:
            mode = "east" if players == 2 else "full"
        if players == 2 and mode not in PAIRS:
            raise IllegalAction("Two players fight as Saracens against Byzantium (`mode:east`) or Franks against "
                                "Moors (`mode:west`).")
        if players == 4 and mode in PAIRS:
            raise IllegalAction("Four realms play `mode:full` (each realm moves all its units on its turn) or "
                                "`mode:fast` (one unit at a time, in turn).")
        raids = options.get("raids")
        return {**options, "mode": mode, "raids": True if raids is None else bool(raids)}

    def setup(self, seats: Sequence[SeatInfo], options: Mapping[str, object], seed: int) -> Step:
        lib = library()
        mode = str(options.get("mode", "full"))
        order = list(PAIRS[mode]) if mode in PAIRS else list(REALMS)
        seat_realms = order[: len(seats)]
        realms = {}
        for key in REALMS:
            seat = seat_realms.index(key) if key in seat_realms else -1
            rs = RealmState(key=key, seat=seat, treasury=lib.numbers.treasury["start"],
                            supply=lib.numbers.garrisons["supply"])
            if key in order:
                info = lib.realms[key]
                rs.units = {u: Unit(region=info.admiral if u == "admiral" else info.capital,
                                    lives=lib.numbers.lives[u].start) for u in ("king", "general", "admiral")}
            realms[key] = rs
        state = State(names=[s.name for s in seats], mode=mode, raids=bool(options.get("raids", True)),
                      seats=seat_realms, order=order, realms=realms,
                      owner={r.id: r.owner for r in lib.regions.values()}, pieces={},
                      rng=Rng(seed_state(seed)).state)
        return Step(state=state, events=(EpochBegan(epoch=1),))

    # --- who acts ------------------------------------------------------------------------------------

    def to_act(self, state: State) -> frozenset[int]:
        if state.phase == "over":
            return frozenset()
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
        if state.phase == "assign":
            return list(self._assignments(state, realm))
        if state.phase == "battle" and state.battle is not None:
            return self._battle_choices(state, realm)
        if state.phase == "retreat" and state.retreat is not None:
            return [Withdraw(to=r) for r in state.retreat.options]
        if state.phase == "truce":
            return [AnswerTruce(accept=True), AnswerTruce(accept=False)]
        return self._turn_choices(state, realm)

    def _holders(self, rs: RealmState) -> list[str]:
        return [h for h in HOLDERS if h == "garrison" or h in rs.units]

    def _free_cards(self, rs: RealmState) -> list[str]:
        lib = library()
        taken = {c for cards in rs.pending.values() for c in cards}
        return [c for c in lib.deck(rs.key) if not lib.cards[c].fixed and c not in taken]

    def _assignments(self, state: State, realm: str) -> list[Assign]:
        lib = library()
        rs = state.realms[realm]
        holders = [h for h in self._holders(rs) if h not in rs.pending]
        if not holders:
            return []
        holder, rest = holders[0], holders[1:]
        free = self._free_cards(rs)
        out = []
        for pair in combinations(free, 2):
            if fits(lib.fixed(realm, holder), pair):
                left = [c for c in free if c not in pair]
                if completable([lib.fixed(realm, h) for h in rest], left):
                    out.append(Assign(holder=holder, cards=pair))
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
                for h in self._holders(state.realms[other]):
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

    # --- applying ------------------------------------------------------------------------------------

    def apply(self, state: State, seat: int, action: AutokratorAction) -> Step:
        if state.phase == "over":
            raise GameOver("The war is over: the fifth epoch has ended or a capital has fallen. Start a new game "
                           "with `/game new`.")
        if seat not in self.to_act(state):
            raise NotYourTurn(self._waiting_for(state))
        if action not in self.legal(state, seat):
            raise IllegalAction(self._why_not(state, seat, action))
        s = _copy(state)
        rng = Rng(s.rng)
        events: list[Any] = []
        realm = board.realm_of(s, seat)
        # Simultaneous secret choices leave the moment alone, so nobody else's menu goes stale meanwhile.
        quiet = isinstance(action, (Assign, Lineup))
        before = s.phase
        self._do(s, realm, action, rng, events)
        s.rng = rng.state
        if not quiet or s.phase != before:
            s.tick += 1
        return Step(state=s, events=tuple(events))

    def _waiting_for(self, state: State) -> str:
        names = [state.names[i] for i in sorted(self.to_act(state)) if 0 <= i < len(state.names)]
        who = " and ".join(names) or "another player"
        return f"It is not your move now: the game waits for {who}."

    def _why_not(self, state: State, seat: int, action: AutokratorAction) -> str:
        if state.phase == "assign":
            return ("First deal your battle cards for this epoch: press **Your hand** (or `/assign unit: cards:`) and "
                    "give each unit two cards, never two of the same army.")
        if state.phase == "battle" and state.battle is not None:
            asks = {"fields": "the attacker offers two battlefields (`/fields`)",
                    "field": "the defender chooses one of the two battlefields (`/field`)",
                    "lineup": "both sides lay their three cards face down (`/lineup`)"}
            return f"A battle is being fought in {library().name(state.battle.region)}: now " \
                   f"{asks[state.battle.stage]}. Press **Your hand** for your choices."
        if state.phase == "retreat":
            return "Your beaten unit must fall back first: choose one of the regions offered (`/retreat to:`)."
        if state.phase == "truce":
            return "Answer the truce first: `/truce answer:yes` or `/truce answer:no`."
        if state.current and getattr(action, "unit", state.current) not in (state.current, "turn"):
            return f"Finish with your {UNIT_NAMES[state.current]} first: attack, march on or `/pass` to rest him."
        if isinstance(action, Move | Voyage):
            return ("That march is not allowed now. A unit that stands beside enemies must fight first; the King and "
                    "General never share a region but the capital. The menu lists every place you can reach.")
        if isinstance(action, Attack):
            return ("Nothing can be attacked that way now: a unit attacks where it stands, enemy units before the "
                    "Garrison. The buttons show what you can attack.")
        if isinstance(action, Campaign | Spy):
            return "You cannot pay for that now: a campaign is bought before the unit acts, and gold must suffice."
        return "That is not allowed at this point of your turn; the menus and buttons show everything you can do."

    def _do(self, s: State, realm: str, action: AutokratorAction, rng: Rng, events: list[Any]) -> None:
        if isinstance(action, Assign):
            self._assign(s, realm, action, rng, events)
        elif isinstance(action, Move):
            self._move(s, realm, action.unit, action.to, events)
            self._unit_finished(s, realm, rng, events)
        elif isinstance(action, Voyage):
            self._move(s, realm, "admiral", action.to, events)
            self._unit_finished(s, realm, rng, events)
        elif isinstance(action, Attack):
            self._attack(s, realm, action, rng, events)
        elif isinstance(action, Pass):
            self._pass(s, realm, action.unit, rng, events)
        elif isinstance(action, Campaign):
            cost = self.cost(s, action.unit)
            rs = s.realms[realm]
            rs.treasury -= cost
            rs.units[action.unit].campaign = True
            s.current = action.unit
            events.append(CampaignBegan(realm=realm, unit=action.unit, cost=cost))
        elif isinstance(action, Spy):
            cost = library().numbers.costs["spy"]
            rs = s.realms[realm]
            rs.treasury -= cost
            rs.spied.append(action.target)
            events.append(Spied(realm=realm, target=action.target, cost=cost))
        elif isinstance(action, OfferTruce):
            s.realms[realm].offered = True
            s.offer = [realm, action.realm]
            s.phase = "truce"
            events.append(TruceOffered(realm=realm, to=action.realm))
        elif isinstance(action, AnswerTruce):
            frm, to = s.offer
            if action.accept:
                s.truces.append(Truce(realms=[frm, to], until=s.epoch + 1))
            events.append(TruceAnswered(realm=frm, to=to, accepted=action.accept))
            s.offer = []
            s.phase = "turns"
        elif isinstance(action, Fields | Field | Lineup):
            self._battle_step(s, realm, action, rng, events)
        elif isinstance(action, Withdraw):
            assert s.retreat is not None
            r = s.retreat
            s.retreat = None
            self._retreat_to(s, r.realm, r.unit, r.region, action.to, events)
            s.phase = "turns"
            self._after_battle(s, rng, events)

    # --- assignment and epochs -----------------------------------------------------------------------

    def _assign(self, s: State, realm: str, action: Assign, rng: Rng, events: list[Any]) -> None:
        lib = library()
        rs = s.realms[realm]
        rs.pending[action.holder] = [lib.fixed(realm, action.holder), *action.cards]
        while True:  # a holder with only one way left to fill takes it at once
            left = self._assignments(s, realm)
            if len(left) != 1:
                break
            rs.pending[left[0].holder] = [lib.fixed(realm, left[0].holder), *left[0].cards]
        if all(h in rs.pending for h in self._holders(rs)):
            rs.cards, rs.pending, rs.assigned = rs.pending, {}, True
            events.append(Assigned(realm=realm))
        if all(s.realms[k].assigned for k in s.order):
            self._begin_turns(s, rng, events)

    def _begin_epoch(self, s: State, rng: Rng, events: list[Any]) -> None:
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

    def _begin_turns(self, s: State, rng: Rng, events: list[Any]) -> None:
        s.phase = "turns"
        s.turn = 0
        s.current = ""
        epoch = library().epochs[s.epoch - 1]
        if s.raids and epoch.raid:
            self._raid(s, epoch.raid, rng, events)
            if s.phase == "battle":
                return
        self._start_turn(s, rng, events, fresh=True)

    def _start_turn(self, s: State, rng: Rng, events: list[Any], fresh: bool) -> None:
        """Find the next realm with something to do (from ``s.turn``), or end the epoch."""
        for _ in range(len(s.order) + 1):
            rs = s.realms[s.order[s.turn]]
            if any(not u.done for u in rs.units.values()):
                events.append(TurnBegan(realm=rs.key))
                return
            if s.turn + 1 >= len(s.order):
                if s.mode == "full" or all(u.done for k in s.order for u in s.realms[k].units.values()):
                    self._end_epoch(s, rng, events)
                    return
                s.turn = 0
            else:
                s.turn += 1
        self._end_epoch(s, rng, events)

    def _next_realm(self, s: State, rng: Rng, events: list[Any]) -> None:
        s.current = ""
        if s.turn + 1 >= len(s.order):
            if s.mode == "full" or all(u.done for k in s.order for u in s.realms[k].units.values()):
                self._end_epoch(s, rng, events)
                return
            s.turn = 0
        else:
            s.turn += 1
        self._start_turn(s, rng, events, fresh=False)

    def _end_epoch(self, s: State, rng: Rng, events: list[Any]) -> None:
        events.append(EpochEnded(epoch=s.epoch))
        if s.epoch >= len(library().epochs):
            self._finish(s, self._leader(s), "the fifth epoch is over", events)
            return
        s.epoch += 1
        s.truces = [t for t in s.truces if t.until >= s.epoch]
        for key in s.order:
            rs = s.realms[key]
            rs.assigned, rs.spied, rs.known, rs.offered, rs.conquests = False, [], [], False, 0
            for u in rs.units.values():
                u.done, u.moves, u.attacked, u.own_moves, u.campaign = False, 0, False, True, False
        s.turn, s.current = 0, ""
        self._begin_epoch(s, rng, events)

    def _leader(self, s: State) -> str:
        def rank(key: str) -> tuple[int, int, int, int]:
            rs = s.realms[key]
            return (rs.score, board.regions_held(s, key), rs.treasury, s.order.index(key))
        return max(s.order, key=rank)

    def _finish(self, s: State, winner: str, reason: str, events: list[Any]) -> None:
        s.phase, s.winner, s.reason, s.battle, s.retreat, s.current = "over", winner, reason, None, None, ""
        events.append(GameEnded(winner=winner, reason=reason))

    # --- movement ------------------------------------------------------------------------------------

    def _move(self, s: State, realm: str, unit: str, to: str, events: list[Any]) -> None:
        u = s.realms[realm].units[unit]
        frm = u.region
        if not (s.owner[frm] == realm and s.owner[to] == realm):
            u.own_moves = False
        u.region = to
        u.moves += 1
        s.current = unit
        events.append(Moved(realm=realm, unit=unit, frm=frm, to=to))
        self._settle(s, realm, events)

    def _settle(self, s: State, realm: str, events: list[Any]) -> None:
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

    def _pass(self, s: State, realm: str, unit: str, rng: Rng, events: list[Any]) -> None:
        rs = s.realms[realm]
        names = [n for n, u in rs.units.items() if not u.done] if unit == "turn" else [unit]
        for n in names:
            rs.units[n].done = True
            events.append(Rested(realm=realm, unit=n))
        s.current = ""
        self._unit_finished(s, realm, rng, events)

    def _unit_finished(self, s: State, realm: str, rng: Rng, events: list[Any]) -> None:
        """After a unit's activation: in the fast game the next realm acts; otherwise the realm goes on."""
        if s.phase != "turns":
            return
        if s.current:
            return
        rs = s.realms[realm]
        if s.mode == "full" and any(not u.done for u in rs.units.values()):
            return
        self._next_realm(s, rng, events)

    # --- battles -------------------------------------------------------------------------------------

    def _modifier(self, s: State, realm: str, unit: str, when: str) -> int:
        lib = library()
        base = lib.numbers.lives[unit].modifier(s.realms[realm].units[unit].lives) if unit in lib.numbers.lives \
            else 0
        epoch = lib.epochs[s.epoch - 1]
        if epoch.kind == "bonus" and epoch.realm == realm and epoch.unit in ("any", unit) \
                and epoch.when in ("any", when) and unit != "garrison":
            base += epoch.value
        return max(-3, min(3, base))

    def _draw(self, stack: str, count: int, rng: Rng, events: list[Any], keep: str = "") -> list[str]:
        deck = [c for c in library().deck(stack) if c != keep]
        drawn = rng.shuffle(deck)[:count]
        events.append(CardsDrawn(stack=stack, count=count))
        return drawn

    def _attack(self, s: State, realm: str, action: Attack, rng: Rng, events: list[Any]) -> None:
        rs = s.realms[realm]
        u = rs.units[action.unit]
        s.current = action.unit
        u.attacked = True
        region = u.region
        attacker = Side(realm=realm, holder=action.unit, cards=list(rs.cards[action.unit]),
                        modifier=self._modifier(s, realm, action.unit, "attack"))
        if action.target == "region":
            owner = s.owner[region]
            if owner == "":
                stack = "neutral-region" if s.raids else "neutral"
                defender = Side(realm="", holder="neutral", cards=[], modifier=board.defence(s, region))
                events.append(self._began(region, attacker, defender))
                defender.cards = self._draw(stack, 3, rng, events)
            else:
                defender = Side(realm=owner, holder="garrison", cards=list(s.realms[owner].cards["garrison"]),
                                modifier=board.defence(s, region))
                events.append(self._began(region, attacker, defender))
        else:
            other, unit = action.target.split(".")
            defender = Side(realm=other, holder=unit, cards=list(s.realms[other].cards[unit]),
                            modifier=self._modifier(s, other, unit, "defend"))
            events.append(self._began(region, attacker, defender))
        s.battle = Battle(region=region, attacker=attacker, defender=defender, stage="fields")
        s.phase = "battle"

    def _began(self, region: str, a: Side, d: Side) -> BattleBegan:
        return BattleBegan(region=region, attacker=a.realm, attacker_unit=a.holder, defender=d.realm,
                           defender_unit=d.holder, attacker_modifier=a.modifier, defender_modifier=d.modifier)

    def _raid(self, s: State, source: str, rng: Rng, events: list[Any]) -> None:
        lib = library()
        options = [n for n in lib.neighbours[source] if s.owner[n] in s.order and not lib.regions[n].capital]
        if not options:
            events.append(NoRaid(source=source))
            return
        region = options[rng.below(len(options))]
        owner = s.owner[region]
        events.append(RaidLaunched(source=source, region=region, realm=owner))
        horse = lib.deck("neutral-general")[0]
        attacker = Side(realm="", holder="raid", cards=[], modifier=0)
        defender = Side(realm=owner, holder="garrison", cards=list(s.realms[owner].cards["garrison"]),
                        modifier=board.defence(s, region))
        events.append(self._began(region, attacker, defender))
        attacker.cards = [horse, *self._draw("neutral-general", 2, rng, events, keep=horse)]
        b = Battle(region=region, attacker=attacker, defender=defender, stage="field")
        b.fields = best_fields(attacker.cards, 2)
        events.append(FieldsChosen(fields=tuple(b.fields)))
        self._lay_neutral(attacker, rng)
        s.battle = b
        s.phase = "battle"

    def _lay_neutral(self, side: Side, rng: Rng) -> None:
        side.lineup = rng.shuffle(side.cards)
        side.marks = list(range(min(abs(side.modifier), 3)))

    def _battle_step(self, s: State, realm: str, action: Fields | Field | Lineup, rng: Rng,
                     events: list[Any]) -> None:
        b = s.battle
        assert b is not None
        if isinstance(action, Fields):
            b.fields = list(action.fields)
            events.append(FieldsChosen(fields=action.fields))
            b.stage = "field"
            if not b.defender.realm:
                b.field = best_fields(b.defender.cards, 1, b.fields)[0]
                events.append(FieldChosen(field=b.field))
                b.stage = "lineup"
                self._lay_neutral(b.defender, rng)
            return
        if isinstance(action, Field):
            b.field = action.field
            events.append(FieldChosen(field=b.field))
            b.stage = "lineup"
            return
        side = b.attacker if b.attacker.realm == realm and not b.attacker.laid else b.defender
        side.lineup, side.marks = list(action.cards), list(action.marks)
        events.append(CardsLaid(side="attacker" if side is b.attacker else "defender"))
        if b.attacker.laid and b.defender.laid:
            self._resolve(s, rng, events)

    def _resolve(self, s: State, rng: Rng, events: list[Any]) -> None:
        lib = library()
        b = s.battle
        assert b is not None
        a, d = b.attacker, b.defender
        clashes, swords, troops, points, won = fight(b.field, a, d)
        events.append(BattleFought(region=b.region, field=b.field, attacker=a.realm, attacker_unit=a.holder,
                                   defender=d.realm, defender_unit=d.holder, clashes=tuple(clashes), swords=swords,
                                   troops=troops, points=points, attacker_won=won))
        for side in (a, d):
            if side.realm and side.holder not in s.realms[side.realm].known:
                s.realms[side.realm].known.append(side.holder)
        s.battle = None
        s.phase = "turns"
        pts = lib.numbers.points
        loser, winner = (d, a) if won else (a, d)
        if loser.holder in ("king", "general", "admiral"):
            if winner.realm:
                self._score(s, winner.realm, pts["defeat_unit"], f"defeating {unit_title(loser.realm, loser.holder)}",
                            events)
            self._beaten(s, loser.realm, loser.holder, b.region, rng, events)
        elif won:
            self._conquer(s, a.realm, b.region, events)
        elif a.holder == "raid":
            self._score(s, d.realm, pts["repel_raid"], "driving off the raid", events)
        if s.phase == "over":
            return
        if won and a.holder == "general" and a.realm and "general" in s.realms[a.realm].units:
            g = s.realms[a.realm].units["general"]
            if g.campaign:  # the General's campaign: after a victory he marches and fights once more
                g.campaign, g.attacked, g.moves, g.own_moves = False, False, 0, False
        if a.holder == "raid":
            self._start_turn(s, rng, events, fresh=True)  # the epoch's raid is over: the first turn begins
        elif s.phase == "turns":
            self._after_battle(s, rng, events)

    def _score(self, s: State, realm: str, points: int, why: str, events: list[Any]) -> None:
        rs = s.realms[realm]
        rs.score += points
        events.append(Scored(realm=realm, points=points, score=rs.score, why=why))

    def _lose_life(self, s: State, realm: str, unit: str, events: list[Any]) -> bool:
        """One life lost; True when the unit is gone."""
        rs = s.realms[realm]
        u = rs.units[unit]
        u.lives -= 1
        events.append(LifeLost(realm=realm, unit=unit, lives=u.lives))
        if u.lives <= 0:
            del rs.units[unit]
            events.append(UnitRemoved(realm=realm, unit=unit))
            if s.current == unit and realm == s.order[s.turn]:
                s.current = ""
            return True
        return False

    def _beaten(self, s: State, realm: str, unit: str, region: str, rng: Rng, events: list[Any]) -> None:
        if self._lose_life(s, realm, unit, events):
            self._removed_points(s, realm, events)
            return
        options = board.retreats(s, realm, unit, region)
        if len(options) > 1:
            s.retreat = Retreat(realm=realm, unit=unit, region=region, options=options)
            s.phase = "retreat"
            return
        if options:
            self._retreat_to(s, realm, unit, region, options[0], events)
            return
        if unit == "admiral":
            del s.realms[realm].units[unit]
            events.append(UnitRemoved(realm=realm, unit=unit))
            self._removed_points(s, realm, events)
            return
        capital = library().realms[realm].capital
        self._retreat_to(s, realm, unit, region, capital, events)
        if unit == "general" and self._lose_life(s, realm, unit, events):
            self._removed_points(s, realm, events)

    def _removed_points(self, s: State, realm: str, events: list[Any]) -> None:
        """The realm that struck the last blow (the other side of the battle just fought) scores the kill."""
        for e in reversed(events):
            if isinstance(e, BattleFought):
                other = e.defender if e.attacker == realm else e.attacker
                if other:
                    self._score(s, other, library().numbers.points["destroy_unit"], "destroying a unit", events)
                return

    def _retreat_to(self, s: State, realm: str, unit: str, frm: str, to: str, events: list[Any]) -> None:
        u = s.realms[realm].units[unit]
        u.region = to
        events.append(Retreated(realm=realm, unit=unit, frm=frm, to=to))
        if realm == s.order[s.turn] and s.current == unit:
            u.done = True  # the attacker's activation ends with his defeat

    def _conquer(self, s: State, realm: str, region: str, events: list[Any]) -> None:
        lib = library()
        former = s.owner[region]
        piece_of = s.pieces.pop(region, "")
        if piece_of:
            s.realms[piece_of].supply += 1
        if not realm:  # a raid that wins leaves the region neutral
            s.owner[region] = ""
            events.append(Conquered(realm="", region=region, former=former, piece=False))
            return
        printed = lib.regions[region].owner
        rs = s.realms[realm]
        piece = printed != realm
        if piece:
            rs.supply -= 1
            s.pieces[region] = realm
        s.owner[region] = realm
        events.append(Conquered(realm=realm, region=region, former=former, piece=piece))
        if lib.regions[region].capital and former in lib.realms:
            self._finish(s, realm, f"{realm_name(realm)} took {lib.name(region)}, the capital of "
                         f"{realm_name(former)}", events)
            return
        pts = lib.numbers.points["conquer_neutral" if former == "" else "conquer_enemy"]
        epoch = lib.epochs[s.epoch - 1]
        if epoch.kind == "conquest":
            pts += epoch.value
        rs.conquests += 1
        self._score(s, realm, pts, f"conquering {lib.name(region)}", events)

    def _after_battle(self, s: State, rng: Rng, events: list[Any]) -> None:
        """Back to the turns: a raid leads into the first turn; otherwise the acting unit may be finished."""
        if s.phase != "turns":
            return
        realm = s.order[s.turn]
        if s.current:
            u = s.realms[realm].units.get(s.current)
            if u is None or u.done:
                s.current = ""
            else:
                self._settle(s, realm, events)
        self._unit_finished(s, realm, rng, events)

    # --- the end -------------------------------------------------------------------------------------

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        scores = {state.realms[k].seat: state.realms[k].score for k in state.order}
        winner = state.realms[state.winner]
        board_line = ", ".join(f"{realm_name(k)} {state.realms[k].score}" for k in state.order)
        return Outcome(winners=(winner.seat,), scores=scores,
                       summary=f"{realm_name(state.winner)} ({state.names[winner.seat]}) win: {state.reason}. "
                               f"Points: {board_line}.")

    def moment(self, state: State) -> int:
        return state.tick


def replace(state: State, **kw: Any) -> State:
    return msgspec.structs.replace(state, **kw)
