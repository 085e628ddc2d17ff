"""Autokrator as the platform sees it: ``RULESET`` satisfies ``rules.spec.Ruleset``."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from rules.autokrator import auto
from rules.autokrator.commands import AutokratorCodec
from rules.autokrator.engine import Engine
from rules.autokrator.engine.turns import LEGACY_REALMS, PAIRS
from rules.autokrator.i18n import _
from rules.autokrator.spec import SPEC
from rules.autokrator.state import Assign, AutokratorAction, AutokratorEvent, Bid, Deputy, Lineup, Spy, State
from rules.autokrator.view import AutokratorView, build_view, secret_variants
from rules.core import IllegalAction, NotYourTurn, Rng, SeatInfo, Step
from rules.ruleset import GameRuleset
from rules.spec import ActionMeta

#: At most this many moves in one stand-in by Tabula (a whole turn takes a few dozen).
DEPUTY_LIMIT = 200


class AutokratorRuleset(GameRuleset[State, AutokratorAction, AutokratorView]):
    spec, state_type, action_type = SPEC, State, AutokratorAction

    def __init__(self, engine: Engine | None = None) -> None:
        self.engine: Engine = engine or Engine()
        self.codec: AutokratorCodec = AutokratorCodec()

    def check_table(self, options: dict[str, object], players: int) -> dict[str, object]:
        if players not in (2, 4):
            raise IllegalAction(_("Autokrator is played by 2 or 4 realms. For 3 players (or 1), seat Tabula for "
                                  "each realm nobody plays."))
        mode = options.get("mode") or ("east" if players == 2 else "full")
        if players == 2 and mode not in PAIRS:
            raise IllegalAction(_("Two players fight as Saracens against Byzantium (`mode:east`) or Franks "
                                  "against Moors (`mode:west`)."))
        if players == 4 and mode in PAIRS:
            raise IllegalAction(_("Four realms play `mode:full` (each realm moves all its units on its turn) or "
                                  "`mode:fast` (one unit at a time, in turn)."))
        return {**options, "mode": mode}

    def setup(self, seats: Sequence[SeatInfo], options: Mapping[str, object], seed: int
              ) -> Step[State, AutokratorEvent]:
        checked = self.check_options(options, len(seats))
        if "realms" not in options:
            # A game stored before the lobby chose realms: its seats keep the realms in turn order, as they were
            # dealt then (drawing them now would replay it with other realms and other dice).
            checked = {**checked, "realms": LEGACY_REALMS}
        return self.engine.setup(seats, checked, seed)

    def apply(self, state: State, seat: int, action: AutokratorAction) -> Step[State, AutokratorEvent]:
        if isinstance(action, Deputy):
            return self._deputy(state, seat)
        return self.engine.apply(state, seat, action)

    def _deputy(self, state: State, seat: int) -> Step[State, AutokratorEvent]:
        """After the time limit: Tabula plays ``seat`` for as long as that seat must act now (its dealing, its
        turn, its row in a battle); the player has the realm back the next time it must act."""
        if seat not in self.engine.to_act(state):
            raise NotYourTurn(_("Tabula stands in only for a realm the game is waiting for."))
        epoch = state.epoch
        events: list[AutokratorEvent] = []
        for _turn in range(DEPUTY_LIMIT):
            if state.phase == "over" or seat not in self.engine.to_act(state) or state.epoch != epoch:
                break
            action = auto.policy(self.engine, state, seat, Rng(state.rng ^ state.tick))
            if action is None:
                break
            step = self.engine.apply(state, seat, action)
            state, events = step.state, [*events, *step.events]
        return Step(state=state, events=tuple(events))

    def view(self, state: State, seat: int | None) -> AutokratorView:
        return build_view(state, seat)

    def meta(self, action: AutokratorAction) -> ActionMeta:
        # The cards a unit gets and the row laid in battle are secret; a spy's report is for the spy alone.
        secret = isinstance(action, Assign | Lineup | Spy | Bid | Deputy)
        return ActionMeta(free=False, secret=secret, undoable=False)

    def timeout(self, state: State) -> tuple[int, AutokratorAction] | None:
        acting = sorted(self.engine.to_act(state))
        if not acting:
            return None
        return (acting[0], Deputy())

    def stands_in(self, start: State, now: State, seat: int, played: int) -> bool:
        """At a level that searches, Tabula stands in for a timed-out realm as far as ``Deputy`` does at ``easy``:
        for as long as the realm must act now, within the epoch it timed out in."""
        return (played < DEPUTY_LIMIT and now.phase != "over" and seat in self.engine.to_act(now)
                and now.epoch == start.epoch)

    def policy(self, state: State, seat: int, rng: Rng) -> AutokratorAction | None:
        return auto.policy(self.engine, state, seat, rng)

    def secret_variants(self, state: State, seat: int) -> Iterator[State]:
        return secret_variants(state, seat)
