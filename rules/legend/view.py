"""Legend of Heroes as a seat (or everyone) may see it: the typed view that presenters and renderers read.

The public view (seat ``None``) holds the board — rooms, fighters and parties, the doorways the player to move
may choose, the last move, every party's Spell card (face up, as the book lays it) — and the exploration under
way.  A seat's view adds what is that seat's alone: the card in hand when it narrates, and the `/party` panel's
menus.  Nothing here shows the order of a pile or a face-down card to anyone else.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

import msgspec

from rules.core import Rng, copier
from rules.legend.commands import LegendCodec
from rules.legend.content import card_index, cards, fighter_index, hero_index
from rules.legend.engine.table import Table
from rules.legend.i18n import _, card_title, colour_name, kind_name, summary
from rules.legend.state import Decision, Mode, Phase, State
from rules.spec import Command

RoomStatus = Literal["unexplored", "partly", "explored"]


class RoomView(msgspec.Struct, frozen=True):
    status: RoomStatus = "unexplored"
    name: str | None = None  # the Room card's title, once read
    waiting: str | None = None  # the title of the danger left face down on a partly explored room


class HeroView(msgspec.Struct, frozen=True):
    """One hero of an Expanded Game party, as it lies in the row."""

    id: str
    name: str = ""
    kind: str = ""  # "fighter", "dwarf", "cleric", "rogue", "magic"
    wounded: bool = False


class TreasureView(msgspec.Struct, frozen=True):
    id: str
    title: str
    gold: int


class FighterView(msgspec.Struct, frozen=True):
    """A player's token on the board, and what everyone knows of their fighter or party."""

    seat: int
    player: str
    colour: str = ""
    letter: str = ""
    fighter: str = ""  # the token's name: the Fighter's, or in the Expanded Game the Leader's
    fighter_id: str = ""  # the Fighter card (the party's Fighter in the Expanded Game)
    doorway: str | None = None
    in_room: str | None = None  # the room the player to move is exploring
    wounded: bool = False  # the fighter (or every hero of the party) is wounded
    wounds: int = 0
    gold: int = 0
    treasure: tuple[TreasureView, ...] = ()
    party: tuple[HeroView, ...] = ()  # Expanded Game: left to right, the last one leads
    leader: str | None = None
    has_spell: bool = False
    spell: str | None = None  # Expanded Game: the Spell card face up beside the Magic User (the book: public)
    overwhelmed: bool = False


class LastMove(msgspec.Struct, frozen=True):
    seat: int
    frm: str
    to: str


class ExplorationView(msgspec.Struct, frozen=True):
    """The room being explored and what its explorer must decide (Expanded Game)."""

    room: str
    explorer: int
    decision: Decision | None = None
    coming: str | None = None  # "monster" / "hazard": the kind of card announced before it is drawn
    danger: str | None = None  # the Monster or Hazard card face up beside the Leader
    waiting: str | None = None  # the danger left on the room, about to be turned up again (told when entered)


class RestView(msgspec.Struct, frozen=True):
    """What a rest would do for the party to move: who is healed, by whom, and who studies a new spell."""

    healed: tuple[str, ...] = ()
    healer: str | None = None
    studying: str | None = None


class MenuEntry(msgspec.Struct, frozen=True):
    label: str
    command: Command


class PartyView(msgspec.Struct, frozen=True):
    """A player's party as one picture: heroes left to right (the last leads) and the Magic User's spell."""

    player: str
    colour: str = ""
    letter: str = ""
    heroes: tuple[HeroView, ...] = ()
    spell: str | None = None


