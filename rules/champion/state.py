"""Champion of the Empire: the game state, the actions a seat can take and the events the game reports."""

from __future__ import annotations

from typing import Literal

import msgspec

from rules.core import Action, Event, SeatEvent

Phase = Literal[
    "setup",  # everyone picks hero, side and starting weapon, then sees the two-card item offer
    "action",  # the current hero chooses an action (and may develop or use a healing item)
    "lair",  # moved onto the monster's lair: attack it or draw the story card
    "fate",  # the fate track offers two story cards: the hero (skull) or the right-hand player (laurel) picks
    "story",  # a choice story card: the hero picks an option
    "monster",  # the hero chooses the monster sheet
    "item",  # someone must choose an item to give up (over the limit, shipwreck, story, defeat)
    "combat",  # a fight is on (see Combat.step)
    "market",  # the local market: buy one of three cards or pass
    "over",
]
CombatStep = Literal["weapon", "ranged", "hero_attack", "foe_defend", "foe_attack", "hero_defend", "keep"]

#: Token colours in seating order, each with the letter drawn on the token (a cue beyond colour).
COLOURS = (("red", "R"), ("blue", "B"), ("green", "G"), ("orange", "O"))

#: The development costs of the book: experience points per +1.
DEVELOP_COST = {"initiative": 4, "combat": 3, "life": 2}
ITEM_LIMIT = 4
FATE_LIMIT = 2


class Kept(msgspec.Struct):
    """A story card placed in front of a hero: its effect waits for the hero's next turns."""

    card: str
    key: str
    round: int  # the round it was placed; it works from the next round on


class Hero(msgspec.Struct):
    name: str  # the player's name
    colour: str
    letter: str
    hero: str = ""  # hero id, "" until chosen
    side: int = -1
    weapon: str = ""  # the starting weapon (never lost)
    province: str = ""
    life: int = 0
    max_life: int = 0
    combat: int = 0  # maximum combat value
    initiative: int = 0
    xp: int = 0
    gold: int = 0
    info: int = 0
    items: list[str] = msgspec.field(default_factory=list)
    regions: list[str] = msgspec.field(default_factory=list)  # region cards still in hand
    province_card: str = ""  # the icon on the drawn province card, "" if none
    monster: str = ""
    shrines: list[str] = msgspec.field(default_factory=list)  # shrine provinces used for lore
    fate: int = 0
    kept: list[Kept] = msgspec.field(default_factory=list)
    last_action: str = ""
    turn_end: str = ""  # where the hero's previous turn ended (lore needs a shrine there)
    offer: list[str] = msgspec.field(default_factory=list)  # setup: the two item cards on offer
    offer_done: bool = False


class Foe(msgspec.Struct):
    """One opponent in a fight (a story opponent, a monster, or one head of Kerberos)."""

    name: str
    combat: int
    initiative: int
    life: int
    max_life: int
    xp: int = 0
    weapon: str = ""
    controller: int = -1  # the seat playing it; -1 = Tabula
    hand: list[str] = msgspec.field(default_factory=list)
    play: str = ""  # the card chosen for the group's attack, secret until every opponent has chosen
    keep: list[str] | None = None  # the cards chosen to keep at the end of a combat round
    order: list[str] = msgspec.field(default_factory=list)  # its player's queued order to throw cards down
    hide_used: bool = False  # armoured hide: the first wound of this round was ignored already


class Combat(msgspec.Struct):
    kind: Literal["story", "monster"]
    foes: list[Foe]
    step: CombatStep = "weapon"
    story: str = ""
    monster: str = ""
    abilities: list[str] = msgspec.field(default_factory=list)
    rounds: int = 0  # the story's limit of combat rounds, 0 = to the death
    round: int = 1
    win_gold: int = 0
    weapon: str | None = None  # the hero's weapon for this fight ("" = none)
    second: str = ""  # a second one-handed weapon paired with it ("" = none; no shield then)
    hand: list[str] = msgspec.field(default_factory=list)  # the hero's combat cards
    hero_keep: list[str] | None = None
    hero_order: list[str] = msgspec.field(default_factory=list)  # the hero's queued order to throw cards down
    attacker: str = ""  # "hero" or "foes": who attacked last combat turn
    yours: str = ""  # "hero"/"foes": won the next attack without a roll (defended with an inspired card)
    target: int = -1  # the opponent the hero attacks
    attack: str = ""  # the card type the hero attacks with
    attacks: list[list[str]] = msgspec.field(default_factory=list)  # [[foe index, type]] the hero must answer
    leg: int = 0  # leg wounds the hero took this fight (each lowers initiative by one)
    armour: int = 0  # wounds the hero's armour still absorbs this fight
    bonus: int = 0  # extra (or fewer) combat cards from kept story cards
    kills: list[int] = msgspec.field(default_factory=list)
    xp: int = 0  # kill experience earned so far
    over: str = ""  # "fled" once the story's combat rounds run out


