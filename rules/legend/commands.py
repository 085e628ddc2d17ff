"""Legend of Heroes in words: the codec that turns a command (typed, pressed or picked from a menu) into an
action and back, and the one ``label`` every button, menu entry and autocomplete entry shows.

Commands are what players type today: ``/explore to:D7``, ``/narrate text:…``, ``/attack``, ``/lead hero:rolf``,
``/front hero:rolf``.  Values stay compact (doorway and hero ids), well inside Discord's custom-id limit.
"""

from __future__ import annotations

from rules.core import GameOver, IllegalAction
from rules.legend.board import room_label
from rules.legend.content import Hero, card_index, hero_index, need
from rules.legend.engine.table import STEP_ACTIONS, Table
from rules.legend.i18n import _, _p, class_name, comma, hero_name
from rules.legend.state import (
    Attack,
    Cast,
    Keep,
    Lead,
    LegendAction,
    Move,
    Narrate,
    Order,
    Place,
    Rest,
    Retreat,
    Roll,
    SceneNote,
    State,
)
from rules.spec import Command

#: Verbs of the Expanded Game (and the legacy `order`), refused politely in the other modes.
PARTY_VERBS = ("attack", "cast", "study", "heal", "lead", "keep", "retreat", "order", "front", "back")


class LegendCodec:
    """``parse`` and its inverse ``encode``, and ``label``, for one table (its board)."""

    def __init__(self, rules: Table) -> None:
        self.rules = rules

    # --- parse ----------------------------------------------------------------------------------

    def parse(self, state: State, seat: int, command: Command) -> LegendAction:
        """Turn a slash command, a typed line or a button into an action, or explain what the verb needs."""
        verb, args = command.verb.lower(), command.mapping
        if verb == "explore":
            return self._explore(state, seat, args.get("to") or "")
        if verb == "narrate":
            text, note = args.get("text") or "", args.get("note") or ""
            if note and not text:
                return SceneNote(text=note)
            return Narrate(text=text, note=note, auto=(args.get("auto") or "") in ("1", "true", "yes"))
        if verb == "note":
            return SceneNote(text=args.get("text") or args.get("note") or "")
        if verb in PARTY_VERBS:
            return self._party(state, seat, verb, args)
        raise IllegalAction(_("Legend of Heroes has no `/{verb}`. Use {verbs}.", verb=verb[:20],
                              verbs=self.rules.verb_list(state)))

    def _explore(self, state: State, seat: int, typed: str) -> LegendAction:
        to = typed.strip().upper().split(" ")[0]
        if not to:
            raise IllegalAction(_("Tell me where to go: `/explore to:D7` (the list offers every free doorway)."))
        if not to.startswith("D") and to.isdigit():
            to = "D" + to
        kind = STEP_ACTIONS.get(state.phase)
        if kind is None:
            if state.phase == "over":
                raise GameOver(_("This game has ended. Start a new one with `/game new`."))
            self.rules.check_turn(state, seat)
            raise IllegalAction(_("Wait for the room's story to finish before you move."))
        return kind(to=to)

    def _party(self, state: State, seat: int, verb: str, args: dict[str, str]) -> LegendAction:
        if state.mode != "expanded":
            raise IllegalAction(_("`/{verb}` belongs to the Expanded Game; this is the {mode} game. Use {verbs}.",
                                  verb=verb, mode=_p("choice", state.mode), verbs=self.rules.verb_list(state)))
        if verb in ("study", "heal"):
            return Rest()
        if verb in ("front", "back"):  # `/party`: put one hero at the front (Leader) or at the back
            hero = self.hero_id(state, seat, args.get("hero") or "")
            rest = [h.id for h in state.players[seat].party if h.id != hero]
            return Order(heroes=[*rest, hero] if verb == "front" else [hero, *rest])
        if verb == "order":
            order = [self.hero_id(state, seat, h) for h in (args.get("order") or "").split(",") if h.strip()]
            return Order(heroes=order)
        hero = (args.get("hero") or "").strip()
        if verb == "keep":
            return Keep()
        if verb == "lead" and not hero:  # a choice left out: ask, never act
            raise IllegalAction(self._who_leads(state, seat))
        if verb == "lead":
            return Lead(hero=self.hero_id(state, seat, hero))
        if verb == "cast":
            return Cast()
        return Retreat() if verb == "retreat" else Attack()

    def _who_leads(self, state: State, seat: int) -> str:
        """`/lead` with no hero: which heroes may lead now, and what else the player may do."""
        if not 0 <= seat < len(state.players):
            return _("You are not playing in this game.")
        able = comma(f"**{hero_name(h.name)}**" for h in self.rules.can_lead(state, seat))
        ex = state.exploring
        lead = self.rules.leader(state, seat)
        asked = (ex is not None and ex.decision in ("leader", "fight") and state.phase == "explore"
                 and seat == self.rules.current(state))
        if not asked:
            return _("You choose a Leader when asked: before a Monster or Hazard is drawn, or after it strikes back. "
                     "Outside fights, `/front hero:` (or `/party`) puts a hero in front.")
        if not able:
            if ex is not None and ex.decision == "leader":
                return _("Nobody else can lead: every other hero is wounded. `/keep` and the card is drawn.")
            return _("Nobody else can lead: every other hero is wounded. `/attack` again or `/retreat`.")
        if ex is not None and ex.decision == "leader" and lead:
            return _("Who should lead? `/lead hero:` one of {heroes}, or `/keep` to keep {leader}.", heroes=able,
                     leader=hero_name(lead.name))
        return _("Who should lead? `/lead hero:` one of {heroes}.", heroes=able)

    def hero_id(self, state: State, seat: int, typed: str) -> str:
        """A hero of the seat's party from an id or a name as typed."""
        wanted = typed.strip().lower()
        for h in state.players[seat].party:
            hero = hero_index()[h.id]
            if wanted in (hero.id, hero.name.lower(), hero_name(hero.name).lower()):
                return hero.id
        names = comma(hero_name(hero_index()[h.id].name) for h in state.players[seat].party)
        raise IllegalAction(_("There is no **{typed}** in your party. Your heroes: {heroes}.", typed=typed[:30],
                              heroes=names))

    # --- encode ---------------------------------------------------------------------------------

    def encode(self, state: State, seat: int, action: LegendAction) -> Command:
        """The command a player would type for ``action`` (``parse`` gives the action back)."""
        if isinstance(action, (Place, Move)):
            return Command.of("explore", to=action.to)
        if isinstance(action, Narrate):
            if not (action.text or action.note or action.auto):
                # "Let Tabula read it" is `/narrate text:` with nothing after it: `/narrate` alone shows the card
                return Command("narrate", (("text", ""),))
            return Command.of("narrate", text=action.text, note=action.note, auto="1" if action.auto else None)
        if isinstance(action, SceneNote):
            return Command.of("narrate", note=action.text)
        if isinstance(action, Lead):
            return Command.of("lead", hero=action.hero)
        if isinstance(action, Rest):
            _healed, _healer, studying = self.rules.rest_plan(state, seat)
            return Command("study" if studying else "heal")
        if isinstance(action, Order):
            return self._order(state, seat, action)
        if isinstance(action, Roll):  # from the log of an older game: `/roll` is the platform's own now
            return Command.of("roll", expr=action.expr)
        return Command({Keep: "keep", Attack: "attack", Cast: "cast", Retreat: "retreat"}[type(action)])

    def _order(self, state: State, seat: int, action: Order) -> Command:
        """A line-up as `/front` or `/back` when it moves one hero to an end of the row, else `/order`."""
        wanted = list(action.heroes)
        party = [h.id for h in state.players[seat].party] if seat < len(state.players) else []
        if wanted and sorted(wanted) == sorted(party):
            first, last = wanted[0], wanted[-1]
            if wanted == [h for h in party if h != last] + [last]:
                return Command.of("front", hero=last)
            if wanted == [first] + [h for h in party if h != first]:
                return Command.of("back", hero=first)
        return Command.of("order", order=",".join(wanted))

    # --- label ----------------------------------------------------------------------------------

    def label(self, state: State, seat: int, command: Command, arg: str | None = None) -> str:
        """How a person reads a command on a button or in a menu (with ``arg``: one of its values)."""
        verb = command.verb
        if verb == "explore":
            to = command.get("to")
            return self.doorway_label(state, to) if to in self.rules.board.doorways else to
        if verb in ("lead", "front", "back"):
            return self._hero_command_label(state, seat, command)
        if verb == "keep":
            lead = self.rules.leader(state, seat)
            return _("Keep {hero}", hero=hero_name(lead.name)) if lead else _("Keep nobody")
        if verb == "attack":
            return self._attack_label(state)
        if verb in ("study", "heal"):
            return self._rest_label(state, seat)
        if verb == "narrate":
            if command.get("text"):
                return _("Tell the card")
            return _("Pin a scene note") if command.get("note") else _("Let Tabula read it")
        if verb == "order":
            names = [hero_name(hero_index()[h].name) if h in hero_index() else h
                     for h in command.get("order").split(",")]
            return _("Line up: {heroes}", heroes=comma(names))
        return {"cast": _("Cast your spell"), "retreat": _("Retreat")}.get(verb) or command.typed()

    def _hero_command_label(self, state: State, seat: int, command: Command) -> str:
        """`/lead`, `/front` or `/back` with a hero: the hero, and whether wounded."""
        hero = hero_index().get(command.get("hero"))
        if hero is None:
            return command.get("hero") or command.typed()
        if command.verb == "lead":
            return self.hero_label(state, hero)
        if any(h.id == hero.id and h.wounded for h in state.players[seat].party):
            return _("{hero} the {kind} (wounded)", hero=hero_name(hero.name), kind=class_name(hero.kind))
        return _("{hero} the {kind}", hero=hero_name(hero.name), kind=class_name(hero.kind))

    def _rest_label(self, state: State, seat: int) -> str:
        healed, _healer, studying = self.rules.rest_plan(state, seat)
        if healed and studying:
            return _("Rest a turn (heal and study)")
        if healed:
            return _("Rest a turn (heal)")
        if studying:
            return _("Rest a turn (study)")
        return _("Rest a turn")

    def _attack_label(self, state: State) -> str:
        ex = state.exploring
        if ex is None or ex.decision is None or ex.decision == "strike" or ex.danger is None:
            return _("Attack")
        return _("Face it again") if card_index()[ex.danger].kind == "hazard" else _("Attack again")

    def doorway_label(self, state: State, doorway: str) -> str:
        """A destination as a person reads it on the board, with what the move will do."""
        plan = self.rules.board
        names = self.rules.room_names(state)
        text = plan.label(doorway, names)
        me = state.players[self.rules.current(state)]
        if state.phase == "move" and me.doorway:
            if doorway == me.doorway:
                room = plan.room_of(doorway)
                return _("{doorway} — explore {room} and come back out here", doorway=doorway,
                         room=room_label(room or "", names))
            room = plan.via.get((me.doorway, doorway))
            if room is not None and state.rooms[room]:
                text = _("{doorway} (through {room}: explore it)", doorway=text, room=room_label(room, names))
        return text

    def hero_label(self, state: State, hero: Hero) -> str:
        """"Rolf the Dwarf — needs 9" (against the danger in hand, when there is one)."""
        ex = state.exploring
        if ex is not None and ex.danger is not None:
            return _("{hero} the {kind} — needs {need}", hero=hero_name(hero.name), kind=class_name(hero.kind),
                     need=need(card_index()[ex.danger], hero))
        return _("{hero} the {kind}", hero=hero_name(hero.name), kind=class_name(hero.kind))

    def reorder(self, state: State, seat: int) -> tuple[list[tuple[str, Command]], list[tuple[str, Command]]]:
        """The `/party` panel's two menus — who may go to the front (lead), who to the back — when the seat may
        rearrange its party now (else two empty lists)."""
        if self.rules.reorder_refusal(state, seat) is not None:
            return [], []
        party = state.players[seat].party
        ids = [h.id for h in party]
        front = [Order(heroes=[*(i for i in ids if i != h.id), h.id]) for h in party[:-1] if not h.wounded]
        back = [Order(heroes=[h.id, *(i for i in ids if i != h.id)]) for h in party[1:]]
        wounded = {h.id for h in party if h.wounded}
        if len(wounded) < len(party):  # nobody wounded may end up leading while someone is standing
            back = [o for o in back if o.heroes[-1] not in wounded]

        def named(orders: list[Order]) -> list[tuple[str, Command]]:
            commands = [self.encode(state, seat, o) for o in orders]
            return [(self.label(state, seat, c), c) for c in commands]

        return named(front), named(back)