class LegendView(msgspec.Struct, frozen=True):
    mode: Mode = "starter"
    narration: str = "bot"
    phase: Phase = "place"
    turn_no: int = 1
    rooms: dict[str, RoomView] = msgspec.field(default_factory=dict)
    fighters: tuple[FighterView, ...] = ()
    to_move: int | None = None  # whose turn it is (None once the game is over)
    to_act: tuple[int, ...] = ()
    narrator: int | None = None  # the player narrating this turn's room (players mode)
    highlight: tuple[str, ...] = ()  # the doorways the player to move may choose
    explored: int = 0
    room_count: int = 0
    last_move: LastMove | None = None
    caption: str = ""
    exploring: ExplorationView | None = None
    notes: dict[str, str] = msgspec.field(default_factory=dict)  # room -> its scene note
    rest: RestView | None = None  # Expanded Game: what resting would do, when the player to move may rest
    outcome: str | None = None  # the summary, once the game is over
    # --- what only ``seat`` may see ---
    seat: int | None = None
    narrator_card: str | None = None  # the card in hand, for its Narrator
    spell: str | None = None  # this seat's party's Spell card (public too: ``fighters[seat].spell``)
    front: tuple[MenuEntry, ...] = ()  # `/party`: who may move to the front (lead), when reordering is allowed
    back: tuple[MenuEntry, ...] = ()  # ... and who to the back

    @property
    def expanded(self) -> bool:
        return self.mode == "expanded"

    def fighter(self, seat: int) -> FighterView:
        return self.fighters[seat]

    def party_of(self, seat: int) -> PartyView:
        """The seat's party for its picture, with its Spell card (face up, as the book lays it)."""
        f = self.fighters[seat]
        return PartyView(player=f.player, colour=f.colour, letter=f.letter, heroes=f.party, spell=f.spell)


def _rooms(state: State) -> dict[str, RoomView]:
    index = card_index()
    names = {room: index[cid].title for room, cid in state.revealed.items()}
    inside = state.exploring.room if state.exploring else None
    rooms: dict[str, RoomView] = {}
    for room, stack in state.rooms.items():
        status: RoomStatus
        if room == inside:  # its cards are in the Narrator's hands: not explored yet
            status = "unexplored"
        elif not stack:
            status = "explored"
        elif index[stack[0]].kind == "room":
            status = "unexplored"
        else:
            status = "partly"
        waiting = index[stack[0]].title if status == "partly" and stack else None
        rooms[room] = RoomView(status=status, name=names.get(room), waiting=waiting)
    return rooms


def _fighters(rules: Table, state: State) -> tuple[FighterView, ...]:
    index, heroes = card_index(), hero_index()
    inside = state.exploring.room if state.exploring else None
    current = rules.current(state) if state.phase != "over" else None
    out = []
    for i, p in enumerate(state.players):
        party = tuple(HeroView(id=h.id, name=heroes[h.id].name, kind=heroes[h.id].kind, wounded=h.wounded)
                      for h in p.party)
        lead = party[-1] if party and not party[-1].wounded else None
        expanded = state.mode == "expanded"
        out.append(FighterView(
            seat=i, player=p.name, colour=p.colour, letter=p.letter,
            fighter=lead.name if lead else fighter_index()[p.fighter].name, fighter_id=p.fighter,
            doorway=p.doorway, in_room=inside if i == current and p.doorway is None else None,
            wounded=lead is None if expanded else p.wounded, wounds=p.wounds, gold=rules.gold(state, i),
            treasure=tuple(TreasureView(id=c, title=index[c].title, gold=index[c].gold) for c in p.treasure),
            party=party, leader=lead.id if lead else None, has_spell=expanded and p.spell is not None,
            spell=p.spell if expanded else None,
            overwhelmed=p.overwhelmed,
        ))
    return tuple(out)


def _caption(rules: Table, state: State, explored: int, total: int) -> str:
    if state.phase == "over":
        out = rules.outcome(state)
        return summary(out.summary) if out else _("Game over")
    p = state.players[rules.current(state)]
    ex = state.exploring
    values = {"player": p.name, "colour": colour_name(p.colour), "explored": explored, "total": total}
    if ex is not None and ex.decision == "leader":
        return _("{player} ({colour}) choosing a Leader: a {kind} is coming · {explored} of {total} rooms explored",
                 kind=kind_name(ex.coming), **values)
    if ex is not None and ex.decision is not None and ex.danger is not None:
        return _("{player} ({colour}) fighting the {card} · {explored} of {total} rooms explored",
                 card=card_title(card_index()[ex.danger].title), **values)
    if state.phase == "place":
        return _("{player} ({colour}) to enter the dungeon · {explored} of {total} rooms explored", **values)
    if state.phase == "move":
        return _("{player} ({colour}) to move · {explored} of {total} rooms explored", **values)
    return _("{player} ({colour}) exploring · {explored} of {total} rooms explored", **values)


