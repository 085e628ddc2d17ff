"""Legend of Heroes: a turn's move and the exploration of a room — the Narrator reads the cards one by one,
following the red arrows; treasure is kept, and in the starter and solo games monsters and hazards are fought
with d20 rolls against the numbers on the cards.  Scene notes are pinned to the room just explored.

The Expanded Game's party (``party.py``) is handed a danger there, met by the Leader (``meet_danger``), and the
card about to be drawn is announced first so that the Leader can change.
"""

from __future__ import annotations

from typing import Any, Protocol

from rules.core import IllegalAction, NotYourTurn, Rng
from rules.legend.board import room_label
from rules.legend.content import ActionCard, card_index, fighter_index
from rules.legend.engine.table import STEP_ACTIONS, Table
from rules.legend.i18n import _, comma
from rules.legend.spec import NARRATION_MAX, NOTE_MAX
from rules.legend.state import (
    SOLO_WOUND_LIMIT,
    AwaitNarration,
    CardRead,
    DangerComing,
    Entered,
    Exited,
    Exploration,
    FightRoll,
    Move,
    Moved,
    Narrate,
    NoteAdded,
    NoteRead,
    Overcame,
    Place,
    Placed,
    RoomExplored,
    SceneNote,
    State,
    TreasureTaken,
    Wounded,
)
from rules.legend.state import Note as SceneNoteEntry


class DangerMet(Protocol):
    """Who meets a danger in the Expanded Game (the party, ``party.Party``)."""

    def meet_danger(self, s: State, seat: int, card: ActionCard, rng: Rng, events: list[Any]) -> None: ...


