"""The Expanded Game of Legend of Heroes: the book's rules for parties, leaders, fights and spells, and the
house rules Tabula designed where the book breaks off (being wounded, healing, studying, scene notes)."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.core import GameError, IllegalAction, NotYourTurn, SeatInfo
from rules.legend.board import board
from rules.legend.content import CLASSES, card_index, hero_index, need, spell_index, spells
from rules.legend.ruleset import LegendRuleset
from rules.legend.state import (
    Attack,
    Cast,
    DangerComing,
    GameEnded,
    HeroRoll,
    HeroWounded,
    Keep,
    Lead,
    LeaderChanged,
    Move,
    Narrate,
    NoteRead,
    Order,
    Overcame,
    PartiesDealt,
    PartyRecovered,
    Place,
    Rest,
    Retreat,
    Retreated,
    Roll,
    Rolled,
    SceneNote,
    SpellCast,
    SpellLearned,
    State,
)
from rules.legend.telling import tell
from tests.legend_helpers import ScriptedDice, public, scripted, table

B = board()


def party_game(names: list[str], *, narration: str = "bot") -> tuple[LegendRuleset, State]:
    rules = scripted([])
    state = table(rules, names, mode="expanded", narration=narration)
    for seat, door in zip(list(state.order), list(B.entrances), strict=False):
        state = rules.apply(state, seat, Place(to=door)).state
    return rules, state


def stand_at_room(state: State, seat: int) -> tuple[str, str]:
    """Put ``seat`` at a free doorway of a room whose other doorway is free too: (room, doorway)."""
    taken = {p.doorway for i, p in enumerate(state.players) if i != seat}
    for room, doors in B.room_doorways.items():
        free = [d for d in doors if d not in taken]
        if len(free) >= 2:
            state.players[seat].doorway = free[0]
            return room, free[0]
    raise AssertionError("no room with two free doorways")


def enter(rules: LegendRuleset, state: State, seat: int, room_card: str, *, top: dict[str, str] | None = None,
          rolls: list[int] | None = None) -> tuple[State, list[Any], str, str]:
    """The seat's party walks into a room holding ``room_card``; piles get ``top`` cards on top."""
    room, door = stand_at_room(state, seat)
    state.rooms[room] = [room_card]
    for kind, card in (top or {}).items():
        state.piles[kind] = [card] + [c for c in state.piles[kind] if c != card]
    ScriptedDice.script = list(rolls or [])
    step = rules.apply(state, seat, Move(to=door))
    return step.state, list(step.events), room, door


def party_ids(state: State, seat: int) -> list[str]:
    return [h.id for h in state.players[seat].party]


def kind_of(hero_id: str) -> str:
    return hero_index()[hero_id].kind


def hero_of(state: State, seat: int, kind: str) -> str:
    return next(h.id for h in state.players[seat].party if kind_of(h.id) == kind)


# --- setting up ----------------------------------------------------------------------------------


def test_each_player_gets_one_hero_of_each_kind_the_fighter_leading_and_one_spell() -> None:
    _rules, state = party_game(["Ann", "Bob", "Cy"])
    seen: set[str] = set()
    for seat, p in enumerate(state.players):
        kinds = [kind_of(h) for h in party_ids(state, seat)]
        assert sorted(kinds) == sorted(CLASSES)
        assert kinds[-1] == "fighter"  # the right-hand end: the Leader
        assert p.party[-1].id == p.fighter
        assert p.spell in spell_index()
        seen |= set(party_ids(state, seat))
    assert len(seen) == 15  # no hero twice at the table
    held = [p.spell for p in state.players]
    assert sorted([*held, *state.spell_pile]) == sorted(s.id for s in spells())


def test_the_book_numbers_hold_for_brand_leading_a_party() -> None:
    brand = hero_index()["brand"]
    troll, slab = card_index()["troll"], card_index()["falling-slab"]
    assert need(troll, brand) == 12
    assert troll.dot is not None and brand.defence[troll.dot] == 13
    assert need(slab, brand) == 10


def test_one_player_can_play_the_expanded_game_alone() -> None:
    rules = LegendRuleset()
    opts = rules.check_options({"mode": "expanded", "narration": "players"}, 1)
    assert opts == {"mode": "expanded", "narration": "bot", "tabula_level": "easy"}
    with pytest.raises(IllegalAction):
        rules.check_options({"mode": "expanded"}, 6)