class StoryDraw(msgspec.Struct):
    """The story card being resolved (or the two on offer under the fate track)."""

    cards: list[str]
    deck: str
    chooser: int = -1  # fate track: who picks from the two cards
    outcome: int = -1  # the chosen/rolled outcome index


class State(msgspec.Struct):
    opponents: Literal["players", "bot"]
    fate: bool
    short: bool
    heroic: bool
    rng: int
    heroes: list[Hero]
    order: list[int]  # seats in turn order; the player to your right is the one before you
    turn: int = 0
    round: int = 0
    phase: Phase = "setup"
    event: str = ""
    events: list[str] = msgspec.field(default_factory=list)  # event draw pile, top first
    event_discard: list[str] = msgspec.field(default_factory=list)
    stories: dict[str, list[str]] = msgspec.field(default_factory=dict)
    story_discard: dict[str, list[str]] = msgspec.field(default_factory=dict)
    item_deck: list[str] = msgspec.field(default_factory=list)
    item_out: list[str] = msgspec.field(default_factory=list)  # offer cards waiting to be shuffled back
    market: list[str] = msgspec.field(default_factory=list)
    combat_deck: list[str] = msgspec.field(default_factory=list)
    combat_discard: list[str] = msgspec.field(default_factory=list)
    armed: list[str] = msgspec.field(default_factory=list)  # the face-up armed combat cards
    province_cards: list[str] = msgspec.field(default_factory=list)
    monsters: list[str] = msgspec.field(default_factory=list)  # monster sheets not taken yet
    monster_offer: list[str] = msgspec.field(default_factory=list)
    chosen_monsters: int = 0  # how many heroes have taken a monster sheet
    tasks: list[str] = msgspec.field(default_factory=list)  # what is left of the current turn, in order
    draw: StoryDraw | None = None
    combat: Combat | None = None
    losing: list[str] = msgspec.field(default_factory=list)  # item choice: [why, chooser seat]
    last_move: dict[str, object] | None = None
    moved: bool = False  # the current action moved the hero (a story card follows)
    winner: int = -1
    moment: int = 0  # changes when the decision in front of the players changes (buttons carry it)


# --- actions --------------------------------------------------------------------------------------


class Pick(Action, tag="pick", frozen=True):
    """Setup: choose your hero, the side of the sheet (1 or 2) and one of your people's starting weapons."""

    hero: str
    side: int
    weapon: str


class Buy(Action, tag="buy", frozen=True):
    """Buy an item from the setup offer or the local market (at the limit, you then choose one to give up)."""

    item: str


class Pass(Action, tag="pass", frozen=True):
    """Skip the offer or the market; at the lair, draw the story card instead of attacking."""


class Caravan(Action, tag="caravan", frozen=True):
    to: str


class Explore(Action, tag="explore", frozen=True):
    path: tuple[str, ...]


class Voyage(Action, tag="voyage", frozen=True):
    to: str


class Commission(Action, tag="commission", frozen=True):
    reward: str  # "xp" | "gold"


class Recuperate(Action, tag="recuperate", frozen=True):
    pass


class Lore(Action, tag="lore", frozen=True):
    pass


class Develop(Action, tag="develop", frozen=True):
    attribute: str  # "initiative" | "combat" | "life"


class Use(Action, tag="use", frozen=True):
    item: str


class Attack(Action, tag="attack", frozen=True):
    """Attack the mythological monster in its lair."""


