"""The game state, the actions and the events, as msgspec Structs (a lossless JSON round trip).

What is secret lives here next to what is public; ``view.build_view`` decides who sees what: a player's
programmed row (until each order resolves), the types of their soldiers (the count is public), their unbuilt
building chips, their fame chips in the hidden central area, their choice at a show of strength (until all
have chosen), and the order of the waiting chips beyond the next one of each pile."""

from __future__ import annotations

import msgspec

from rules.core import Action, Event, SeatEvent


class Player(msgspec.Struct):
    name: str
    city: int = 0  # 0: not placed yet
    soldiers: list[int] = msgspec.field(default_factory=list)  # soldier types, kept sorted (secret types)
    gold: int = 0
    renown: int = 0  # fame points gained straight onto the track (titans, shows of strength)
    held: int = 0  # building chips not built yet (secret)
    central: int = 0  # fame chips in the hidden central area (secret until the end)
    row: list[str] = msgspec.field(default_factory=list)  # this year's orders (secret until resolved)
    locked: bool = False
    reveal: str | None = None  # at a show of strength: the types shown, e.g. "12" or "" (secret until all chose)
    path: list[int] = msgspec.field(default_factory=list)  # the cities this year's orders led through


class Building(msgspec.Struct):
    owner: int = -1
    levels: int = 0


class Pending(msgspec.Struct):
    """A decision that holds up the year's resolution: the hunter's rewards, then the dummy's raise."""

    kind: str  # "reward" or "dummy"
    seat: int
    chip: int
    city: int


class State(msgspec.Struct):
    players: list[Player]
    short: bool
    dummy: list[int] | None  # the dummy player's fame, gold and building points (None: no dummy)
    ranking: list[str]  # the order of the final rankings, drawn at setup: "fame", "gold", "building"
    slot: list[int]  # per city (index city-1): the chip lying there, or -1
    taken: list[int]  # per city: soldiers already recruited from its recruitment chip
    recruit_pile: list[int]  # waiting chips, recruitment side up (the first is shown)
    monster_pile: list[int]  # waiting chips, monster side up (the first is shown)
    buildings: list[Building]  # per city
    fame: dict[str, list[int]]  # per visible area: each seat's fame chips
    titans: list[str]  # per titan: "asleep", "awake" or "slain"
    phase: str = "city"  # city, program, reward, dummy, show, over
    year: int = 1
    start: int = 0  # the start player this year
    turn: int = 0  # in the city phase: who chooses next
    cursor: int = 0  # the next order to resolve this year: slot * players + position from the start player
    acted: list[list[int]] = msgspec.field(default_factory=list)  # per seat: cities acted in this year
    pending: Pending | None = None
    stamp: int = 0  # changes whenever what may be done next changes (controls carry it)
    out: list[int] = msgspec.field(default_factory=list)  # eliminated in the final rankings, in order
    winner: int | None = None  # a seat, or len(players) for the dummy
    rng: int = 0


# --- actions -----------------------------------------------------------------------------------------------


class ChooseCity(Action, tag="city", frozen=True):
    city: int


class SetOrder(Action, tag="order", frozen=True):
    slot: int  # 0-based
    order: str


class SetRow(Action, tag="row", frozen=True):
    orders: tuple[str, ...]
    lock: bool = False


class Lock(Action, tag="lock", frozen=True):
    pass


class AutoRow(Action, tag="auto_row", frozen=True):
    """Tabula programs this seat's year and locks it in (an absent player after the timeout, or on request)."""


class TakeRewards(Action, tag="rewards", frozen=True):
    first: str  # two of "building", "gold", "fame", in that order
    second: str
    area: str = ""  # where the fame chips go, when fame is taken


class RaiseDummy(Action, tag="raise", frozen=True):
    track: str  # "fame", "gold" or "building"


class Reveal(Action, tag="reveal", frozen=True):
    types: str  # the soldier types shown, e.g. "13"; "" shows nothing


EiyuAction = ChooseCity | SetOrder | SetRow | Lock | AutoRow | TakeRewards | RaiseDummy | Reveal


# --- events ------------------------------------------------------------------------------------------------


class CityChosen(SeatEvent, tag="city_chosen", frozen=True):
    city: int