# --- changing leader before a danger ---------------------------------------------------------------


def test_before_a_monster_is_drawn_the_player_may_change_leader() -> None:
    rules, state = party_game(["Ann", "Bob"])
    seat = state.order[0]
    state, events, _room, _door = enter(rules, state, seat, "map-room", top={"monster": "troll"})
    coming = [e for e in events if isinstance(e, DangerComing)]
    assert coming and coming[0].kind == "monster"
    assert state.exploring is not None and state.exploring.decision == "leader"
    assert state.exploring.pending is None  # not drawn yet
    assert rules.to_act(state) == frozenset({seat})
    dwarf = hero_of(state, seat, "dwarf")
    before = party_ids(state, seat)
    troll = card_index()["troll"]
    ScriptedDice.script = [need(troll, hero_index()[dwarf])]  # the Dwarf kills it with his first blow
    step = rules.apply(state, seat, Lead(hero=dwarf))
    after = party_ids(step.state, seat)
    # The two cards swap places: the Dwarf leads, the Fighter stands where the Dwarf stood.
    i = before.index(dwarf)
    assert after[-1] == dwarf and after[i] == before[-1]
    assert any(isinstance(e, LeaderChanged) for e in step.events)
    assert any(isinstance(e, Overcame) and e.card == "troll" for e in step.events)


def test_keep_draws_the_card_with_the_same_leader() -> None:
    rules, state = party_game(["Ann", "Bob"])
    seat = state.order[0]
    state, _events, _room, _door = enter(rules, state, seat, "map-room", top={"monster": "troll"})
    ScriptedDice.script = [20]
    step = rules.apply(state, seat, Keep())
    rolls = [e for e in step.events if isinstance(e, HeroRoll)]
    assert rolls[0].hero == state.players[seat].fighter and rolls[0].need == 12


# --- fights ---------------------------------------------------------------------------------------


def fight_the_troll(first: list[int]) -> tuple[LegendRuleset, State, int, list[Any]]:
    rules, state = party_game(["Ann", "Bob"])
    seat = state.order[0]
    state, _events, _room, _door = enter(rules, state, seat, "map-room", top={"monster": "troll"})
    ScriptedDice.script = list(first)
    step = rules.apply(state, seat, Keep())
    return rules, step.state, seat, list(step.events)


def test_a_miss_then_a_miss_leaves_the_choice_to_attack_change_or_retreat() -> None:
    rules, state, seat, events = fight_the_troll([5, 2])  # Brand misses (needs 12); the Troll misses (needs 13)
    assert [(e.who, e.roll, e.need) for e in events if isinstance(e, HeroRoll)] == [("hero", 5, 12),
                                                                                   ("monster", 2, 13)]
    assert state.exploring is not None and state.exploring.decision == "fight"
    legal = rules.legal(state, seat)
    assert Attack() in legal and Retreat() in legal
    assert any(isinstance(a, Lead) for a in legal)
    ScriptedDice.script = [12]
    step = rules.apply(state, seat, Attack())
    assert any(isinstance(e, Overcame) and e.card == "troll" for e in step.events)


def test_a_wounded_leader_drops_to_the_back_and_the_next_hero_leads_the_fight_goes_on() -> None:
    rules, state, seat, events = fight_the_troll([5, 13])  # the Troll hits Brand
    wounded = [e for e in events if isinstance(e, HeroWounded)]
    assert wounded and wounded[0].hero == "brand"
    party = state.players[seat].party
    assert party[0].id == "brand" and party[0].wounded
    assert not party[-1].wounded and wounded[0].leader == party[-1].id
    assert state.exploring is not None and state.exploring.decision == "fight"
    assert state.players[seat].wounds == 1
    with pytest.raises(IllegalAction, match="wounded and cannot lead"):
        rules.apply(state, seat, Lead(hero="brand"))
    text = "\n".join(tell(public(state), events))
    assert "drops to the back" in text and "cannot lead" in text


def test_retreat_puts_the_party_back_and_leaves_the_monster_face_down() -> None:
    rules, state, seat, _events = fight_the_troll([5, 2])
    came_from = state.exploring.came_from if state.exploring else ""
    room = state.exploring.room if state.exploring else ""
    step = rules.apply(state, seat, Retreat())
    assert any(isinstance(e, Retreated) for e in step.events)
    assert step.state.players[seat].doorway == came_from
    assert step.state.rooms[room] == ["troll"]
    assert step.state.exploring is None and rules.table.current(step.state) != seat


