"""Legend of Heroes rules against the book: its worked examples with its numbers, and every starter rule."""

from __future__ import annotations

import msgspec
import pytest

from rules.core import GameOver, IllegalAction, NotYourTurn
from rules.legend.board import board
from rules.legend.content import card_index, cards, fighter_index
from rules.legend.ruleset import LegendRuleset
from rules.legend.state import (
    AwaitNarration,
    CardRead,
    Exited,
    FightRoll,
    GameEnded,
    Move,
    Narrate,
    Overcame,
    Place,
    Recovered,
    RollOff,
    RoomExplored,
    State,
    TreasureTaken,
    Wounded,
)
from rules.legend.telling import tell
from rules.spec import Command
from tests.legend_helpers import ScriptedDice, public, put_on_room, ready_to_move, scripted, table

B = board()
ENTRANCES = list(B.entrances)


def room_with_entrance_link() -> tuple[str, str, str]:
    """(entrance doorway, room, a doorway of that room reachable from the entrance by corridor)."""
    for ent in ENTRANCES:
        for d in B.links[ent]:
            room = B.room_of(d)
            if room is not None and B.via[(ent, d)] is None:
                return ent, room, d
    raise AssertionError("the plan has no entrance next to a room")


def solo_brand(rolls: list[int]) -> tuple[LegendRuleset, State, str, str]:
    """One fighter, Brand, standing at a doorway of a room; returns (rules, state, room, doorway)."""
    rules = scripted([])
    state = table(rules, ["Ann"], mode="solo")
    ScriptedDice.script = list(rolls)  # after the roll-off
    state.players[0].fighter = "brand"
    ent, room, door = room_with_entrance_link()
    state = rules.apply(state, 0, Place(to=ent)).state
    state = rules.apply(state, 0, Move(to=door)).state  # corridor: no exploration
    assert state.players[0].doorway == door
    return rules, state, room, door


def at_room_door(state: State, seat: int) -> tuple[str, str, str]:
    """Stand ``seat`` at a free doorway of a room with two more free doorways: (room, here, way through)."""
    taken = {p.doorway for i, p in enumerate(state.players) if i != seat}
    for room, doors in B.room_doorways.items():
        free = [d for d in doors if d not in taken]
        if len(free) >= 3:
            state.players[seat].doorway = free[0]
            return room, free[0], free[1]
    raise AssertionError("no room with three free doorways")


def through(room: str, frm: str) -> str:
    return next(d for d in B.room_doorways[room] if d != frm)


# --- the book's examples ------------------------------------------------------------------------


def test_brand_against_the_troll_needs_12_and_the_troll_needs_13() -> None:
    brand, troll = fighter_index()["brand"], card_index()["troll"]
    assert troll.needs[brand.dot] == 12
    assert troll.dot is not None and brand.defence[troll.dot] == 13


def test_brand_against_the_falling_slab_needs_10() -> None:
    assert card_index()["falling-slab"].needs[fighter_index()["brand"].dot] == 10


def test_fight_loops_until_the_troll_dies_all_in_one_turn() -> None:
    # Brand misses (11 < 12), the Troll misses back (12 < 13), Brand misses again, Troll misses, Brand hits.
    rules, state, room, door = solo_brand([11, 12, 5, 1, 12])
    put_on_room(state, room, "troll")
    step = rules.apply(state, 0, Move(to=through(room, door)))
    rolls = [(e.who, e.roll, e.need, e.success) for e in step.events if isinstance(e, FightRoll)]
    assert rolls == [("fighter", 11, 12, False), ("monster", 12, 13, False), ("fighter", 5, 12, False),
                     ("monster", 1, 13, False), ("fighter", 12, 12, True)]
    assert any(isinstance(e, Overcame) and e.card == "troll" for e in step.events)
    assert not any(isinstance(e, Wounded) for e in step.events)


def test_troll_wounds_brand_on_13_and_stays_face_down_on_the_room() -> None:
    rules, state, room, door = solo_brand([3, 13])
    put_on_room(state, room, "troll")
    step = rules.apply(state, 0, Move(to=through(room, door)))
    wound = next(e for e in step.events if isinstance(e, Wounded))
    assert (wound.card, wound.back_to, wound.room) == ("troll", door, room)
    after = step.state
    me = after.players[0]
    assert me.wounds == 1 and me.doorway == door  # back where he came in
    assert after.rooms[room] == ["troll"]  # face down on the room
    assert after.phase == "move" and after.exploring is None  # the turn ended
    # Solo: his next turn starts at once, and at its start the card turns back to its unwounded side.
    kinds = [type(e).__name__ for e in step.events]
    assert kinds.index("Wounded") < kinds.index("TurnBegan") < kinds.index("Recovered")
    assert not me.wounded