class Choose(Action, tag="choose", frozen=True):
    """Pick an option: a story card's choice (its number), a story card on offer, or a monster sheet."""

    option: str
    auto: bool = False


class Drop(Action, tag="drop", frozen=True):
    """Give up an item (over the limit, shipwreck, a story, or chosen by the left-hand player after defeat)."""

    item: str
    auto: bool = False


class Weapon(Action, tag="weapon", frozen=True):
    """Combat: the weapon you fight with ("" = none, "gladius+sica" = two one-handed weapons paired); it cannot
    change during the fight."""

    item: str


class Ranged(Action, tag="ranged", frozen=True):
    """Combat: your one ranged attack before melee ("" = none), at opponent ``target``."""

    item: str
    target: int = 0


class Play(Action, tag="play", frozen=True):
    """Combat: attack with a card type.  The hero names a ``target`` opponent; a controller names its ``foe``."""

    card: str
    target: int = 0
    foe: int = -1
    auto: bool = False


class Defend(Action, tag="defend", frozen=True):
    """Combat: with no matching card, choose which card to throw down as you take the wound.  ``order``
    queues the choice for the rest of the fight: later throws take the first type held in that order."""

    card: str
    foe: int = -1
    auto: bool = False
    order: tuple[str, ...] = ()


class Keep(Action, tag="keep", frozen=True):
    """Combat: the end of a combat round: keep at most two card types (the rest are redrawn)."""

    cards: tuple[str, ...] = ()
    foe: int = -1
    auto: bool = False


ChampionAction = (
    Pick | Buy | Pass | Caravan | Explore | Voyage | Commission | Recuperate | Lore | Develop | Use | Attack
    | Choose | Drop | Weapon | Ranged | Play | Defend | Keep
)


# --- events ---------------------------------------------------------------------------------------


class Seated(Event, tag="seated", frozen=True):
    order: list[int]
    first: int
    colours: dict[int, str]


class Shuffled(Event, tag="shuffled", frozen=True):
    pile: str
    cards: int


class Picked(SeatEvent, tag="picked", frozen=True):
    hero: str
    side: str
    weapon: str


class Offered(SeatEvent, tag="offered", frozen=True):
    cards: list[str]
    where: str  # "setup" | "market"


class Bought(SeatEvent, tag="bought", frozen=True):
    item: str
    price: int


class Passed(SeatEvent, tag="passed", frozen=True):
    what: str


class RoundBegan(Event, tag="round", frozen=True):
    round: int
    event: str


class GoldForAll(Event, tag="gold_for_all", frozen=True):
    gold: int


class TurnBegan(SeatEvent, tag="turn", frozen=True):
    round: int


class Moved(SeatEvent, tag="moved", frozen=True):
    path: list[str]
    by: str


class Gained(SeatEvent, tag="gained", frozen=True):
    """Attributes changed: each key ("gold", "xp", "life", "max_life", "combat", "initiative") to its delta."""

    changes: dict[str, int]
    why: str


class Rolled(SeatEvent, tag="rolled", frozen=True):
    roll: int
    why: str


class Shipwreck(SeatEvent, tag="shipwreck", frozen=True): ...


class Developed(SeatEvent, tag="developed", frozen=True):
    attribute: str
    cost: int


class Used(SeatEvent, tag="used", frozen=True):
    item: str
    life: int


class ItemGained(SeatEvent, tag="item_gained", frozen=True):
    item: str


class ItemLost(SeatEvent, tag="item_lost", frozen=True):
    item: str
    why: str
    chooser: int


class Information(SeatEvent, tag="information", frozen=True):
    info: int
    source: str  # "lore" | story card id
    region_discarded: bool


class ProvinceCard(SeatEvent, tag="province_card", frozen=True):
    """The hero drew a province card: the lair is known to them (only the seat's view says where)."""


class MonsterOffer(SeatEvent, tag="monster_offer", frozen=True):
    monsters: list[str]


class MonsterTaken(SeatEvent, tag="monster_taken", frozen=True):
    monster: str
    chosen: bool


class TrailLost(SeatEvent, tag="trail_lost", frozen=True):
    info: int