class Explorer:
    """Moves, rooms, cards and the starter game's fights, at a table.  A danger in the Expanded Game is its
    party's to meet: ``party`` is given once the party exists (the two hand each other the turn: a room's
    danger goes to the party, and a fight won goes on with the room)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.party: DangerMet | None = None

    def _meet_danger(self, s: State, seat: int, card: ActionCard, rng: Rng, events: list[Any]) -> None:
        """A Monster or Hazard turned up: the starter game fights it out at once, the Expanded Game's party
        answers it (``party.Party.meet_danger``)."""
        if self.table.expanded(s):
            assert self.party is not None
            self.party.meet_danger(s, seat, card, rng, events)
            return
        if self._face_danger(s, seat, card, rng, events):
            self.follow_arrow(s, card, rng, events)

    def note(self, s: State, seat: int, action: SceneNote, events: list[Any]) -> None:
        scene = s.scene
        text = " ".join(action.text.split())
        if not text:
            raise IllegalAction(_("Write the note: `/narrate note:` followed by a line about the room."))
        if len(text) > NOTE_MAX:
            raise IllegalAction(_("Keep a scene note under {limit} characters ({n} now).", limit=NOTE_MAX, n=len(text)))
        if scene is None:
            raise IllegalAction(_("No room has been entered yet: a scene note goes on the room most recently "
                                  "explored."))
        writer = scene["narrator"] if scene.get("narrator") is not None else scene["explorer"]
        if seat != writer:
            room = room_label(scene["room"], self.table.room_names(s))
            if scene.get("narrator") is not None:
                raise NotYourTurn(_("Only its Narrator, {player}, can pin a note to {room}.",
                                    player=s.players[writer].name, room=room))
            raise NotYourTurn(_("Only the player who explored it, {player}, can pin a note to {room}.",
                                player=s.players[writer].name, room=room))
        s.notes[scene["room"]] = SceneNoteEntry(text=text, by=seat)
        events.append(NoteAdded(seat=seat, room=scene["room"], text=text))

    def go(self, s: State, seat: int, action: Place | Move, rng: Rng, events: list[Any]) -> None:
        self.table.check_turn(s, seat)
        expected = STEP_ACTIONS[s.phase]
        if not isinstance(action, expected):
            raise IllegalAction(self.table.phase_hint(s, seat))
        allowed = self.table.destinations(s, seat)
        if action.to not in allowed:
            raise IllegalAction(self._refusal(s, seat, action.to, allowed))
        me = s.players[seat]
        s.last_move = None
        if isinstance(action, Place):
            me.doorway = action.to
            events.append(Placed(seat=seat, doorway=action.to))
            self.table.end_turn(s, events)
        else:
            assert me.doorway is not None
            frm = me.doorway
            through = self.table.board.room_of(frm) if action.to == frm else self.table.board.via[(frm, action.to)]
            events.append(Moved(seat=seat, frm=frm, to=action.to, via_room=through))
            if through is not None and s.rooms[through]:
                room = through
                me.doorway = None  # inside the room now
                s.exploring = Exploration(room=room, came_from=frm, heading=action.to)
                s.phase = "explore"
                left = s.rooms[room][0]
                resumed = card_index()[left].kind != "room"
                events.append(Entered(seat=seat, room=room, came_from=frm, resumed=resumed))
                s.scene = {"room": room, "narrator": self.table.narrator(s), "explorer": seat}
                if room in s.notes:
                    note = s.notes[room]
                    events.append(NoteRead(room=room, text=note.text, by=note.by))
                s.exploring.pending = s.rooms[room].pop(0)
                s.exploring.pending_from_room = True
                if resumed and self.table.expanded(s):  # the danger left here: choose who faces it first
                    self.announce(s, seat, card_index()[left].kind, events, waiting=left)
                    return
                self.run(s, rng, events)
            else:
                me.doorway = action.to
                s.last_move = {"seat": seat, "from": frm, "to": action.to}
                if through is not None and through in s.notes:  # walking through a room told of before
                    note = s.notes[through]
                    events.append(NoteRead(room=through, text=note.text, by=note.by))
                self.table.end_turn(s, events)

    def _refusal(self, s: State, seat: int, wanted: str, allowed: list[str]) -> str:
        listed = comma(allowed[:12]) + (" …" if len(allowed) > 12 else "")
        taken = self.table.occupied(s)
        if wanted not in self.table.board.doorways:
            why = _("There is no doorway called **{doorway}** on the board.", doorway=wanted[:20])
        elif wanted in taken and wanted != s.players[seat].doorway:
            why = _("{doorway} is taken by another fighter.", doorway=wanted)
        elif s.phase == "place":
            why = _("{doorway} is not beside a free dungeon entrance.", doorway=wanted)
        else:
            why = _("{doorway} is not linked to your doorway by a single corridor or room.", doorway=wanted)
        return _("{why} You can go to: {doorways}.", why=why, doorways=listed) if allowed else why


    def narrate(self, s: State, seat: int, action: Narrate, rng: Rng, events: list[Any]) -> None:
        if s.phase != "explore" or s.exploring is None or s.exploring.pending is None:
            raise IllegalAction(_("There is no card to narrate right now. Narration happens while a room is explored."))
        if s.exploring.decision is not None:  # the explorer is choosing a Leader: the card waits for that
            self.table.check_turn(s, seat)
        narrator = self.table.narrator(s)
        if narrator is None:
            raise IllegalAction(_("Tabula is narrating this game, so there is nothing for you to read out."))
        if seat != narrator:
            raise NotYourTurn(_("{player} is the Narrator for this room, not you.", player=s.players[narrator].name))
        if action.note:  # `/narrate text: note:` pins the note first, then tells the card
            self.note(s, seat, SceneNote(text=action.note), events)
        words = action.text.strip()
        if len(words) > NARRATION_MAX:
            raise IllegalAction(_("Keep the telling under {limit} characters ({n} now).", limit=NARRATION_MAX,
                                  n=len(words)))
        self._read_pending(s, rng, events, narrator=None if action.auto or not words else narrator,
                           words=words, auto=action.auto)
        self.run(s, rng, events)

    # --- exploration --------------------------------------------------------------------------

    def run(self, s: State, rng: Rng, events: list[Any]) -> None:
        """Read cards until the room ends, a fighter is wounded, or a human Narrator must speak."""
        while (s.phase == "explore" and s.exploring is not None and s.exploring.pending is not None
               and s.exploring.decision is None):
            narrator = self.table.narrator(s)
            if narrator is not None:
                kind = card_index()[s.exploring.pending].kind
                events.append(AwaitNarration(narrator=narrator, explorer=self.table.current(s), kind=kind))
                return
            self._read_pending(s, rng, events, narrator=None, words="", auto=False)

    def _read_pending(self, s: State, rng: Rng, events: list[Any], *, narrator: int | None, words: str,
                      auto: bool) -> None:
        ex = s.exploring
        assert ex is not None and ex.pending is not None
        seat = self.table.current(s)
        card = card_index()[ex.pending]
        again = ex.pending_from_room and card.kind in ("monster", "hazard")
        ex.pending = None
        ex.pending_from_room = False
        events.append(CardRead(seat=seat, card=card.id, narrator=narrator, words=words, auto=auto, again=again))
        me = s.players[seat]
        if card.kind == "room":
            s.revealed[ex.room] = card.id
            ex.used.append(card.id)
        elif card.kind == "feature":
            ex.used.append(card.id)
        elif card.kind == "treasure":
            me.treasure.append(card.id)
            events.append(TreasureTaken(seat=seat, card=card.id, gold=card.gold))
        else:  # a Monster or a Hazard
            self._meet_danger(s, seat, card, rng, events)
            return
        self.follow_arrow(s, card, rng, events)

    def follow_arrow(self, s: State, card: ActionCard, rng: Rng, events: list[Any]) -> None:
        """End of Room, or the next card: in the Expanded Game a Monster or Hazard is announced first."""
        ex = s.exploring
        assert ex is not None
        if card.next == "end":
            self.room_done(s, events)
        elif self.table.expanded(s) and card.next in ("monster", "hazard"):
            self.announce(s, self.table.current(s), card.next, events)
        else:
            ex.pending = self.table.draw(s, card.next, rng, events)
            if ex.pending is None:  # a pile ran dry even after reshuffling: the room has nothing more
                self.room_done(s, events)

    def announce(self, s: State, seat: int, kind: str, events: list[Any], *, waiting: str = "") -> None:
        """The Narrator says what kind of card is coming (or which danger waits on the room); the player may
        change Leader before it is turned up."""
        ex = s.exploring
        assert ex is not None
        lead = self.table.leader(s, seat)
        assert lead is not None
        ex.decision = "leader"
        ex.coming = kind
        events.append(DangerComing(seat=seat, kind=kind, leader=lead.id, waiting=waiting))

    def _face_danger(self, s: State, seat: int, card: ActionCard, rng: Rng, events: list[Any]) -> bool:
        """Fight the Monster or face the Hazard.  True when overcome; False when the fighter is wounded."""
        me = s.players[seat]
        fighter = fighter_index()[me.fighter]
        need = card.needs[fighter.dot]
        if card.kind == "hazard":
            roll = rng.die(20)
            events.append(FightRoll(seat=seat, card=card.id, who="fighter", roll=roll, need=need, success=roll >= need))
            if roll < need:
                self._wound(s, seat, card, events)
                return False
        else:
            assert card.dot is not None
            strike = fighter.defence[card.dot]
            while True:
                roll = rng.die(20)
                events.append(FightRoll(seat=seat, card=card.id, who="fighter", roll=roll, need=need,
                                        success=roll >= need))
                if roll >= need:
                    break
                back = rng.die(20)
                events.append(FightRoll(seat=seat, card=card.id, who="monster", roll=back, need=strike,
                                        success=back >= strike))
                if back >= strike:
                    self._wound(s, seat, card, events)
                    return False
        assert s.exploring is not None
        s.exploring.used.append(card.id)
        events.append(Overcame(seat=seat, card=card.id))
        return True

    def _wound(self, s: State, seat: int, card: ActionCard, events: list[Any]) -> None:
        ex = s.exploring
        assert ex is not None
        me = s.players[seat]
        me.wounded = True
        me.wounds += 1
        me.doorway = ex.came_from
        s.rooms[ex.room] = [card.id]  # face down on the room, waiting for the next fighter
        self.table.discard(s, ex.used)
        events.append(Wounded(seat=seat, card=card.id, room=ex.room, back_to=ex.came_from, wounds=me.wounds))
        s.exploring = None
        if s.mode == "solo" and me.wounds >= SOLO_WOUND_LIMIT:
            self.table.finish(s, events,
                              f"{me.name}'s fighter has taken {SOLO_WOUND_LIMIT} wounds and leaves the dungeon.")
            return
        s.phase = "move"
        self.table.end_turn(s, events)

    def room_done(self, s: State, events: list[Any]) -> None:
        ex = s.exploring
        assert ex is not None
        seat = self.table.current(s)
        s.rooms[ex.room] = []
        self.table.discard(s, ex.used)
        name = card_index()[s.revealed[ex.room]].title if ex.room in s.revealed else ex.room
        events.append(RoomExplored(seat=seat, room=ex.room, name=name))
        # The fighter leaves by the doorway the player chose when walking in (the book's "your choice", made
        # up front so that a game by message needs no extra question; the entry doorway was on offer too).
        # Nobody else moves during a turn, so it is still free.
        s.players[seat].doorway = ex.heading
        s.exploring = None
        if all(not stack for stack in s.rooms.values()):
            self.table.finish(s, events, "Every room of the Dungeons of Legend has been explored.")
            return
        s.last_move = {"seat": seat, "from": ex.came_from, "to": ex.heading}
        events.append(Exited(seat=seat, room=ex.room, to=ex.heading))
        s.phase = "move"
        self.table.end_turn(s, events)