def build_view(rules: Table, codec: LegendCodec, state: State, seat: int | None) -> LegendView:
    """The public picture of the game, plus (for ``seat``) what only that seat may see."""
    rooms = _rooms(state)
    current = rules.current(state) if state.phase != "over" else None
    explored = sum(1 for r in rooms.values() if r.status == "explored")
    ex = state.exploring
    exploring = None
    if ex is not None and current is not None:
        waiting = ex.pending if ex.decision == "leader" and ex.pending is not None else None  # told on entering
        exploring = ExplorationView(room=ex.room, explorer=current, decision=ex.decision, coming=ex.coming or None,
                                    danger=ex.danger, waiting=waiting)
    rest = None
    if state.mode == "expanded" and state.phase == "move" and current is not None:
        healed, healer, studying = rules.rest_plan(state, current)
        if healed or studying:
            rest = RestView(healed=tuple(healed), healer=healer, studying=studying)
    last = state.last_move
    outcome = rules.outcome(state)
    public = LegendView(
        mode=state.mode, narration=state.narration, phase=state.phase, turn_no=state.turn_no, rooms=rooms,
        fighters=_fighters(rules, state), to_move=current, to_act=tuple(sorted(rules.to_act(state))),
        narrator=rules.narrator(state),
        highlight=tuple(rules.destinations(state, current)) if current is not None else (),
        explored=explored, room_count=len(rooms),
        last_move=LastMove(seat=last["seat"], frm=last["from"], to=last["to"]) if last else None,
        caption=_caption(rules, state, explored, len(rooms)), exploring=exploring,
        notes={room: note.text for room, note in state.notes.items()}, rest=rest,
        outcome=outcome.summary if outcome else None,
    )
    if seat is None or not 0 <= seat < len(state.players):
        return public
    card = None
    if ex is not None and ex.pending and ex.decision is None and seat == rules.narrator(state):
        card = ex.pending
    spell = state.players[seat].spell if state.mode == "expanded" else None
    front, back = codec.reorder(state, seat) if state.mode == "expanded" else ([], [])
    return msgspec.structs.replace(
        public, seat=seat, narrator_card=card, spell=spell,
        front=tuple(MenuEntry(label, command) for label, command in front),
        back=tuple(MenuEntry(label, command) for label, command in back),
    )

# --- secrets -------------------------------------------------------------------------------------------
#
# What a seat alone may know, and what nobody may, as alternative states.  The platform's conformance suite
# plays each variant against the real state: every view but the seat's own must stay the same, or a secret
# leaks.  Nobody knows the order of a pile, the Spell Pile or the Room cards still face down; a Narrator alone
# knows the card in hand until it is told (unless it is the danger left on the room, which everyone saw).  A
# party's Spell card is no secret: the book lays it face up beside the Magic User.

_copy = copier(State)


def secret_variants(rules: Table, state: State, seat: int) -> Iterator[State]:
    rng = Rng(state.rng ^ (0x5EC2E7 + seat))  # any shuffle will do: it is never played
    index = card_index()

    # every pile reshuffled, and the Room cards still face down dealt to other rooms
    s = _copy(state)
    s.piles = {kind: rng.shuffle(pile) for kind, pile in s.piles.items()}
    s.spell_pile = rng.shuffle(s.spell_pile)
    inside = s.exploring.room if s.exploring else None
    hidden = [r for r, stack in s.rooms.items() if r != inside and stack and index[stack[0]].kind == "room"]
    for room, card in zip(hidden, rng.shuffle([s.rooms[r][0] for r in hidden]), strict=True):
        s.rooms[room] = [card]
    yield s

    # another card in the Narrator's hand, of the same kind (the red arrow said which), while it is face down
    ex = state.exploring
    if ex is None or ex.pending is None or ex.decision is not None or seat != rules.narrator(state):
        return
    kind = index[ex.pending].kind
    if ex.pending_from_room and kind != "room":
        return  # the danger left on the room: everyone saw it
    set_aside = len(cards().room) - len(state.rooms)
    others = state.discards.get("room", [])[:set_aside] if kind == "room" else state.piles.get(kind, [])
    if others:
        s = _copy(state)
        assert s.exploring is not None
        pool = s.discards["room"] if kind == "room" else s.piles[kind]
        s.exploring.pending, pool[0] = pool[0], ex.pending
        yield s