def test_retreat_is_not_offered_before_the_monster_has_struck() -> None:
    rules, state = party_game(["Ann", "Bob"])
    seat = state.order[0]
    state, _e, _r, _d = enter(rules, state, seat, "map-room", top={"monster": "troll"})
    with pytest.raises(IllegalAction):
        rules.apply(state, seat, Retreat())


def test_only_the_explorer_decides_and_the_others_are_told_to_wait() -> None:
    rules, state, seat, _events = fight_the_troll([5, 2])
    other = next(i for i in range(2) if i != seat)
    with pytest.raises(NotYourTurn):
        rules.apply(state, other, Attack())
    with pytest.raises(GameError):
        rules.apply(state, other, Move(to="D1"))


def test_a_failed_hazard_wounds_the_leader_and_may_be_faced_again() -> None:
    rules, state = party_game(["Ann", "Bob"])
    seat = state.order[0]
    room_to_hazard = next(c.id for c in card_index().values() if c.kind == "room" and c.next == "hazard")
    state, events, _room, _door = enter(rules, state, seat, room_to_hazard, top={"hazard": "falling-slab"})
    assert any(isinstance(e, DangerComing) and e.kind == "hazard" for e in events)
    rogue = hero_of(state, seat, "rogue")
    ScriptedDice.script = [1]  # Brand fails (needs 10)
    step = rules.apply(state, seat, Keep())
    assert any(isinstance(e, HeroWounded) and e.hero == "brand" for e in step.events)
    state = step.state
    assert state.exploring is not None and state.exploring.decision == "fight"
    state = rules.apply(state, seat, Lead(hero=rogue)).state
    slab = card_index()["falling-slab"]
    assert need(slab, hero_index()[rogue]) < need(slab, hero_index()["brand"])  # Rogues are good at Hazards
    ScriptedDice.script = [need(slab, hero_index()[rogue])]
    step = rules.apply(state, seat, Attack())
    assert any(isinstance(e, Overcame) and e.card == "falling-slab" for e in step.events)


def test_a_party_wounded_to_the_last_hero_falls_back_and_recovers_on_its_next_turn() -> None:
    rules, state, seat, _events = fight_the_troll([5, 2])
    # Every attack misses and every answer hits: five wounds.
    for _ in range(5):
        if state.exploring is None:
            break
        ScriptedDice.script = [1, 20]
        state = rules.apply(state, seat, Attack()).state
    assert all(h.wounded for h in state.players[seat].party)
    assert state.players[seat].overwhelmed and state.exploring is None
    other = rules.table.current(state)
    assert other != seat
    ScriptedDice.script = []
    door = rules.table.destinations(state, other)[0]
    step = rules.apply(state, other, Move(to=door))
    while step.state.exploring is not None:  # the other player's exploration, if any, resolves on its own
        acts = rules.legal(step.state, sorted(rules.to_act(step.state))[0])
        step = rules.apply(step.state, sorted(rules.to_act(step.state))[0], acts[0])
    recovered = [e for e in step.events if isinstance(e, PartyRecovered)]
    assert recovered and recovered[0].seat == seat and len(recovered[0].healed) == 5
    assert not any(h.wounded for h in step.state.players[seat].party)
    assert rules.table.current(step.state) != seat  # the recovery used up the turn


# --- spells -------------------------------------------------------------------------------------------


def mage_facing(monster: str, spell: str) -> tuple[LegendRuleset, State, int]:
    rules, state = party_game(["Ann", "Bob"])
    seat = state.order[0]
    state.players[seat].spell = spell
    state.spell_pile = [s for s in [*state.spell_pile, *[p.spell for i, p in enumerate(state.players) if i != seat]]
                        if s != spell and s is not None][: len(state.spell_pile)]
    state, _e, _r, _d = enter(rules, state, seat, "map-room", top={"monster": monster})
    state = rules.apply(state, seat, Lead(hero=hero_of(state, seat, "magic"))).state
    return rules, state, seat


def immune_and_open(spell_id: str) -> tuple[str, str]:
    """A monster immune to the spell, and one it works on."""
    spell = spell_index()[spell_id]
    monsters = [c for c in card_index().values() if c.kind == "monster"]
    immune = next(c.id for c in monsters if c.dot is not None and not spell.works[c.dot])
    works = next(c.id for c in monsters if c.dot is not None and spell.works[c.dot])
    return immune, works