def test_a_wounded_fighter_shows_wounded_until_his_own_next_turn() -> None:
    rules = scripted([])
    state = ready_to_move(rules, table(rules, ["Ann", "Bob"]), ENTRANCES[:2])
    first = rules.table.current(state)
    room, _here, way = at_room_door(state, first)
    ScriptedDice.script = [1, 20]
    put_on_room(state, room, "troll")
    state = rules.apply(state, first, Move(to=way)).state
    assert state.players[first].wounded  # during the other player's turn
    other = rules.table.current(state)
    step = rules.apply(state, other, Move(to=rules.table.destinations(state, other)[0]))
    assert not step.state.players[first].wounded
    assert any(isinstance(e, Recovered) and e.seat == first for e in step.events)


def test_falling_slab_wounds_on_9_and_is_overcome_on_10() -> None:
    rules, state, room, door = solo_brand([9])
    put_on_room(state, room, "falling-slab")
    step = rules.apply(state, 0, Move(to=through(room, door)))
    roll = next(e for e in step.events if isinstance(e, FightRoll))
    assert (roll.roll, roll.need, roll.success) == (9, 10, False)
    assert step.state.rooms[room] == ["falling-slab"]

    rules2, state2, room2, door2 = solo_brand([10])
    put_on_room(state2, room2, "falling-slab")
    step2 = rules2.apply(state2, 0, Move(to=through(room2, door2)))
    assert any(isinstance(e, Overcame) for e in step2.events)
    assert "falling-slab" not in step2.state.rooms[room2]


def test_map_room_then_troll_reads_as_one_story() -> None:
    rules, state, room, door = solo_brand([20])
    put_on_room(state, room, "map-room")
    state.piles["monster"] = ["troll"] + [c for c in state.piles["monster"] if c != "troll"]
    step = rules.apply(state, 0, Move(to=through(room, door)))
    reads = [e.card for e in step.events if isinstance(e, CardRead)]
    assert reads[:2] == ["map-room", "troll"]
    story = "\n".join(tell(public(step.state), step.events))
    map_room, troll = card_index()["map-room"], card_index()["troll"]
    joined = f"**Map Room.** {map_room.text} {troll.text[1:]}"
    assert joined in story  # "…comes… a troll, grinning…" in one paragraph, as the Narrator reads it


# --- setting up ---------------------------------------------------------------------------------


def test_room_deck_leaves_two_room_cards_over() -> None:
    rules = LegendRuleset()
    state = table(rules, ["Ann", "Bob"])
    assert len(cards().room) == len(B.room_ids) + 2
    assert all(len(stack) == 1 and card_index()[stack[0]].kind == "room" for stack in state.rooms.values())
    assert len(state.discards["room"]) == 2


def test_roll_off_highest_goes_first_and_ties_roll_again() -> None:
    rules = scripted([7, 15, 15, 3, 9, 12])  # Ann 7, Bob 15, Cy 15 → Bob and Cy roll again: 3, 9 → Cy
    step = rules.setup([__import__("rules.core").core.SeatInfo(i, n) for i, n in enumerate(["Ann", "Bob", "Cy"])],
                       {}, 1)
    roll = next(e for e in step.events if isinstance(e, RollOff))
    assert roll.rounds == [{0: 7, 1: 15, 2: 15}, {1: 3, 2: 9}]
    assert roll.first == 2 and step.state.order == [2, 0, 1]
    ScriptedDice.script = []


def test_each_player_gets_a_fighter_and_a_colour() -> None:
    state = table(LegendRuleset(), ["Ann", "Bob", "Cy", "Di", "Ed"])
    assert len({p.fighter for p in state.players}) == 5
    assert len({p.colour for p in state.players}) == 5 and len({p.letter for p in state.players}) == 5


def test_only_one_fighter_per_entrance() -> None:
    rules = LegendRuleset()
    state = table(rules, ["Ann", "Bob"])
    first, second = state.order
    state = rules.apply(state, first, Place(to=ENTRANCES[0])).state
    assert ENTRANCES[0] not in rules.table.destinations(state, second)
    with pytest.raises(IllegalAction, match="taken"):
        rules.apply(state, second, Place(to=ENTRANCES[0]))


@pytest.mark.parametrize("players", [1, 6])
def test_table_size_is_checked(players: int) -> None:
    rules = LegendRuleset()
    with pytest.raises(IllegalAction):
        rules.check_options({"mode": "starter"}, players)


# --- moving ---------------------------------------------------------------------------------------


