"""Legend of Heroes content: the dungeon plan, the Action deck and the Fighter cards, loaded from TOML.

The data files in ``data/`` are the single source of every number the rules use.  They are read once and
validated here; ``tests/test_legend_content.py`` checks the rules of the book that the data must respect.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Literal

import msgspec

from rules.datafiles import S, indexed, listed, load_toml, records
from rules.i18n import N_p

DATA = Path(__file__).parent / "data"

#: The five boxes along the bottom of every Fighter, Monster and Hazard card.  A card's red dot sits under
#: one box; the number in the *other* card's box at that position is what the roll must reach.
BOXES = ("A", "B", "C", "D", "E")

CardKind = Literal["room", "feature", "monster", "hazard", "treasure"]
HeroClass = Literal["fighter", "dwarf", "cleric", "rogue", "magic"]

#: The five kinds of Hero in the Expanded Game, in the order a Party is dealt and first lined up.
CLASSES: tuple[HeroClass, ...] = ("fighter", "dwarf", "cleric", "rogue", "magic")
#: The kinds' names, in English (msgids of context ``class``: show them with ``_p("class", name)``).
CLASS_NAMES: dict[str, str] = {
    "fighter": N_p("class", "Fighter"), "dwarf": N_p("class", "Dwarf"), "cleric": N_p("class", "Cleric"),
    "rogue": N_p("class", "Rogue"), "magic": N_p("class", "Magic User"),
}
NextKind = Literal["feature", "monster", "hazard", "treasure", "end"]


# --- the dungeon plan -------------------------------------------------------------------------------

class Grid(msgspec.Struct, frozen=True):
    cols: int
    rows: int


class Room(msgspec.Struct, frozen=True):
    id: str  # "R1".."R12", numbered in reading order
    x: int  # top-left cell, inclusive
    y: int
    w: int
    h: int


class Doorway(msgspec.Struct, frozen=True):
    id: str  # "D1".., numbered in reading order (top to bottom, then left to right)
    x: int
    y: int
    room: str | None = None  # the room whose wall it sits on; None for a doorway by an entrance
    side: Literal["n", "e", "s", "w"] | None = None  # which wall of that room


class Corridor(msgspec.Struct, frozen=True):
    id: str
    cells: tuple[tuple[int, int], ...]
    doorways: tuple[str, ...]


class Entrance(msgspec.Struct, frozen=True):
    id: str  # "E1".."E5"
    x: int
    y: int
    doorway: str  # the red doorway square beside it, where a fighter starts
    name: str  # "west entrance"


class Dungeon(msgspec.Struct, frozen=True):
    grid: Grid
    room: tuple[Room, ...]
    doorway: tuple[Doorway, ...]
    corridor: tuple[Corridor, ...]
    entrance: tuple[Entrance, ...]


# --- the cards --------------------------------------------------------------------------------------

class ActionCard(msgspec.Struct, frozen=True, kw_only=True):
    """One Action card.  Texts are ours; ``text`` is read when the card is drawn.

    Monster and Hazard cards have two parts: ``text`` (above the picture, read when drawn) and ``after``
    (read once the danger is overcome).  ``needs[i]`` is the roll a Fighter whose red dot is under box i
    must reach.  A Monster's own red dot (``dot``) points at a box on the Fighter card: that number is
    what the Monster must roll to wound him.
    """

    id: str
    kind: CardKind
    title: str
    text: str
    next: NextKind
    after: str = ""
    needs: tuple[int, ...] = ()
    dot: int | None = None
    gold: int = 0
    #: The Expanded Game's rows of boxes for the other four kinds of Hero (Fighters read ``needs``):
    #: ``party["rogue"][i]`` is what a Rogue whose red dot is under box i must roll.
    party: dict[str, tuple[int, ...]] = msgspec.field(default_factory=dict)


class CardFile(msgspec.Struct, frozen=True):
    room: tuple[ActionCard, ...]
    feature: tuple[ActionCard, ...]
    monster: tuple[ActionCard, ...]
    hazard: tuple[ActionCard, ...]
    treasure: tuple[ActionCard, ...]


class Fighter(msgspec.Struct, frozen=True):
    id: str
    name: str
    dot: int  # the box on Monster and Hazard cards this Fighter's red dot points at
    defence: tuple[int, ...]  # defence[i]: what a Monster whose red dot is at box i must roll to wound him
    text: str  # a line about him, unwounded side
    wounded_text: str  # the wounded side



class Hero(msgspec.Struct, frozen=True):
    """A Hero card of the Expanded Game.  The five starter Fighters are the Fighter heroes."""

    id: str
    name: str
    kind: HeroClass = msgspec.field(name="class")
    dot: int  # the box of its class's row on Monster and Hazard cards that its red dot points at
    defence: tuple[int, ...]  # defence[i]: what a Monster whose red dot is at box i must roll to wound it
    text: str
    wounded_text: str



class Spell(msgspec.Struct, frozen=True):
    """A Spell card: the roll the Magic User needs, and for each box whether it works on a Monster whose
    red dot points there (``works[i]`` False: that Monster is immune — "No Effect")."""

    id: str
    name: str
    roll: int
    works: tuple[bool, ...]
    text: str  # what the spell looks like when cast (read on a success)
    fizzle: str  # what a monster immune to it does to it



def _load(name: str, kind: type[S]) -> S:
    return load_toml(DATA / name, kind)


def _tag(cards: list[dict[str, object]], kind: str) -> list[dict[str, object]]:
    return [{**c, "kind": kind} for c in cards]


@cache
def dungeon() -> Dungeon:
    """The Dungeons of Legend: rooms, doorways, corridors and the five entrances."""
    return _load("dungeon.toml", Dungeon)


@cache
def cards() -> CardFile:
    """Every Action card, grouped by pile."""
    raw = tomllib.loads((DATA / "cards.toml").read_text(encoding="utf-8"))
    tagged = {k: _tag(raw.get(k, []), k) for k in ("room", "feature", "monster", "hazard", "treasure")}
    return msgspec.convert(tagged, CardFile)


@cache
def card_index() -> dict[str, ActionCard]:
    """Every Action card by id (ids are unique across piles)."""
    deck = cards()
    return {c.id: c for pile in (deck.room, deck.feature, deck.monster, deck.hazard, deck.treasure) for c in pile}


#: The Fighter cards, in the order of the data file.
fighters, fighter_index = listed(DATA / "fighters.toml", "fighter", Fighter)


@cache
def heroes() -> tuple[Hero, ...]:
    """Every Hero card: the starter Fighters (as Fighter heroes) and the other four kinds."""
    as_heroes = tuple(Hero(id=f.id, name=f.name, kind="fighter", dot=f.dot, defence=f.defence, text=f.text,
                           wounded_text=f.wounded_text) for f in fighters())
    return as_heroes + records(DATA / "heroes.toml", "hero", Hero)


hero_index = indexed(heroes)


#: The Spell cards, in the order of the data file.
spells, spell_index = listed(DATA / "spells.toml", "spell", Spell)


def need(card: ActionCard, hero: Hero) -> int:
    """The roll a Hero must reach against a Monster or Hazard: the box under its red dot, in its row."""
    row = card.needs if hero.kind == "fighter" else card.party[hero.kind]
    return row[hero.dot]