def test_a_magic_user_leading_with_a_spell_may_cast_instead_of_attacking() -> None:
    _immune, works = immune_and_open("ice-storm")
    rules, state, seat = mage_facing(works, "ice-storm")
    assert state.exploring is not None and state.exploring.decision == "strike"
    assert Cast() in rules.legal(state, seat) and Attack() in rules.legal(state, seat)
    pile = len(state.spell_pile)
    ScriptedDice.script = [7]  # the book: Ice Storm needs 7
    step = rules.apply(state, seat, Cast())
    cast = [e for e in step.events if isinstance(e, SpellCast)]
    assert cast[0].result == "success"
    assert any(isinstance(e, Overcame) for e in step.events)
    assert step.state.players[seat].spell is None and len(step.state.spell_pile) == pile + 1


def test_ice_storm_fails_below_7() -> None:
    _immune, works = immune_and_open("ice-storm")
    rules, state, seat = mage_facing(works, "ice-storm")
    ScriptedDice.script = [6, 1]  # the spell fails; the monster's answer misses
    step = rules.apply(state, seat, Cast())
    assert [e.result for e in step.events if isinstance(e, SpellCast)] == ["failed"]
    assert step.state.players[seat].spell is None  # used whether or not it worked
    assert step.state.exploring is not None and step.state.exploring.decision == "fight"


def test_an_immune_monster_is_unaffected_and_attacks_the_magic_user() -> None:
    immune, _works = immune_and_open("ice-storm")
    rules, state, seat = mage_facing(immune, "ice-storm")
    mage = hero_of(state, seat, "magic")
    card = card_index()[immune]
    assert card.dot is not None
    ScriptedDice.script = [20, hero_index()[mage].defence[card.dot]]
    step = rules.apply(state, seat, Cast())
    assert [e.result for e in step.events if isinstance(e, SpellCast)] == ["no_effect"]
    assert any(isinstance(e, HeroWounded) and e.hero == mage for e in step.events)
    assert "No Effect" in "\n".join(tell(public(step.state), step.events))


def test_cast_is_refused_without_a_magic_user_in_front_or_without_a_spell() -> None:
    rules, state, seat, _events = fight_the_troll([5, 2])
    with pytest.raises(IllegalAction, match="Magic User"):
        rules.apply(state, seat, Cast())
    state.players[seat].spell = None
    state = rules.apply(state, seat, Lead(hero=hero_of(state, seat, "magic"))).state
    with pytest.raises(IllegalAction, match="study"):
        rules.apply(state, seat, Cast())


def test_studying_costs_the_turn_and_the_spell_arrives_at_its_end() -> None:
    rules, state = party_game(["Ann", "Bob"])
    seat = state.order[0]
    with pytest.raises(IllegalAction, match="nothing to rest for"):
        rules.apply(state, seat, Rest())
    state.spell_pile.insert(0, state.players[seat].spell or "")
    state.players[seat].spell = None
    top = state.spell_pile[0]
    step = rules.apply(state, seat, Rest())
    learned = [e for e in step.events if isinstance(e, SpellLearned)]
    assert learned and step.state.players[seat].spell == top
    assert rules.table.current(step.state) != seat
    assert learned[0].spell == top
    text = "\n".join(tell(public(step.state), step.events))
    assert f"learned a new spell: **{spell_index()[top].name}**" in text  # laid face up, as the book says
    assert public(step.state).fighters[seat].spell == top


# --- healing ------------------------------------------------------------------------------------------


def test_an_unwounded_cleric_heals_every_wounded_hero_in_a_rest() -> None:
    rules, state = party_game(["Ann", "Bob"])
    seat = state.order[0]
    for h in state.players[seat].party[:2]:
        if kind_of(h.id) != "cleric":
            h.wounded = True
    hurt = [h.id for h in state.players[seat].party if h.wounded]
    step = rules.apply(state, seat, Rest())
    assert not any(h.wounded for h in step.state.players[seat].party)
    assert "heals" in "\n".join(tell(public(step.state), step.events)) and hurt


