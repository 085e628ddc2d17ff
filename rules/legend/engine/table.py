"""Legend of Heroes: the table as the rules read it — whose turn it is, who narrates, where a fighter may go,
who leads a party — and how a turn passes to the next player.

Everything here reads a ``State`` (or, for the turn flow, changes the copy being built inside ``apply``); the
explorer of rooms (``explore.py``) and the Expanded Game's party (``party.py``) are each given the table.
"""

from __future__ import annotations

from typing import Any

from rules.core import IllegalAction, NotYourTurn, Outcome, Rng, draw
from rules.legend.board import Board, board
from rules.legend.content import Hero, card_index, hero_index
from rules.legend.i18n import _, kind_name
from rules.legend.spec import verbs_for
from rules.legend.state import (
    GameEnded,
    Move,
    PartyRecovered,
    Place,
    Recovered,
    Reshuffled,
    Skipped,
    State,
    TurnBegan,
)

#: What `/explore to:` means in each phase of a turn.
STEP_ACTIONS: dict[str, type[Place] | type[Move]] = {"place": Place, "move": Move}


class Table:
    """The board, the dice and the questions every part of the rules asks about a state."""

    def __init__(self, plan: Board | None = None, *, dice: type[Rng] = Rng) -> None:
        self.board = plan or board()
        self.dice = dice  # tests pass a scripted generator to replay the book's examples roll by roll

    # --- who acts -----------------------------------------------------------------------------

    def current(self, state: State) -> int:
        return state.order[state.turn]

    def narrator(self, state: State) -> int | None:
        """The player on the explorer's right (the one before them in turn order), in players mode."""
        if state.narration != "players" or len(state.order) < 2:
            return None
        return state.order[(state.turn - 1) % len(state.order)]

    def to_act(self, state: State) -> frozenset[int]:
        if state.phase == "over":
            return frozenset()
        if state.phase == "explore":
            if state.exploring is not None and state.exploring.decision is not None:
                return frozenset({self.current(state)})
            narrator = self.narrator(state)
            return frozenset() if narrator is None else frozenset({narrator})
        return frozenset({self.current(state)})

    # --- where a fighter may go ---------------------------------------------------------------

    def occupied(self, state: State) -> set[str]:
        return {p.doorway for p in state.players if p.doorway}

    def destinations(self, state: State, seat: int) -> list[str]:
        """Doorways the seat may choose now (an entrance, or a move), in board order."""
        if state.phase == "over" or seat != self.current(state):
            return []
        taken = self.occupied(state)
        me = state.players[seat]
        if state.phase == "place":
            return [d for d in self.board.entrances if d not in taken]
        if state.phase == "move" and me.doorway:
            linked = [d for d in self.board.links[me.doorway] if d not in taken]
            room = self.board.room_of(me.doorway)
            if room is not None and state.rooms[room]:  # explore the room and come back out by this doorway
                linked.insert(0, me.doorway)
            return linked
        return []

    def room_names(self, state: State) -> dict[str, str]:
        index = card_index()
        return {room: index[cid].title for room, cid in state.revealed.items()}

    def gold(self, s: State, seat: int) -> int:
        index = card_index()
        return sum(index[c].gold for c in s.players[seat].treasure)

    # --- the Party (Expanded Game) -------------------------------------------------------------

    def expanded(self, state: State) -> bool:
        return state.mode == "expanded"

    def leader(self, state: State, seat: int) -> Hero | None:
        """The Hero at the front (right-hand end) of the Party, if he is still standing."""
        party = state.players[seat].party
        if not party or party[-1].wounded:
            return None
        return hero_index()[party[-1].id]

    def can_cast(self, state: State, seat: int) -> bool:
        """A Magic User at the front, unwounded, holding a Spell, facing a Monster."""
        ex = state.exploring
        lead = self.leader(state, seat)
        return (lead is not None and lead.kind == "magic" and state.players[seat].spell is not None
                and ex is not None and ex.danger is not None and card_index()[ex.danger].kind == "monster")

    def can_lead(self, state: State, seat: int) -> list[Hero]:
        """Heroes who may take the lead now: every unwounded one but the Leader."""
        party = state.players[seat].party
        return [hero_index()[h.id] for h in party[:-1] if not h.wounded]

    def rest_plan(self, state: State, seat: int) -> tuple[list[str], str | None, str | None]:
        """What a rest would do: (heroes healed, the healer, the Magic User who studies)."""
        p = state.players[seat]
        index = hero_index()
        cleric = next((h for h in p.party if index[h.id].kind == "cleric"), None)
        healed: list[str] = []
        healer = None
        if cleric is not None and cleric.wounded:
            healed, healer = [cleric.id], cleric.id  # a wounded Cleric can tend only his own wounds
        elif cleric is not None:
            healed = [h.id for h in p.party if h.wounded]
            healer = cleric.id if healed else None
        mage = next((h for h in p.party if index[h.id].kind == "magic"), None)
        studying = mage.id if mage is not None and p.spell is None and state.spell_pile else None
        return healed, healer, studying

    def reorder_refusal(self, s: State, seat: int) -> str | None:
        """Why the seat may not rearrange its party now (None: it may): only outside its own fights."""
        if s.phase == "over" or not self.expanded(s):
            return _("Parties can be rearranged only during an Expanded Game.")
        if s.exploring is not None and self.current(s) == seat:
            return _("Your party is in a room: change the Leader with the buttons when you are asked. The whole "
                     "line-up can be changed outside fights.")
        if s.phase == "explore" and self.narrator(s) == seat:
            return _("You are narrating this room; rearrange your party once the story is told.")
        return None

    # --- refusals that say what is allowed ------------------------------------------------------

    def check_turn(self, s: State, seat: int) -> None:
        if s.phase == "explore":
            ex = s.exploring
            if ex is not None and ex.decision is not None:
                if seat == self.current(s):
                    raise IllegalAction(self.decision_hint(s, seat))
                raise NotYourTurn(_("{player} is deciding what their party does next.",
                                     player=s.players[self.current(s)].name))
            narrator = self.narrator(s)
            who = s.players[narrator].name if narrator is not None else "Tabula"
            raise NotYourTurn(_("The room is being explored — {player} is narrating. Wait for the story to finish.",
                                player=who))
        if seat != self.current(s):
            raise NotYourTurn(_("It is {player}'s turn, not yours.", player=s.players[self.current(s)].name))

    def decision_hint(self, s: State, seat: int) -> str:
        ex = s.exploring
        assert ex is not None
        if ex.decision == "leader":
            return _("A **{kind}** card is coming: keep your Leader or pick a new one from the menu (typed: "
                     "`/keep`, `/lead hero:`). Then the card is drawn.", kind=kind_name(ex.coming))
        if ex.decision == "strike":
            return _("Your Magic User leads with a spell in hand: `/attack` or `/cast`.")
        if self.can_cast(s, seat):
            return _("Finish the fight first: `/attack`, `/cast`, a new Leader from the menu (`/lead hero:`), or "
                     "`/retreat`.")
        return _("Finish the fight first: `/attack`, a new Leader from the menu (`/lead hero:`), or `/retreat`.")

    def phase_hint(self, s: State, seat: int) -> str:
        if self.expanded(s) and s.phase == "move":
            return _("Move with `/explore to:` to a doorway linked by one corridor or one room. Or rest a turn with "
                     "`/study` or `/heal`.")
        if s.phase == "place":
            return _("First choose your starting doorway beside an entrance with `/explore to:`.")
        if s.phase == "move":
            return _("Move with `/explore to:` to a doorway linked by one corridor or one room.")
        return _("That is not something you can do now.")

    def verb_list(self, s: State) -> str:
        """The verbs of this game's mode, as the command list says them (for refusals)."""
        return verbs_for(s.mode == "expanded")

    # --- piles --------------------------------------------------------------------------------

    def discard(self, s: State, used: list[str]) -> None:
        index = card_index()
        for cid in used:
            kind = index[cid].kind
            if kind != "treasure":
                s.discards.setdefault(kind, []).append(cid)

    def draw(self, s: State, kind: str, rng: Rng, events: list[Any]) -> str | None:
        card, reshuffled = draw(s.piles, s.discards, kind, rng)
        if reshuffled:
            events.append(Reshuffled(pile=kind, cards=reshuffled))
        return card

    # --- turns --------------------------------------------------------------------------------

    def end_turn(self, s: State, events: list[Any]) -> None:
        if s.phase == "over":
            return
        n = len(s.order)
        if s.phase == "place":
            s.turn += 1
            if s.turn >= n:  # everyone is in: the first player makes the first move
                s.turn = 0
                s.phase = "move"
        else:
            s.turn = (s.turn + 1) % n
            s.phase = "move"
        s.turn_no += 1
        seat = self.current(s)
        events.append(TurnBegan(seat=seat, turn_no=s.turn_no))
        me = s.players[seat]
        if me.wounded:  # "at the start of your next turn your Fighter has recovered"
            me.wounded = False
            events.append(Recovered(seat=seat))
        if me.overwhelmed:  # the whole party was wounded: this turn is spent recovering
            me.overwhelmed = False
            healed = [h.id for h in me.party if h.wounded]
            for h in me.party:
                h.wounded = False
            events.append(PartyRecovered(seat=seat, healed=healed))
            self.end_turn(s, events)
            return
        if s.phase == "move" and not self.destinations(s, seat):
            s.skips_in_row += 1
            events.append(Skipped(seat=seat, reason="every doorway within reach is taken"))
            if s.skips_in_row >= n:
                self.finish(s, events, "No fighter can move any more.")
                return
            self.end_turn(s, events)
        else:
            s.skips_in_row = 0

    def finish(self, s: State, events: list[Any], reason: str) -> None:
        s.phase = "over"
        s.exploring = None
        gold = {i: self.gold(s, i) for i in range(len(s.players))}
        best = max(gold.values())
        winners = [i for i, g in gold.items() if g == best]
        events.append(GameEnded(winners=winners, gold=gold, reason=reason))

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        gold = {i: self.gold(state, i) for i in range(len(state.players))}
        best = max(gold.values())
        winners = tuple(i for i, g in gold.items() if g == best)
        names = " and ".join(state.players[i].name for i in winners)
        if len(state.players) == 1:  # solo, starter or Expanded: there is nobody to beat but last time
            summary = f"{names} leaves the dungeon with {best} gold pieces."
        elif len(winners) > 1:
            summary = f"{names} share the victory with {best} gold pieces each."
        else:
            summary = f"{names} wins with {best} gold pieces."
        return Outcome(winners=winners, scores=gold, summary=summary)