def test_moves_go_to_doorways_linked_by_one_corridor_or_room_and_not_occupied() -> None:
    rules = LegendRuleset()
    state = ready_to_move(rules, table(rules, ["Ann", "Bob"]), ENTRANCES[:2])
    seat = rules.table.current(state)
    here = state.players[seat].doorway
    assert here is not None
    assert set(rules.table.destinations(state, seat)) == set(B.links[here]) - {p.doorway for p in state.players}
    far = next(d for d in B.doorways if d not in B.links[here] and d != here)
    with pytest.raises(IllegalAction, match="not linked"):
        rules.apply(state, seat, Move(to=far))
    with pytest.raises(IllegalAction, match="no doorway called"):
        rules.apply(state, seat, Move(to="D999"))


def test_out_of_turn_is_refused() -> None:
    rules = LegendRuleset()
    state = ready_to_move(rules, table(rules, ["Ann", "Bob"]), ENTRANCES[:2])
    other = next(s for s in range(2) if s != rules.table.current(state))
    with pytest.raises(NotYourTurn, match="turn"):
        rules.apply(state, other, Move(to=rules.table.destinations(state, rules.table.current(state))[0]))


def test_after_the_room_the_fighter_leaves_by_the_doorway_he_chose_even_the_one_he_came_in_by() -> None:
    empty_end = next(c.id for c in cards().room if c.next == "end")
    for back in (False, True):
        rules, state, room, door = solo_brand([])
        put_on_room(state, room, empty_end)
        assert door in rules.table.destinations(state, 0)  # "explore it and come back out here"
        assert "come back out here" in rules.codec.doorway_label(state, door)
        target = door if back else through(room, door)
        step = rules.apply(state, 0, Move(to=target))
        assert any(isinstance(e, RoomExplored) for e in step.events)
        exited = next(e for e in step.events if isinstance(e, Exited))
        assert exited.to == target
        assert step.state.players[0].doorway == target and step.state.phase == "move"


def test_treasure_is_kept_and_counts_at_the_end() -> None:
    rules, state, room, door = solo_brand([])
    to_treasure = next(c.id for c in cards().room if c.next == "treasure")
    put_on_room(state, room, to_treasure)
    step = rules.apply(state, 0, Move(to=through(room, door)))
    taken = next(e for e in step.events if isinstance(e, TreasureTaken))
    assert taken.card in step.state.players[0].treasure
    assert all(taken.card not in pile for pile in step.state.discards.values())
    assert rules.table.gold(step.state, 0) == card_index()[taken.card].gold


def test_partly_explored_room_is_taken_up_by_the_next_fighter_who_faces_the_danger_first() -> None:
    rules = scripted([])
    state = ready_to_move(rules, table(rules, ["Ann", "Bob"]), ENTRANCES[:2])
    first = rules.table.current(state)
    room, here, way = at_room_door(state, first)
    ScriptedDice.script = [1, 20]  # Ann misses, the Troll hits: Ann is wounded
    put_on_room(state, room, "troll")
    state = rules.apply(state, first, Move(to=way)).state
    assert state.rooms[room] == ["troll"] and state.players[first].doorway == here
    assert rules.view(state, None).rooms[room].status == "partly"
    # The other fighter walks in from another doorway and must deal with the Troll before anything else.
    second = rules.table.current(state)
    third = next(d for d in B.room_doorways[room] if d not in (here, way))  # rooms here have 3+ doors
    state.players[second].doorway = third
    ScriptedDice.script = [20]
    step = rules.apply(state, second, Move(to=way))
    reads = [e for e in step.events if isinstance(e, CardRead)]
    assert reads[0].card == "troll" and reads[0].again
    assert any(isinstance(e, Overcame) and e.card == "troll" for e in step.events)


def test_solo_game_ends_at_the_eighth_wound() -> None:
    rules, state, room, door = solo_brand([])
    for wound in range(1, 9):
        ScriptedDice.script = [1]  # fail the hazard every time
        put_on_room(state, room, "falling-slab")
        if state.players[0].doorway != door:
            state.players[0].doorway = door
        step = rules.apply(state, 0, Move(to=through(room, door)))
        state = step.state
        assert state.players[0].wounds == wound
    assert state.phase == "over"
    ended = next(e for e in step.events if isinstance(e, GameEnded))
    assert "8 wounds" in ended.reason
    with pytest.raises(GameOver):
        rules.apply(state, 0, Move(to=door))