def test_a_wounded_cleric_can_heal_only_himself() -> None:
    rules, state = party_game(["Ann", "Bob"])
    seat = state.order[0]
    party = state.players[seat].party
    cleric = next(h for h in party if kind_of(h.id) == "cleric")
    others = [h for h in party if h is not cleric and kind_of(h.id) != "fighter"]
    for h in [cleric, *others]:
        h.wounded = True
    step = rules.apply(state, seat, Rest())
    after = {h.id: h.wounded for h in step.state.players[seat].party}
    assert after[cleric.id] is False
    assert all(after[h.id] for h in others)  # the others wait for the next rest
    assert "tends the Cleric's own wounds" in "\n".join(tell(public(step.state), step.events))


def test_rests_are_only_for_the_expanded_game() -> None:
    rules = scripted([])
    state = table(rules, ["Ann", "Bob"], mode="starter")
    with pytest.raises(IllegalAction, match="Expanded Game"):
        rules.apply(state, state.order[0], Rest())


def test_solo_expanded_game_ends_at_the_parties_eighth_wound() -> None:
    rules, state = party_game(["Ann"])
    state.players[0].wounds = 7
    state, _e, _r, _d = enter(rules, state, 0, "map-room", top={"monster": "troll"})
    ScriptedDice.script = [1, 20]
    step = rules.apply(state, 0, Keep())
    assert step.state.phase == "over"
    ended = [e for e in step.events if isinstance(e, GameEnded)]
    assert ended and "8 wounds" in ended[0].reason


# --- the party line-up ------------------------------------------------------------------------------


def test_the_party_can_be_reordered_outside_fights_but_never_led_by_a_wounded_hero() -> None:
    rules, state = party_game(["Ann", "Bob"])
    seat = state.order[0]
    ids = party_ids(state, seat)
    new = list(reversed(ids))
    step = rules.apply(state, seat, Order(heroes=new))
    assert party_ids(step.state, seat) == new and step.state.moment == state.moment
    with pytest.raises(IllegalAction, match="all five"):
        rules.apply(state, seat, Order(heroes=ids[:4]))
    state.players[seat].party[0].wounded = True
    with pytest.raises(IllegalAction, match="cannot lead"):
        rules.apply(state, seat, Order(heroes=[*ids[1:], ids[0]]))
    rules2, fighting, seat2, _events = fight_the_troll([5, 2])
    with pytest.raises(IllegalAction, match="buttons"):
        rules2.apply(fighting, seat2, Order(heroes=list(reversed(party_ids(fighting, seat2)))))


# --- the narrator's toolkit ---------------------------------------------------------------------------


def test_dice_rolls_are_logged_for_everyone_without_moving_the_game_on() -> None:
    rules, state = party_game(["Ann", "Bob"])
    ScriptedDice.script = [17, 4]
    step = rules.apply(state, 1, Roll(expr="2d20+3"))
    rolled = next(e for e in step.events if isinstance(e, Rolled))
    assert rolled.dice == [[17, 4], []] and rolled.total == 24 and rolled.expr == "2d20+3"
    assert step.state.moment == state.moment and rules.table.current(step.state) == rules.table.current(state)
    assert "Bob rolls `2d20+3`" in tell(public(step.state), step.events)[0]
    for bad in ("", "d1", "banana", "200d6", "2d6++3"):
        with pytest.raises(IllegalAction):
            rules.apply(state, 0, Roll(expr=bad))


def test_the_narrator_pins_a_scene_note_that_is_read_when_the_room_is_entered_again() -> None:
    rules, state = party_game(["Ann", "Bob"], narration="players")
    seat = state.order[0]
    narrator = rules.table.narrator(state)
    assert narrator is not None
    room, door = stand_at_room(state, seat)
    state.rooms[room] = ["map-room"]
    state.piles["monster"] = ["troll", *[c for c in state.piles["monster"] if c != "troll"]]
    state = rules.apply(state, seat, Move(to=door)).state
    with pytest.raises(NotYourTurn, match="Narrator"):
        rules.apply(state, seat, SceneNote(text="The maps rustle."))
    step = rules.apply(state, narrator, SceneNote(text="The maps rustle though no wind blows."))
    assert step.state.notes[room].text == "The maps rustle though no wind blows."
    assert step.state.moment == state.moment
    state = step.state
    state = rules.apply(state, narrator, Narrate()).state  # the Map Room card
    ScriptedDice.script = [5, 13]  # Brand misses, the Troll wounds him
    state = rules.apply(state, seat, Keep()).state
    state = rules.apply(state, narrator, Narrate(text="A troll!")).state
    state = rules.apply(state, seat, Retreat()).state
    # Later, a party walks back in: the note is told again.
    state.turn = state.order.index(seat)
    state.players[seat].doorway = door
    step = rules.apply(state, seat, Move(to=door))
    notes = [e for e in step.events if isinstance(e, NoteRead)]
    assert notes and notes[0].text.startswith("The maps rustle")
    assert "Scene note" in "\n".join(tell(public(step.state), step.events))


