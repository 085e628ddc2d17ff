"""Legend of Heroes, starter game and solo game, as a pure ruleset.

The turn: a fighter moves from one red doorway square to another linked by one corridor or one room.  A
move through a room that still holds Action cards stops there to explore it: the Narrator reads the cards
one by one, following the red arrows, and monsters and hazards are fought with d20 rolls against the
numbers on the cards.  House rules (where the book is silent) are listed in ``rules/legend/RULES.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import msgspec

from rules.core import (
    GameOver,
    IllegalAction,
    NotYourTurn,
    Outcome,
    Rng,
    SeatInfo,
    Step,
    seed_state,
)
from rules.legend.board import Board, board, room_label
from rules.legend.content import ActionCard, card_index, cards, fighter_index, fighters
from rules.legend.state import (
    COLOURS,
    SOLO_WOUND_LIMIT,
    AwaitNarration,
    CardRead,
    Dealt,
    Entered,
    Exited,
    Exploration,
    FightRoll,
    GameEnded,
    LegendAction,
    LegendEvent,
    Move,
    Moved,
    Narrate,
    Overcame,
    Place,
    Placed,
    Player,
    Recovered,
    Reshuffled,
    RollOff,
    RoomExplored,
    RoomsDealt,
    Shuffled,
    Skipped,
    State,
    TreasureTaken,
    TurnBegan,
    Wounded,
)

PILES = ("feature", "monster", "hazard", "treasure")
#: What `/explore to:` means in each phase of a turn.
STEP_ACTIONS: dict[str, type[Place] | type[Move]] = {"place": Place, "move": Move}
NARRATION_MAX = 1500  # characters of a Narrator's telling

_state_enc = msgspec.json.Encoder()
_state_dec = msgspec.json.Decoder(State)


def _copy(state: State) -> State:
    return _state_dec.decode(_state_enc.encode(state))


class LegendOfHeroes:
    """The starter game (2–5 fighters) and the solo game (1 fighter, eight wounds)."""

    key: ClassVar[str] = "legend"
    title: ClassVar[str] = "Legend of Heroes"
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 5
    state_type: ClassVar[type] = State
    action_type: ClassVar[Any] = LegendAction
    event_type: ClassVar[Any] = LegendEvent

    def __init__(self, plan: Board | None = None, *, dice: type[Rng] = Rng) -> None:
        self.board = plan or board()
        self.dice = dice  # tests pass a scripted generator to replay the book's examples roll by roll

    # --- setup --------------------------------------------------------------------------------

    def check_options(self, options: dict[str, Any], players: int) -> dict[str, Any]:
        """Normalise the lobby options and refuse a table that does not fit them."""
        mode = options.get("mode") or ("solo" if players == 1 else "starter")
        if mode not in ("starter", "solo"):
            raise IllegalAction("Legend of Heroes has two modes here: **starter** (2–5 players) or **solo**.")
        narration = options.get("narration") or "bot"
        if narration not in ("bot", "players"):
            raise IllegalAction("Narration can be **bot** (Tabula reads the cards) or **players**.")
        if mode == "solo" and players != 1:
            raise IllegalAction(f"The solo game is for one player; {players} are seated. Start a starter game.")
        if mode == "starter" and not 2 <= players <= 5:
            raise IllegalAction(
                f"The starter game needs 2 to 5 players ({players} seated). One player can play solo."
            )
        if mode == "solo":
            narration = "bot"  # nobody sits to the right of a lone fighter
        return {**options, "mode": mode, "narration": narration}

    def setup(self, seats: Sequence[SeatInfo], options: dict[str, Any], seed: int) -> Step:
        opts = self.check_options(options, len(seats))
        rng = self.dice(seed_state(seed))
        events: list[Any] = []
        n = len(seats)

        # The d20 roll-off: highest goes first; a tie for the highest rolls again among the tied.
        rounds: list[dict[int, int]] = []
        contenders = list(range(n))
        while n > 1:
            rolled = {s: rng.die(20) for s in contenders}
            rounds.append(rolled)
            best = max(rolled.values())
            contenders = [s for s, r in rolled.items() if r == best]
            if len(contenders) == 1:
                break
        first = contenders[0]
        order = [(first + i) % n for i in range(n)]
        if rounds:
            events.append(RollOff(rounds=rounds, first=first))

        dealt = rng.shuffle([f.id for f in fighters()])[:n]
        players = [
            Player(name=seat.name, fighter=dealt[i], colour=COLOURS[i][0], letter=COLOURS[i][1])
            for i, seat in enumerate(seats)
        ]
        events.append(Dealt(fighters=dict(enumerate(dealt)), colours={i: p.colour for i, p in enumerate(players)},
                            order=order))

        deck = cards()
        room_cards = rng.shuffle([c.id for c in deck.room])
        events.append(Shuffled(pile="room", cards=len(room_cards)))
        rooms = {room: [room_cards[i]] for i, room in enumerate(self.board.room_ids)}
        left_over = room_cards[len(rooms):]
        events.append(RoomsDealt(rooms=len(rooms), left_over=len(left_over)))
        piles: dict[str, list[str]] = {}
        for kind in PILES:
            piles[kind] = rng.shuffle([c.id for c in getattr(deck, kind)])
            events.append(Shuffled(pile=kind, cards=len(piles[kind])))

        state = State(
            mode=opts["mode"], narration=opts["narration"], rng=0, players=players, order=order,
            rooms=rooms, piles=piles, discards={"room": left_over}, phase="place",
        )
        events.append(TurnBegan(seat=order[0], turn_no=1))
        state.rng = rng.state
        return Step(state=state, events=tuple(events))

    # --- who acts, what is legal ---------------------------------------------------------------

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
            narrator = self.narrator(state)
            return frozenset() if narrator is None else frozenset({narrator})
        return frozenset({self.current(state)})

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

    def legal(self, state: State, seat: int) -> list[LegendAction]:
        if state.phase == "explore":
            return [Narrate()] if seat == self.narrator(state) else []
        kind = STEP_ACTIONS.get(state.phase)
        if kind is None:
            return []
        return [kind(to=d) for d in self.destinations(state, seat)]

    # --- applying an action -------------------------------------------------------------------

    def apply(self, state: State, seat: int, action: LegendAction) -> Step:
        if state.phase == "over":
            raise GameOver("This game has ended. Start a new one with `/game new`.")
        s = _copy(state)
        rng = self.dice(s.rng)
        events: list[Any] = []
        if isinstance(action, Narrate):
            self._narrate(s, seat, action, rng, events)
        else:
            self._go(s, seat, action, rng, events)
        s.rng = rng.state
        return Step(state=s, events=tuple(events))

    def _check_turn(self, s: State, seat: int) -> None:
        if s.phase == "explore":
            narrator = self.narrator(s)
            who = s.players[narrator].name if narrator is not None else "Tabula"
            raise NotYourTurn(f"The room is being explored — {who} is narrating. Wait for the story to finish.")
        if seat != self.current(s):
            raise NotYourTurn(f"It is {s.players[self.current(s)].name}'s turn, not yours.")

    def _go(self, s: State, seat: int, action: Place | Move, rng: Rng, events: list[Any]) -> None:
        self._check_turn(s, seat)
        expected = STEP_ACTIONS[s.phase]
        if not isinstance(action, expected):
            raise IllegalAction(self._phase_hint(s, seat))
        allowed = self.destinations(s, seat)
        if action.to not in allowed:
            raise IllegalAction(self._refusal(s, seat, action.to, allowed))
        me = s.players[seat]
        s.last_move = None
        if isinstance(action, Place):
            me.doorway = action.to
            events.append(Placed(seat=seat, doorway=action.to))
            self._end_turn(s, events)
        else:
            assert me.doorway is not None
            frm = me.doorway
            through = self.board.room_of(frm) if action.to == frm else self.board.via[(frm, action.to)]
            events.append(Moved(seat=seat, frm=frm, to=action.to, via_room=through))
            if through is not None and s.rooms[through]:
                room = through
                me.doorway = None  # inside the room now
                s.exploring = Exploration(room=room, came_from=frm, heading=action.to)
                s.phase = "explore"
                left = s.rooms[room][0]
                resumed = card_index()[left].kind != "room"
                events.append(Entered(seat=seat, room=room, came_from=frm, resumed=resumed))
                s.exploring.pending = s.rooms[room].pop(0)
                s.exploring.pending_from_room = True
                self._run_exploration(s, rng, events)
            else:
                me.doorway = action.to
                s.last_move = {"seat": seat, "from": frm, "to": action.to}
                self._end_turn(s, events)

    def _narrate(self, s: State, seat: int, action: Narrate, rng: Rng, events: list[Any]) -> None:
        if s.phase != "explore" or s.exploring is None or s.exploring.pending is None:
            raise IllegalAction("There is no card to narrate right now. Narration happens while a room is explored.")
        narrator = self.narrator(s)
        if narrator is None:
            raise IllegalAction("Tabula is narrating this game, so there is nothing for you to read out.")
        if seat != narrator:
            raise NotYourTurn(f"{s.players[narrator].name} is the Narrator for this room, not you.")
        words = action.text.strip()
        if len(words) > NARRATION_MAX:
            raise IllegalAction(f"Keep the telling under {NARRATION_MAX} characters ({len(words)} now).")
        self._read_pending(s, rng, events, narrator=None if action.auto or not words else narrator,
                           words=words, auto=action.auto)
        self._run_exploration(s, rng, events)

    # --- exploration --------------------------------------------------------------------------

    def _run_exploration(self, s: State, rng: Rng, events: list[Any]) -> None:
        """Read cards until the room ends, a fighter is wounded, or a human Narrator must speak."""
        while s.phase == "explore" and s.exploring is not None and s.exploring.pending is not None:
            narrator = self.narrator(s)
            if narrator is not None:
                kind = card_index()[s.exploring.pending].kind
                events.append(AwaitNarration(narrator=narrator, explorer=self.current(s), kind=kind))
                return
            self._read_pending(s, rng, events, narrator=None, words="", auto=False)

    def _read_pending(self, s: State, rng: Rng, events: list[Any], *, narrator: int | None, words: str,
                      auto: bool) -> None:
        ex = s.exploring
        assert ex is not None and ex.pending is not None
        seat = self.current(s)
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
        elif not self._face_danger(s, seat, card, rng, events):
            return
        if card.next == "end":
            self._room_done(s, events)
        else:
            ex.pending = self._draw(s, card.next, rng, events)
            if ex.pending is None:  # a pile ran dry even after reshuffling: the room has nothing more
                self._room_done(s, events)

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
        self._discard(s, ex.used)
        events.append(Wounded(seat=seat, card=card.id, room=ex.room, back_to=ex.came_from, wounds=me.wounds))
        s.exploring = None
        if s.mode == "solo" and me.wounds >= SOLO_WOUND_LIMIT:
            self._finish(s, events, f"{me.name}'s fighter has taken {SOLO_WOUND_LIMIT} wounds and leaves the dungeon.")
            return
        s.phase = "move"
        self._end_turn(s, events)

    def _room_done(self, s: State, events: list[Any]) -> None:
        ex = s.exploring
        assert ex is not None
        seat = self.current(s)
        s.rooms[ex.room] = []
        self._discard(s, ex.used)
        name = card_index()[s.revealed[ex.room]].title if ex.room in s.revealed else ex.room
        events.append(RoomExplored(seat=seat, room=ex.room, name=name))
        # The fighter leaves by the doorway the player chose when walking in (the book's "your choice", made
        # up front so that a game by message needs no extra question; the entry doorway was on offer too).
        # Nobody else moves during a turn, so it is still free.
        s.players[seat].doorway = ex.heading
        s.exploring = None
        if all(not stack for stack in s.rooms.values()):
            self._finish(s, events, "Every room of the Dungeons of Legend has been explored.")
            return
        s.last_move = {"seat": seat, "from": ex.came_from, "to": ex.heading}
        events.append(Exited(seat=seat, room=ex.room, to=ex.heading))
        s.phase = "move"
        self._end_turn(s, events)

    def _discard(self, s: State, used: list[str]) -> None:
        index = card_index()
        for cid in used:
            kind = index[cid].kind
            if kind != "treasure":
                s.discards.setdefault(kind, []).append(cid)

    def _draw(self, s: State, kind: str, rng: Rng, events: list[Any]) -> str | None:
        pile = s.piles[kind]
        if not pile:
            back = s.discards.get(kind, [])
            if not back:
                return None
            s.piles[kind] = pile = rng.shuffle(back)
            s.discards[kind] = []
            events.append(Reshuffled(pile=kind, cards=len(pile)))
        return pile.pop(0)

    # --- turns --------------------------------------------------------------------------------

    def _end_turn(self, s: State, events: list[Any]) -> None:
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
        if s.phase == "move" and not self.destinations(s, seat):
            s.skips_in_row += 1
            events.append(Skipped(seat=seat, reason="every doorway within reach is taken"))
            if s.skips_in_row >= n:
                self._finish(s, events, "No fighter can move any more.")
                return
            self._end_turn(s, events)
        else:
            s.skips_in_row = 0

    def gold(self, s: State, seat: int) -> int:
        index = card_index()
        return sum(index[c].gold for c in s.players[seat].treasure)

    def _finish(self, s: State, events: list[Any], reason: str) -> None:
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
        if state.mode == "solo":
            summary = f"{names} leaves the dungeon with {best} gold pieces."
        elif len(winners) > 1:
            summary = f"{names} share the victory with {best} gold pieces each."
        else:
            summary = f"{names} wins with {best} gold pieces."
        return Outcome(winners=winners, scores=gold, summary=summary)

    # --- what a seat may see ------------------------------------------------------------------

    def room_names(self, state: State) -> dict[str, str]:
        index = card_index()
        return {room: index[cid].title for room, cid in state.revealed.items()}

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """The public picture of the game, plus (for ``seat``) what only that seat may see."""
        index = card_index()
        names = self.room_names(state)
        rooms: dict[str, dict[str, Any]] = {}
        inside_room = state.exploring.room if state.exploring else None
        for room, stack in state.rooms.items():
            if room == inside_room:  # its cards are in the Narrator's hands: not explored yet
                status = "unexplored"
            elif not stack:
                status = "explored"
            elif index[stack[0]].kind == "room":
                status = "unexplored"
            else:
                status = "partly"
            waiting = index[stack[0]].title if status == "partly" and stack else None
            rooms[room] = {"status": status, "name": names.get(room), "waiting": waiting}
        inside = state.exploring.room if state.exploring else None
        current = self.current(state) if state.phase != "over" else None
        fighters_ = [
            {
                "seat": i, "player": p.name, "colour": p.colour, "letter": p.letter,
                "fighter": fighter_index()[p.fighter].name, "fighter_id": p.fighter,
                "doorway": p.doorway, "in_room": inside if i == current and p.doorway is None else None,
                "wounded": p.wounded, "wounds": p.wounds, "gold": self.gold(state, i),
                "treasure": [index[c].title for c in p.treasure],
            }
            for i, p in enumerate(state.players)
        ]
        explored = sum(1 for r in rooms.values() if r["status"] == "explored")
        view: dict[str, Any] = {
            "mode": state.mode, "narration": state.narration, "phase": state.phase,
            "turn_no": state.turn_no, "rooms": rooms, "fighters": fighters_, "to_move": current,
            "to_act": sorted(self.to_act(state)), "narrator": self.narrator(state),
            "highlight": self.destinations(state, current) if current is not None else [],
            "explored": explored, "room_count": len(rooms), "last_move": state.last_move,
            "caption": self._caption(state, explored, len(rooms)),
        }
        if seat is not None and state.exploring and state.exploring.pending and seat == self.narrator(state):
            view["narrator_card"] = state.exploring.pending
        return view

    def _caption(self, state: State, explored: int, total: int) -> str:
        if state.phase == "over":
            out = self.outcome(state)
            return out.summary if out else "Game over"
        p = state.players[self.current(state)]
        verb = {"place": "to enter the dungeon", "move": "to move", "explore": "exploring"}
        return f"{p.name} ({p.colour}) {verb[state.phase]} · {explored} of {total} rooms explored"

    # --- words for people ---------------------------------------------------------------------

    def label(self, state: State, doorway: str) -> str:
        """A destination as a person reads it on the board, with what the move will do."""
        text = self.board.label(doorway, self.room_names(state))
        me = state.players[self.current(state)]
        if state.phase == "move" and me.doorway:
            names = self.room_names(state)
            if doorway == me.doorway:
                room = self.board.room_of(doorway)
                return f"{doorway} — explore {room_label(room or '', names)} and come back out here"
            room = self.board.via.get((me.doorway, doorway))
            if room is not None and state.rooms[room]:
                text += f" (through {room_label(room, names)}: explore it)"
        return text

    def _phase_hint(self, s: State, seat: int) -> str:
        hints = {
            "place": "First choose your starting doorway beside an entrance with `/explore to:`.",
            "move": "Move with `/explore to:` to a doorway linked by one corridor or one room.",
        }
        return hints.get(s.phase, "That is not something you can do now.")

    def _refusal(self, s: State, seat: int, wanted: str, allowed: list[str]) -> str:
        listed = ", ".join(allowed[:12]) + (" …" if len(allowed) > 12 else "")
        taken = self.occupied(s)
        if wanted not in self.board.doorways:
            why = f"There is no doorway called **{wanted[:20]}** on the board."
        elif wanted in taken and wanted != s.players[seat].doorway:
            why = f"{wanted} is taken by another fighter."
        elif s.phase == "place":
            why = f"{wanted} is not beside a free dungeon entrance."
        else:
            why = f"{wanted} is not linked to your doorway by a single corridor or room."
        return f"{why} You can go to: {listed}." if allowed else why

    # --- verbs: what the shared slash commands mean in this game ------------------------------

    verbs: ClassVar[dict[str, str]] = {
        "explore": "`/explore to:` to enter the dungeon or move to a doorway",
        "narrate": "`/narrate text:` to tell the card in your hand as Narrator",
    }

    def parse(self, state: State, seat: int, verb: str, args: dict[str, str]) -> LegendAction:
        """Turn a slash command into an action, or explain what the verb needs."""
        if verb == "explore":
            to = (args.get("to") or "").strip().upper().split(" ")[0]
            if not to:
                raise IllegalAction("Tell me where to go: `/explore to:D7` (the list offers every free doorway).")
            if not to.startswith("D") and to.isdigit():
                to = "D" + to
            kind = STEP_ACTIONS.get(state.phase)
            if kind is None:
                if state.phase == "over":
                    raise GameOver("This game has ended. Start a new one with `/game new`.")
                self._check_turn(state, seat)
                raise IllegalAction("Wait for the room's story to finish before you move.")
            return kind(to=to)
        if verb == "narrate":
            return Narrate(text=args.get("text") or "")
        raise IllegalAction(f"Legend of Heroes has no `/{verb}`. Use " + "; ".join(self.verbs.values()) + ".")

    def choices(self, state: State, seat: int, verb: str, option: str) -> list[tuple[str, str]]:
        """Autocomplete: every legal value for a verb's option, labelled for people (at most 25)."""
        if verb == "explore" and option == "to":
            return [(self.label(state, d), d) for d in self.destinations(state, seat)][:25]
        return []

    # --- what happens when a player is away ---------------------------------------------------

    def timeout(self, state: State) -> tuple[int, LegendAction] | None:
        """The action Tabula takes for an absent Narrator once the game's narrator timeout passes."""
        narrator = self.narrator(state)
        if state.phase == "explore" and narrator is not None and state.exploring and state.exploring.pending:
            return narrator, Narrate(auto=True)
        return None
