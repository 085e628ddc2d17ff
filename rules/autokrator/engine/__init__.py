"""Autokrator's rules engine: setup, who acts, what is legal and what an action does, composed of its parts —
``turns`` (setup, legality and the flow of epochs, turns and marches) and ``battles`` (attacks, raids and what a
battle's end brings; the fight itself is ``battle``).  Pure and deterministic; every random draw goes through the
seeded ``Rng`` kept in the state and is told as an event."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rules.autokrator import board
from rules.autokrator import state as st
from rules.autokrator.content import library
from rules.autokrator.engine.battles import Battles
from rules.autokrator.engine.turns import Turns
from rules.autokrator.i18n import _
from rules.core import GameOver, IllegalAction, NotYourTurn, Outcome, Rng, SeatInfo, Step, copier

_copy = copier(st.State)
Handler = Callable[[st.State, str, Any, Rng, list[Any]], None]


class Engine:
    """The game of Autokrator.  Methods that change the state work on a copy (see ``apply``)."""

    def __init__(self) -> None:
        self.turns = Turns()
        self.battles = Battles(self.turns)
        self._handlers: dict[type, Handler] = {
            st.Assign: self._assign, st.Move: self._march, st.Voyage: self._march, st.Attack: self._attack,
            st.Pass: self._rest, st.Campaign: self._campaign, st.Spy: self._spy, st.OfferTruce: self._offer,
            st.AnswerTruce: self._answer, st.Fields: self._battle_step, st.Field: self._battle_step,
            st.Lineup: self._battle_step, st.Withdraw: self._withdraw,
        }

    # --- the game as the ruleset asks it ---------------------------------------------------------------

    def setup(self, seats: Sequence[SeatInfo], options: Mapping[str, object],
              seed: int) -> Step[st.State, st.AutokratorEvent]:
        return self.turns.setup(seats, options, seed)

    def to_act(self, state: st.State) -> frozenset[int]:
        return self.turns.to_act(state)

    def legal(self, state: st.State, seat: int) -> list[st.AutokratorAction]:
        return self.turns.legal(state, seat)

    def outcome(self, state: st.State) -> Outcome | None:
        return self.turns.outcome(state)

    def moment(self, state: st.State) -> int:
        return self.turns.moment(state)

    # --- applying ------------------------------------------------------------------------------------

    def apply(self, state: st.State, seat: int, action: st.AutokratorAction) -> Step[st.State, st.AutokratorEvent]:
        if state.phase == "over":
            raise GameOver(_("The war is over: the fifth epoch has ended or a capital has fallen. Start a new "
                             "game with `/game new`."))
        if seat not in self.turns.to_act(state):
            raise NotYourTurn(self.turns.waiting_for(state))
        if action not in self.turns.legal(state, seat):
            raise IllegalAction(self.turns.why_not(state, seat, action))
        s = _copy(state)
        rng = Rng(s.rng)
        events: list[Any] = []
        realm = board.realm_of(s, seat)
        # Simultaneous secret choices leave the moment alone, so nobody else's menu goes stale meanwhile.
        quiet = isinstance(action, (st.Assign, st.Lineup, st.Bid))
        before = s.phase
        if isinstance(action, st.Choose | st.Bid):  # before the war the seat has no realm yet
            self._before_war(s, seat, action, rng, events)
        else:
            self._do(s, realm, action, rng, events)
        s.rng = rng.state
        if not quiet or s.phase != before:
            s.tick += 1
        return Step(state=s, events=tuple(events))

    def _do(self, s: st.State, realm: str, action: st.AutokratorAction, rng: Rng, events: list[Any]) -> None:
        self._handlers[type(action)](s, realm, action, rng, events)

    # --- the actions ---------------------------------------------------------------------------------

    def _before_war(self, s: st.State, seat: int, action: st.Choose | st.Bid, rng: Rng, events: list[Any]) -> None:
        if isinstance(action, st.Bid):
            self.turns.bid(s, seat, action.points, rng, events)
        else:
            self.turns.choose(s, seat, action.realm, events)

    def _march(self, s: st.State, realm: str, action: st.Move | st.Voyage, rng: Rng, events: list[Any]) -> None:
        self.turns.move(s, realm, action.unit if isinstance(action, st.Move) else "admiral", action.to, events)
        self.turns.unit_finished(s, realm, rng, events)

    def _attack(self, s: st.State, realm: str, action: st.Attack, rng: Rng, events: list[Any]) -> None:
        self.battles.attack(s, realm, action, rng, events)

    def _rest(self, s: st.State, realm: str, action: st.Pass, rng: Rng, events: list[Any]) -> None:
        self.turns.rest(s, realm, action.unit, rng, events)

    def _campaign(self, s: st.State, realm: str, action: st.Campaign, rng: Rng, events: list[Any]) -> None:
        cost = self.turns.cost(s, action.unit)
        rs = s.realms[realm]
        rs.treasury -= cost
        rs.units[action.unit].campaign = True
        s.current = action.unit
        events.append(st.CampaignBegan(realm=realm, unit=action.unit, cost=cost))

    def _spy(self, s: st.State, realm: str, action: st.Spy, rng: Rng, events: list[Any]) -> None:
        cost = library().numbers.costs["spy"]
        rs = s.realms[realm]
        rs.treasury -= cost
        rs.spied.append(action.target)
        events.append(st.Spied(realm=realm, target=action.target, cost=cost))

    def _offer(self, s: st.State, realm: str, action: st.OfferTruce, rng: Rng, events: list[Any]) -> None:
        s.realms[realm].offered = True
        s.offer = [realm, action.realm]
        s.phase = "truce"
        events.append(st.TruceOffered(realm=realm, to=action.realm))

    def _answer(self, s: st.State, realm: str, action: st.AnswerTruce, rng: Rng, events: list[Any]) -> None:
        frm, to = s.offer
        if action.accept:
            s.truces.append(st.Truce(realms=[frm, to], until=s.epoch + 1))
        events.append(st.TruceAnswered(realm=frm, to=to, accepted=action.accept))
        s.offer = []
        s.phase = "turns"

    def _battle_step(self, s: st.State, realm: str, action: st.Fields | st.Field | st.Lineup, rng: Rng,
                     events: list[Any]) -> None:
        self.battles.battle_step(s, realm, action, rng, events)

    def _withdraw(self, s: st.State, realm: str, action: st.Withdraw, rng: Rng, events: list[Any]) -> None:
        assert s.retreat is not None
        r = s.retreat
        s.retreat = None
        self.battles.retreat_to(s, r.realm, r.unit, r.region, action.to, events)
        s.phase = "turns"
        self.battles.after_battle(s, rng, events)

    # --- assignment and epochs -----------------------------------------------------------------------

    def _assign(self, s: st.State, realm: str, action: st.Assign, rng: Rng, events: list[Any]) -> None:
        lib = library()
        rs = s.realms[realm]
        if action.holder == "same":
            rs.pending = {h: list(c) for h, c in rs.cards.items()}
        else:
            rs.pending[action.holder] = [lib.fixed(realm, action.holder), *action.cards]
        while True:  # a holder with only one way left to fill takes it at once
            left = self.turns.assignments(s, realm)
            if len(left) != 1:
                break
            rs.pending[left[0].holder] = [lib.fixed(realm, left[0].holder), *left[0].cards]
        if all(h in rs.pending for h in self.turns.holders(rs)):
            rs.cards, rs.pending, rs.assigned = rs.pending, {}, True
            events.append(st.Assigned(realm=realm))
        if all(s.realms[k].assigned for k in s.order):
            self._begin_turns(s, rng, events)

    def _begin_turns(self, s: st.State, rng: Rng, events: list[Any]) -> None:
        s.phase = "turns"
        s.turn = 0
        s.current = ""
        epoch = library().epochs[s.epoch - 1]
        if s.raids and epoch.raid:
            self.battles.raid(s, epoch.raid, rng, events)
            if s.phase == "battle":
                return
        self.turns.start_turn(s, rng, events, fresh=True)