# --- secrets ------------------------------------------------------------------------------------------


def test_every_partys_spell_lies_face_up_as_the_book_says() -> None:
    rules, state = party_game(["Ann", "Bob", "Cy"])
    everyone = rules.view(state, None)
    for seat, p in enumerate(state.players):
        assert p.spell is not None and everyone.fighters[seat].spell == p.spell
        assert everyone.party_of(seat).spell == p.spell  # on the party picture, whoever looks
        assert rules.view(state, seat).spell == p.spell
        for other in range(len(state.players)):
            assert rules.view(state, other).fighters[seat].spell == p.spell
        for variant in rules.secret_variants(state, seat):  # a variant never swaps a spell: it is no secret
            assert [q.spell for q in variant.players] == [q.spell for q in state.players]
    first = rules.setup([SeatInfo(index=i, name=n) for i, n in enumerate(["A", "B"])], {"mode": "expanded"}, 7)
    dealt = next(e for e in first.events if isinstance(e, PartiesDealt))
    assert dealt.dealt == {i: p.spell for i, p in enumerate(first.state.players)}
    told = "\n".join(tell(public(first.state), first.events))
    assert all(spell_index()[p.spell].name in told for p in first.state.players if p.spell)
    assert "Spell Pile, face down" in told
    assert "spell_pile" not in msgspec.json.encode(rules.view(first.state, None)).decode()  # its order is hidden


# --- random play ------------------------------------------------------------------------------------------

RULES = LegendRuleset()


def junk(rng: random.Random, state: State, seat: int) -> Any:
    ids = [h.id for h in state.players[seat].party] or ["brand"]
    return rng.choice([
        Attack(), Cast(), Retreat(), Keep(), Rest(), Lead(hero=rng.choice([*ids, "nobody"])),
        Order(heroes=rng.sample(ids, len(ids))), Roll(expr=rng.choice(["d20", "3d6-2", "x"])),
        SceneNote(text=rng.choice(["", "Dust.", "x" * 400])), Move(to=rng.choice(list(B.doorways))),
        Narrate(text="hi"),
    ])


def check(state: State) -> None:
    index = card_index()
    on_rooms = [c for stack in state.rooms.values() for c in stack]
    kept = [c for p in state.players for c in p.treasure]
    in_piles = [c for pile in state.piles.values() for c in pile]
    discarded = [c for pile in state.discards.values() for c in pile]
    ex = state.exploring
    in_hand = []
    if ex:
        in_hand = list(ex.used) + [c for c in (ex.pending, ex.danger) if c]
    assert sorted(on_rooms + kept + in_piles + discarded + in_hand) == sorted(index)
    held = [p.spell for p in state.players if p.spell]
    assert sorted(held + state.spell_pile) == sorted(s.id for s in spells())
    for p in state.players:
        assert sorted(kind_of(h.id) for h in p.party) == sorted(CLASSES)
        if ex is None or ex.decision != "leader":
            standing = [h for h in p.party if not h.wounded]
            assert not standing or not p.party[-1].wounded or p.overwhelmed or state.phase == "over"
    if len(state.players) == 1:
        assert state.players[0].wounds <= 8


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(1, 5), seed=st.integers(0, 2**62), narration=st.sampled_from(["bot", "players"]),
       choice_seed=st.integers(0, 2**32))