def test_game_ends_when_every_room_is_explored_and_the_richest_wins() -> None:
    rules = scripted([])
    state = ready_to_move(rules, table(rules, ["Ann", "Bob"]), ENTRANCES[:2])
    seat = rules.table.current(state)
    room, _here, link = at_room_door(state, seat)
    for r in state.rooms:
        state.rooms[r] = []
    state.players[1 - seat].treasure = []
    put_on_room(state, room, next(c.id for c in cards().room if c.next == "treasure"))
    step = rules.apply(state, seat, Move(to=link))
    assert step.state.phase == "over"
    out = rules.outcome(step.state)
    assert out is not None and out.winners == (seat,) and out.scores[1 - seat] == 0
    tied = step.state
    tied.players[1 - seat].treasure = list(tied.players[seat].treasure)
    shared = rules.outcome(tied)
    assert shared is not None and shared.winners == (0, 1) and "share" in shared.summary


# --- narration by players -----------------------------------------------------------------------


def test_the_narrator_is_the_player_on_the_explorers_right() -> None:
    rules = scripted([])
    state = table(rules, ["Ann", "Bob", "Cy"], narration="players")
    state = ready_to_move(rules, state, ENTRANCES[:3])
    seat = rules.table.current(state)
    assert rules.table.narrator(state) == state.order[(state.order.index(seat) - 1) % 3]


def test_players_narration_waits_for_the_narrator_and_only_the_narrator_may_tell() -> None:
    rules = scripted([])
    state = table(rules, ["Ann", "Bob"], narration="players")
    ScriptedDice.script = [20, 20, 20]
    state = ready_to_move(rules, state, ENTRANCES[:2])
    seat = rules.table.current(state)
    room, _here, link = at_room_door(state, seat)
    put_on_room(state, room, "map-room")
    step = rules.apply(state, seat, Move(to=link))
    wait = next(e for e in step.events if isinstance(e, AwaitNarration))
    narrator = rules.table.narrator(step.state)
    assert wait.narrator == narrator and wait.kind == "room"
    assert rules.to_act(step.state) == frozenset({narrator})
    assert step.state.exploring is not None and step.state.exploring.pending == "map-room"
    assert rules.view(step.state, None).narrator_card is None  # public view keeps the card hidden
    assert rules.view(step.state, seat).narrator_card is None  # and so does the explorer's
    assert rules.view(step.state, narrator).narrator_card == "map-room"
    with pytest.raises(NotYourTurn, match="Narrator"):
        rules.apply(step.state, seat, Narrate(text="I read it myself"))
    told = rules.apply(step.state, narrator, Narrate(text="Maps everywhere, and a smell of troll."))
    read = next(e for e in told.events if isinstance(e, CardRead))
    assert read.narrator == narrator and read.words.startswith("Maps")
    assert rules.timeout(told.state) is not None  # the next card waits for the Narrator, with a deadline


def test_timeout_lets_tabula_read_the_card() -> None:
    rules = scripted([])
    state = table(rules, ["Ann", "Bob"], narration="players")
    ScriptedDice.script = [20]
    state = ready_to_move(rules, state, ENTRANCES[:2])
    seat = rules.table.current(state)
    room, _here, link = at_room_door(state, seat)
    put_on_room(state, room, next(c.id for c in cards().room if c.next == "end"))
    state = rules.apply(state, seat, Move(to=link)).state
    pending = rules.timeout(state)
    assert pending is not None
    narrator, action = pending
    step = rules.apply(state, narrator, action)
    read = next(e for e in step.events if isinstance(e, CardRead))
    assert read.auto and read.narrator is None
    assert "Tabula reads" in "\n".join(tell(public(step.state), step.events))


# --- state hygiene ------------------------------------------------------------------------------


def test_apply_never_mutates_its_input_and_state_round_trips_through_json() -> None:
    rules = LegendRuleset()
    state = table(rules, ["Ann", "Bob"])
    before = msgspec.json.encode(state)
    seat = rules.table.current(state)
    rules.apply(state, seat, rules.legal(state, seat)[0])
    assert msgspec.json.encode(state) == before
    again = msgspec.json.decode(before, type=State)
    assert msgspec.json.encode(again) == before


def test_public_view_hides_deck_order_and_the_seed() -> None:
    rules = LegendRuleset()
    state = table(rules, ["Ann", "Bob"])
    text = msgspec.json.encode(rules.view(state, None)).decode()
    assert "piles" not in text and "rng" not in text
    for pile in state.piles.values():
        for cid in pile[:3]:
            assert cid not in text


def test_a_verb_the_game_does_not_have_says_what_it_does_have() -> None:
    rules = LegendRuleset()
    state = table(rules, ["Ann", "Bob"])
    with pytest.raises(IllegalAction, match=r"no `/voyage`.*`/explore to:`.*`/narrate text:`"):
        rules.codec.parse(state, 0, Command.of("voyage", to="Alexandria"))