class StoryDrawn(SeatEvent, tag="story_drawn", frozen=True):
    deck: str
    cards: list[str]
    chooser: int = -1


class StoryChosen(SeatEvent, tag="story_chosen", frozen=True):
    card: str
    by: int
    auto: bool = False


class StoryOutcome(SeatEvent, tag="story_outcome", frozen=True):
    card: str
    outcome: int
    roll: int = 0


class CardKept(SeatEvent, tag="card_kept", frozen=True):
    card: str
    key: str


class KeptUsed(SeatEvent, tag="kept_used", frozen=True):
    card: str
    key: str


class FateMoved(SeatEvent, tag="fate_moved", frozen=True):
    fate: int
    mark: str


class Reshuffled(Event, tag="reshuffled", frozen=True):
    pile: str
    cards: int


class FightBegan(SeatEvent, tag="fight_began", frozen=True):
    kind: str
    foes: list[dict[str, object]]  # name, combat, initiative, life, controller
    rounds: int


class WeaponChosen(SeatEvent, tag="weapon_chosen", frozen=True):
    item: str
    armed: int
    second: str = ""  # a second one-handed weapon paired with the first


class CardsDrawn(Event, tag="cards_drawn", frozen=True):
    """Combat cards drawn (counts only; hands are secret)."""

    who: str  # "hero" or the opponent's name
    foe: int
    cards: int
    kept: int
    round: int


class RangedAttack(Event, tag="ranged_attack", frozen=True):
    by: str
    item: str
    target: str
    discarded: int
    wound: int


class InitiativeRolled(Event, tag="initiative", frozen=True):
    hero_roll: int
    foe_roll: int
    hero_total: int
    foe_total: int
    roller: str  # the opponent who rolled for the group
    attacker: str  # "hero" | "foes"
    reason: str


class NoRoll(Event, tag="no_roll", frozen=True):
    attacker: str
    reason: str


class CardPlayed(Event, tag="card_played", frozen=True):
    by: str  # "hero" or the opponent's name
    foe: int
    card: str
    role: str  # "attack" | "defence" | "thrown" (no match: thrown down while wounded)
    auto: bool = False
    why: str = ""  # played without asking: "only" (the one card it could be), "queued" (the player's order)


class CardChosen(SeatEvent, tag="card_chosen", frozen=True):
    """A player chose an opponent's attack card, face down until every opponent has chosen."""

    foe: int
    name: str


class Wound(Event, tag="wound", frozen=True):
    who: str
    foe: int
    card: str
    life: int  # life lost
    left: int  # life remaining
    initiative: int  # initiative now (a leg wound lowers it)
    absorbed: str = ""  # "shield" | "armour" | "hide": nothing was lost


class FoeDied(Event, tag="foe_died", frozen=True):
    name: str
    foe: int
    xp: int


class CombatRoundEnded(Event, tag="combat_round_ended", frozen=True):
    round: int


class Regenerated(Event, tag="regenerated", frozen=True):
    foe: int
    life: int


class Gazed(Event, tag="gazed", frozen=True):
    """Stone gaze: the hero lost a combat card."""

    cards: int


class FightEnded(SeatEvent, tag="fight_ended", frozen=True):
    result: str  # "won" | "fled" | "lost"
    xp: int
    gold: int


class Defeated(SeatEvent, tag="defeated", frozen=True):
    gold_lost: int
    life: int


class Champion(SeatEvent, tag="champion", frozen=True):
    monster: str


ChampionEvent = (
    Seated | Shuffled | Picked | Offered | Bought | Passed | RoundBegan | GoldForAll | TurnBegan | Moved | Gained
    | Rolled | Shipwreck | Developed | Used | ItemGained | ItemLost | Information | ProvinceCard | MonsterOffer
    | MonsterTaken | TrailLost | StoryDrawn | StoryChosen | StoryOutcome | CardKept | KeptUsed | FateMoved
    | Reshuffled | FightBegan | WeaponChosen | CardsDrawn | RangedAttack | InitiativeRolled | NoRoll | CardPlayed
    | CardChosen | Wound | FoeDied | CombatRoundEnded | Regenerated | Gazed | FightEnded | Defeated | Champion
)