def test_random_expanded_games_only_raise_game_errors_and_always_end(players: int, seed: int, narration: str,
                                                                      choice_seed: int) -> None:
    seats = [SeatInfo(index=i, name=f"P{i}") for i in range(players)]
    start = RULES.setup(seats, {"mode": "expanded", "narration": narration}, seed).state
    rng = random.Random(choice_seed)
    state = start
    log: list[tuple[int, Any]] = []
    for _ in range(6000):
        if state.phase == "over":
            break
        if rng.random() < 0.15:
            seat = rng.randrange(players)
            action = junk(rng, state, seat)
        else:
            seat = rng.choice(sorted(RULES.to_act(state)))
            action = rng.choice(RULES.legal(state, seat))
        try:
            step = RULES.apply(state, seat, action)
        except GameError:
            continue
        state = step.state
        log.append((seat, action))
        tell(public(state), step.events)
        check(state)
    assert state.phase == "over", "the game never ended"
    assert RULES.outcome(state) is not None
    again = msgspec.json.decode(msgspec.json.encode(state), type=State)
    assert again == state
    replay = start
    for seat, action in log:
        replay = RULES.apply(replay, seat, action).state
    assert replay == state


# --- found in review ------------------------------------------------------------------------------------


def waiting_room(narration: str) -> tuple[LegendRuleset, State, int, str, str]:
    """A party walks back into a room where the Troll was left face down."""
    rules, state = party_game(["Ann", "Bob", "Cy"], narration=narration)
    seat = state.order[0]
    room, door = stand_at_room(state, seat)
    state.rooms[room] = ["troll"]
    state = rules.apply(state, seat, Move(to=door)).state
    return rules, state, seat, room, door


def test_the_leader_is_chosen_before_a_waiting_danger_and_the_narrator_cannot_skip_it() -> None:
    rules, state, seat, _room, _door = waiting_room("players")
    assert state.exploring is not None and state.exploring.decision == "leader"
    narrator = rules.table.narrator(state)
    assert narrator is not None and narrator != seat
    with pytest.raises(NotYourTurn):
        rules.apply(state, narrator, Narrate(text="It roars!"))
    assert rules.timeout(state) is None  # nobody's deadline runs while the explorer chooses
    assert rules.to_act(state) == frozenset({seat})
    step = rules.apply(state, seat, Keep())
    assert rules.to_act(step.state) == frozenset({narrator})
    told = rules.apply(step.state, narrator, Narrate(text="ZZQ telling"))
    text = "\n".join(tell(public(told.state), told.events))
    assert "ZZQ telling" in text and "left here from before" in text


def test_the_waiting_danger_is_announced_by_name() -> None:
    rules, state = party_game(["Ann", "Bob"])
    seat = state.order[0]
    room, door = stand_at_room(state, seat)
    state.rooms[room] = ["troll"]
    step = rules.apply(state, seat, Move(to=door))
    text = "\n".join(tell(public(step.state), step.events))
    assert "Troll** left here still waits" in text and "red arrow" not in text


def test_a_scene_note_is_told_when_a_party_walks_through_an_explored_room() -> None:
    rules, state = party_game(["Ann", "Bob"])
    seat = state.order[0]
    room, door = stand_at_room(state, seat)
    state.rooms[room] = []
    state.scene = {"room": room, "narrator": None, "explorer": seat}
    state = rules.apply(state, seat, SceneNote(text="Chalk arrows point north.")).state
    through = next(d for d in rules.table.destinations(state, seat) if B.via.get((door, d)) == room)
    step = rules.apply(state, seat, Move(to=through))
    assert any(isinstance(e, NoteRead) for e in step.events)
    assert "Chalk arrows point north." in "\n".join(tell(public(step.state), step.events))


def test_an_expanded_party_enters_the_dungeon_in_plain_words() -> None:
    rules = scripted([])
    state = table(rules, ["Ann", "Bob"], mode="expanded")
    step = rules.apply(state, state.order[0], Place(to=next(iter(B.entrances))))
    line = tell(public(step.state), step.events)[0]
    assert line.startswith(f"{state.players[state.order[0]].name}'s party steps in") and "'s party's" not in line


def test_absurd_dice_are_refused_politely() -> None:
    rules, state = party_game(["Ann", "Bob"])
    for bad in ("9" * 5000 + "d6", "d" + "9" * 5000, "1" * 5000):
        with pytest.raises(IllegalAction):
            rules.apply(state, 0, Roll(expr=bad))


def test_plural_cards_read_in_plain_english() -> None:
    from rules.legend.telling import agree

    assert agree("Giant Rats", "strikes", "strike") == "strike"
    assert agree("Closing Walls", "is", "are") == "are"
    assert agree("Troll", "strikes", "strike") == "strikes"
    assert agree("Ancient Curse", "is", "are") == "is"
