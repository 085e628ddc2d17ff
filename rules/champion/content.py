"""Champion of the Empire content: the map, heroes, items, events, monsters, story cards and combat decks.

Every number the rules use comes from the TOML files in ``data/`` (the data contract is
``spec/champion-data.md``).  The loaders read each file once and convert it into frozen msgspec Structs;
a malformed file fails loudly here rather than in the middle of a game.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal, TypeVar

import msgspec

from rules.datafiles import indexed, listed, load_toml

_S = TypeVar("_S", bound=msgspec.Struct)

DATA = Path(__file__).parent / "data"

Icon = Literal["jug", "amphora", "basket", "campfire", "scroll", "bow", "sword", "chest"]
Deck = Literal["easy", "medium", "hard"]
CardType = Literal["torso", "head", "hand", "leg", "inspired"]
ItemKind = Literal["weapon", "shield", "armour", "healing", "horse", "tool"]
Fate = Literal["laurel", "skull", ""]
KeepKey = Literal["guide", "blessing", "fever", "free_passage", "lame", ""]
EventEffect = Literal[
    "none", "explore_move_minus1", "explore_move_plus1", "caravan_gold_plus1", "voyage_forbidden",
    "voyage_free", "market_closed", "market_discount1", "commission_gold_plus1", "commission_xp_plus1",
    "recuperate_plus1", "lore_free", "story_xp_plus1", "opponents_combat_plus1", "opponents_initiative_plus1",
    "heroes_initiative_plus1", "shipwreck_on_1_2", "all_gain_1_gold",
]
Ability = Literal[
    "three_headed", "single_torso", "regenerates", "stone_gaze", "armoured_hide", "fiery_breath", "bull_rush",
]

#: The eight province icons, in the order the book lists them.
ICONS: tuple[str, ...] = ("jug", "amphora", "basket", "campfire", "scroll", "bow", "sword", "chest")
#: Which story deck each icon draws from (the book: easy = jug, amphora, basket; medium = campfire, scroll,
#: bow; hard = sword and treasure chest, read as two icons).
DECK_OF_ICON: dict[str, str] = {
    "jug": "easy", "amphora": "easy", "basket": "easy",
    "campfire": "medium", "scroll": "medium", "bow": "medium",
    "sword": "hard", "chest": "hard",
}
DECKS: tuple[str, ...] = ("easy", "medium", "hard")
#: The five combat card types (attack/defence torso, head, hand, leg, and inspired combat).
CARD_TYPES: tuple[str, ...] = ("torso", "head", "hand", "leg", "inspired")
KEEP_KEYS: tuple[str, ...] = ("guide", "blessing", "fever", "free_passage", "lame")
EVENT_EFFECTS: tuple[str, ...] = EventEffect.__args__  # type: ignore[attr-defined]
ABILITIES: tuple[str, ...] = Ability.__args__  # type: ignore[attr-defined]


# --- map.toml -----------------------------------------------------------------------------------------

class MapSize(msgspec.Struct, frozen=True):
    width: int
    height: int


class Region(msgspec.Struct, frozen=True):
    id: str
    name: str
    colour: str


class Province(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    region: str
    icon: Icon
    x: int
    y: int
    city: str = ""  # the city's name, or "" (eight provinces have one)
    shrine: str = ""  # the secret shrine's name, or "" (five provinces have one)
    coast: bool = False  # borders the Mare Internum: a voyage port
    polygon: tuple[tuple[float, float], ...] = ()


class Link(msgspec.Struct, frozen=True, kw_only=True):
    a: str
    b: str
    crossing: bool = False  # a narrow crossing (strait) linking across water


class MapFile(msgspec.Struct, frozen=True):
    map: MapSize
    region: tuple[Region, ...]
    province: tuple[Province, ...]
    link: tuple[Link, ...]


# --- heroes.toml ---------------------------------------------------------------------------------------

class Side(msgspec.Struct, frozen=True, kw_only=True):
    """One of the two starting attribute sets printed on the two sides of a character sheet."""

    name: str
    xp: int = 0
    combat: int
    initiative: int
    life: int
    gold: int = 3


class Hero(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    people: str
    title: str
    start: str  # province id
    weapons: tuple[str, ...]  # the two starting weapons of the hero's people (item ids)
    bio: str = ""
    side: tuple[Side, ...]



# --- items.toml ----------------------------------------------------------------------------------------

class Item(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    kind: ItemKind
    price: int = 0
    starting: bool = False
    people: str = ""
    hands: int = 0  # 0 (not held), 1 or 2
    ranged: bool = False
    ranged_discard: int = 0  # ranged attack: the opponent discards this many combat cards ...
    ranged_wound: int = 0  # ... or loses this much life
    armed: CardType | Literal[""] = ""  # the armed combat card type this weapon adds
    armed_count: int = 0
    shield: str = ""  # shields: the wound type turned aside ("any" = every type); see RULES.md
    armour: int = 0  # wounds absorbed per fight
    heal: int = 0  # life restored when used outside combat (then discarded)
    move: int = 0  # horse: provinces added to an exploration
    text: str = ""



# --- events.toml ---------------------------------------------------------------------------------------

class EventCard(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    text: str
    effect: EventEffect = "none"



# --- monsters.toml -------------------------------------------------------------------------------------

class Monster(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    text: str = ""
    combat: int
    initiative: int
    life: int
    heads: int = 1
    single_torso: bool = False
    abilities: tuple[Ability, ...] = ()
    ability_text: tuple[str, ...] = ()



# --- stories.toml --------------------------------------------------------------------------------------

class Opponent(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    combat: int
    initiative: int
    life: int
    xp: int = 0  # experience for killing this opponent
    weapon: str = ""  # item id the opponent fights with


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    rolls: tuple[int, ...] = ()  # inclusive d6 range [low, high] on a roll card
    choice: str = ""  # a choice card: this option's label
    text: str = ""
    fate: Fate = ""
    gold: int = 0
    xp: int = 0
    life: int = 0
    full_life: bool = False
    max_life: int = 0
    combat: int = 0
    initiative: int = 0
    info: int = 0
    item: str = ""
    draw_item: bool = False
    lose_item: bool = False
    keep: KeepKey = ""
    rounds: int = 0  # combat rounds limit (0: to the death)
    win_gold: int = 0
    opponent: tuple[Opponent, ...] = ()

    def covers(self, roll: int) -> bool:
        """Whether a d6 result selects this outcome."""
        if not self.rolls:
            return False
        low, high = self.rolls[0], self.rolls[-1]
        return low <= roll <= high


class Story(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    deck: Deck
    title: str
    text: str
    roll: bool = False
    keep: KeepKey = ""
    outcome: tuple[Outcome, ...]



# --- combat.toml ---------------------------------------------------------------------------------------

class DeckCounts(msgspec.Struct, frozen=True):
    torso: int
    head: int
    hand: int
    leg: int
    inspired: int

    def cards(self) -> dict[str, int]:
        return {t: getattr(self, t) for t in CARD_TYPES}


class CombatFile(msgspec.Struct, frozen=True):
    combat: DeckCounts
    armed: DeckCounts


# --- loaders -------------------------------------------------------------------------------------------

def _load(name: str, kind: type[_S]) -> _S:
    return load_toml(DATA / name, kind)


@cache
def map_file() -> MapFile:
    """The whole map: size, regions, provinces and land links."""
    return _load("map.toml", MapFile)


def regions() -> tuple[Region, ...]:
    return map_file().region


region_index = indexed(regions)


def provinces() -> tuple[Province, ...]:
    return map_file().province


province_index = indexed(provinces)


def links() -> tuple[Link, ...]:
    return map_file().link


def neighbours() -> dict[str, tuple[str, ...]]:
    """Land adjacency (crossings included), each list in map-file order."""
    return library().near


def ports() -> tuple[str, ...]:
    """Provinces on the Mare Internum, where a voyage may start or end."""
    return library().ports


def lair_of(region: str, icon: str) -> str | None:
    """The province a last region card and a province card point to (one per region and icon)."""
    return library().lairs.get((region, icon))


heroes, hero_index = listed(DATA / "heroes.toml", "hero", Hero)
#: Every item card: the ten starting weapons and the market items.
items, item_index = listed(DATA / "items.toml", "item", Item)
events, event_index = listed(DATA / "events.toml", "event", EventCard)
monsters, monster_index = listed(DATA / "monsters.toml", "monster", Monster)
stories, story_index = listed(DATA / "stories.toml", "story", Story)


@cache
def market_items() -> tuple[Item, ...]:
    """The item deck (starting weapons are not in it)."""
    return tuple(i for i in items() if not i.starting)


@cache
def stories_by_deck() -> dict[str, tuple[Story, ...]]:
    return {d: tuple(s for s in stories() if s.deck == d) for d in DECKS}


@cache
def combat_decks() -> CombatFile:
    """How many cards of each type the combat deck and the armed combat deck hold."""
    return _load("combat.toml", CombatFile)


class Library:
    """Everything the rules read, in one bundle with its indices (tests may build one from fixtures)."""

    def __init__(self, *, map_data: MapFile, heroes: tuple[Hero, ...], items: tuple[Item, ...],
                 events: tuple[EventCard, ...], monsters: tuple[Monster, ...], stories: tuple[Story, ...],
                 combat: CombatFile) -> None:
        self.map = map_data
        self.heroes = heroes
        self.items = items
        self.events = events
        self.monsters = monsters
        self.stories = stories
        self.combat = combat
        self.region = {r.id: r for r in map_data.region}
        self.province = {p.id: p for p in map_data.province}
        self.hero = {h.id: h for h in heroes}
        self.item = {i.id: i for i in items}
        self.event = {e.id: e for e in events}
        self.monster = {m.id: m for m in monsters}
        self.story = {s.id: s for s in stories}
        near: dict[str, list[str]] = {p.id: [] for p in map_data.province}
        for link in map_data.link:
            if link.b not in near[link.a]:
                near[link.a].append(link.b)
            if link.a not in near[link.b]:
                near[link.b].append(link.a)
        self.near: dict[str, tuple[str, ...]] = {k: tuple(v) for k, v in near.items()}
        self.ports: tuple[str, ...] = tuple(p.id for p in map_data.province if p.coast)
        self.market: tuple[str, ...] = tuple(i.id for i in items if not i.starting)
        self.lairs: dict[tuple[str, str], str] = {(p.region, p.icon): p.id for p in map_data.province}

    def deck_of(self, province: str) -> str:
        """The story deck a province's icon draws from."""
        return DECK_OF_ICON[self.province[province].icon]


@cache
def library() -> Library:
    """The game's own data files, loaded once."""
    return Library(map_data=map_file(), heroes=heroes(), items=items(), events=events(), monsters=monsters(),
                   stories=stories(), combat=combat_decks())