class YearBegins(Event, tag="year_begins", frozen=True):
    year: int
    start: int


class TitanWakes(Event, tag="titan_wakes", frozen=True):
    titan: int


class Locked(SeatEvent, tag="locked", frozen=True): ...


class Programmed(SeatEvent, tag="programmed", frozen=True):
    """Someone changed their row (what they set stays secret)."""


class Resolving(Event, tag="resolving", frozen=True):
    """Every row is locked: the year resolves."""

    year: int


class Moved(SeatEvent, tag="moved", frozen=True):
    slot: int
    colour: str
    origin: int
    to: int


class Waited(SeatEvent, tag="waited", frozen=True):
    slot: int
    order: str
    city: int
    why: str  # "wait", "no_road", "nothing", "acted", "troops"


class Recruited(SeatEvent, tag="recruited", frozen=True):
    slot: int
    city: int
    soldier: int


class ChipFlipped(Event, tag="chip_flipped", frozen=True):
    """A chip leaves a city and is turned over: an emptied recruitment chip joins the waiting monsters, a hunted
    monster the waiting recruitment chips (at the bottom of the pile)."""

    city: int
    chip: int
    became: str  # "monster" or "recruit"


class ChipLaid(Event, tag="chip_laid", frozen=True):
    """The first waiting chip of a city's kind is laid in a city left empty."""

    city: int
    chip: int
    side: str  # "monster" or "recruit"


class Shuffled(Event, tag="shuffled", frozen=True):
    """The chips are shuffled at setup, the ranking order and the first start player are drawn (the piles' order
    stays unknown)."""

    ranking: tuple[str, ...]
    start: int = 0


class Hunted(SeatEvent, tag="hunted", frozen=True):
    slot: int
    city: int
    chip: int
    spent: tuple[int, ...]


class RewardsTaken(SeatEvent, tag="rewards_taken", frozen=True):
    """What everyone may see of a hunter's rewards: gold, the levels built, fame chips in a visible area, and how
    many rewards went where nobody else can see (a building chip kept, fame chips in the hidden centre)."""

    city: int
    gold: int = 0
    built: int = 0
    built_city: int = 0
    fame: int = 0
    area: str = ""
    hidden: int = 0


class DummyRaised(SeatEvent, tag="dummy_raised", frozen=True):
    track: str
    by: int
    now: int


class TitanSlain(SeatEvent, tag="titan_slain", frozen=True):
    slot: int
    city: int
    titan: int
    paid: int
    gold: int
    fame: int


class YearEnds(Event, tag="year_ends", frozen=True):
    year: int
    paths: tuple[tuple[int, ...], ...]


class ShowChosen(SeatEvent, tag="show_chosen", frozen=True):
    """Someone has chosen what to show (what stays secret until everyone has)."""


class ShowBegins(Event, tag="show_begins", frozen=True):
    show: int


class Shown(Event, tag="shown", frozen=True):
    """A show of strength, revealed: each seat's soldiers shown per type (0: not shown) and the winners."""

    show: int
    shown: tuple[tuple[int, ...], ...]  # per seat, per type 1..4
    winners: tuple[int, ...]  # per type 1..4: the seat with the most, or -1
    rewards: tuple[str, ...]  # per type: "gold 3", "fame 2"


class Ranked(Event, tag="ranked", frozen=True):
    """One ranking: the contestants from first to last with their scores; ``out`` is eliminated."""

    track: str
    order: tuple[int, ...]  # seats (len(players) is the dummy)
    scores: tuple[int, ...]
    out: int
    why: str  # "" or how the tie for last was broken: "soldiers", "start", "dummy"


class GameWon(Event, tag="game_won", frozen=True):
    winner: int
    fame: tuple[int, ...]  # final scores per contestant (the dummy last, if any)
    gold: tuple[int, ...]
    building: tuple[int, ...]


#: Every event the game reports (what ``apply`` returns in its ``Step``).
EiyuEvent = (
    CityChosen | YearBegins | TitanWakes | Locked | Programmed | Resolving | Moved | Waited | Recruited
    | ChipFlipped | ChipLaid | Shuffled | Hunted | RewardsTaken | DummyRaised | TitanSlain | YearEnds | ShowChosen
    | ShowBegins | Shown | Ranked | GameWon
)
