"""Champion of the Empire as a seat may see it: the typed view (frozen Structs) that presenters and renderers
read, and the secret variants the conformance suite compares views across.

The public view (seat None) holds the whole table: heroes and their sheets, the round's event, the last move,
the provinces in reach, the fight (counts of cards, never the cards), the story card being answered.  A
seat's view adds ``secret``: its region cards, its lair, its combat hand and the hands of the opponents it
plays, its setup offer and the monster sheets offered to it.  Standing in one's own lair is a secret: every
other view reads it as an ordinary turn (phase ``action``); only ``secret.in_lair`` says it.
"""

from __future__ import annotations

from collections.abc import Iterator

import msgspec

from rules.champion.engine import Engine
from rules.champion.engine.combat import card_type
from rules.champion.i18n import N_, _, comma, local
from rules.champion.state import Hero, State
from rules.core import copier

_copy = copier(State)


class KeptView(msgspec.Struct, frozen=True):
    card: str
    key: str


class HeroView(msgspec.Struct, frozen=True):
    """One hero's sheet as everyone sees it (the player's name, colour and letter before a hero is chosen)."""

    seat: int
    player: str
    colour: str
    letter: str
    hero: str | None = None
    side: str | None = None  # the side's name ("Veteran")
    weapon: str | None = None
    province: str | None = None
    life: int = 0
    max_life: int = 0
    combat: int = 0
    max_combat: int = 0
    initiative: int = 0
    xp: int = 0
    gold: int = 0
    info: int = 0
    items: tuple[str, ...] = ()
    fate: int = 0
    to_act: bool = False
    shrines: tuple[str, ...] = ()
    regions_left: int = 0
    kept: tuple[KeptView, ...] = ()
    monster: str | None = None  # the monster sheet lies face up once taken
    knows_lair: bool = False  # drew a province card (where it points is secret)
    info_needed: int = 6


class MoveView(msgspec.Struct, frozen=True):
    seat: int
    path: tuple[str, ...]
    by: str  # "caravan" | "explore" | "voyage"


class FoeView(msgspec.Struct, frozen=True):
    name: str
    life: int
    max_life: int
    initiative: int
    combat: int
    cards: int
    controller: int  # the seat playing it; -1 = Tabula
    alive: bool
    chosen: bool  # has chosen its card for the group's attack (the card stays hidden)


class CombatView(msgspec.Struct, frozen=True):
    kind: str  # "story" | "monster"
    step: str
    hero: int
    round: int
    rounds: int
    foes: tuple[FoeView, ...]
    story: str | None = None
    monster: str | None = None
    weapon: str | None = None
    second: str | None = None  # a second one-handed weapon paired with the first
    hero_cards: int = 0
    hero_initiative: int = 0
    attacker: str | None = None
    hero_attack: str = ""  # the card the hero attacked with last (played face up)
    attack: str | None = None  # while an opponent must answer: the hero's attack card
    target: int | None = None  # … and the opponent attacked
    attacks: tuple[tuple[int, str], ...] = ()  # the opponents' attacks the hero must answer


class LosingView(msgspec.Struct, frozen=True):
    why: str  # "limit" | "shipwreck" | "story" | "defeat"
    chooser: int
    owner: int
    incoming: str | None = None  # at the limit: the new item waiting beside the sheet


class FoeHand(msgspec.Struct, frozen=True):
    foe: int
    cards: tuple[str, ...]  # card types


class SecretView(msgspec.Struct, frozen=True):
    """What only this seat knows."""

    seat: int
    regions: tuple[str, ...] = ()
    lair: str | None = None
    in_lair: bool = False  # the hero stands in their own lair and chooses: attack, or draw a story card
    hand: tuple[str, ...] = ()  # combat card types, sorted
    hand_cards: tuple[str, ...] = ()
    foe_hands: tuple[FoeHand, ...] = ()
    offer: tuple[str, ...] = ()  # setup: the two item cards turned up for this player
    monster_offer: tuple[str, ...] = ()


class ChampionView(msgspec.Struct, frozen=True):
    round: int
    phase: str  # the phase as everyone reads it ("lair" never appears: it reads "action")
    heroes: tuple[HeroView, ...]
    caption: str
    opponents: str
    order: tuple[int, ...]
    to_act: tuple[int, ...]
    info_needed: int
    fate: bool = False
    short: bool = False
    heroic: bool = False
    event: str | None = None
    current: int | None = None
    highlight: tuple[str, ...] = ()
    last_move: MoveView | None = None
    market: tuple[str, ...] = ()
    price_cut: int = 0
    voyage_cost: int = 2
    combat: CombatView | None = None
    story: str | None = None  # the story card being answered (phase "story")
    story_offer: tuple[str, ...] = ()  # the fate track's two cards (phase "fate")
    monster_choice: int = 0  # how many monster sheets are offered to the current hero (phase "monster")
    losing: LosingView | None = None
    winner: int | None = None
    secret: SecretView | None = None

    def hero(self, seat: int) -> HeroView:
        return self.heroes[seat]


def public_phase(state: State) -> str:
    return "action" if state.phase == "lair" else state.phase


def caption(game: Engine, state: State) -> str:
    if state.phase == "over":
        return game.table.winner_line(state)
    if state.phase == "setup":
        waiting = [state.heroes[i].name for i in sorted(game.to_act(state))]
        return _("Choosing heroes · waiting for {players}", players=comma(waiting))
    h = state.heroes[state.order[state.turn]]
    lib = local(game.lib)
    hero = lib.hero[h.hero].name if h.hero in lib.hero else h.hero
    event = lib.event[state.event].name if state.event in lib.event else ""
    # Standing in one's own lair is a secret (it would give the lair away): it reads like any turn.
    what = _(CAPTION_PHASES[state.phase])
    line = _("{player} ({hero}) {what} · round {round}", player=h.name, hero=hero, what=what, round=state.round)
    return line + (f" · {event}" if event else "")


#: What the hero whose turn it is is doing, as the caption says it.
CAPTION_PHASES = {"action": N_("to act"), "lair": N_("to act"), "fate": N_("facing fate"), "story": N_("choosing"),
                  "monster": N_("choosing a monster"), "item": N_("giving up an item"), "combat": N_("fighting"),
                  "market": N_("at the market")}


def _combat(game: Engine, state: State) -> CombatView | None:
    c = state.combat
    if c is None:
        return None
    melee = game.table.melee(state)
    answering = c.step == "foe_defend"
    return CombatView(
        kind=c.kind, step=c.step, hero=state.order[state.turn], round=c.round, rounds=c.rounds,
        story=c.story or None, monster=c.monster or None, weapon=c.weapon, second=c.second or None,
        hero_cards=len(c.hand),
        hero_initiative=melee.hero_initiative(), attacker=c.attacker or None, hero_attack=c.attack,
        attack=c.attack if answering else None, target=c.target if answering else None,
        attacks=tuple((int(i), k) for i, k in c.attacks),
        foes=tuple(FoeView(name=f.name, life=f.life, max_life=f.max_life, initiative=f.initiative,
                           combat=f.combat, cards=len(f.hand), controller=f.controller, alive=f.life > 0,
                           chosen=bool(f.play)) for f in c.foes))


def _secret(game: Engine, state: State, seat: int, current: int | None) -> SecretView:
    me = state.heroes[seat]
    c = state.combat
    hand: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    foes: tuple[FoeHand, ...] = ()
    if c is not None:
        if seat == current:
            hand = tuple(sorted(card_type(x) for x in c.hand))
            cards = tuple(c.hand)
        foes = tuple(FoeHand(foe=i, cards=tuple(sorted(card_type(x) for x in f.hand)))
                     for i, f in enumerate(c.foes) if f.controller == seat)
    return SecretView(
        seat=seat, regions=tuple(me.regions), lair=game.table.lair(me),
        in_lair=state.phase == "lair" and seat == current,
        hand=hand, hand_cards=cards, foe_hands=foes,
        offer=tuple(me.offer) if state.phase == "setup" else (),
        monster_offer=tuple(state.monster_offer) if state.phase == "monster" and seat == current else ())


def _hidden_pick(h: Hero, seat: int, acting: frozenset[int]) -> HeroView:
    """Another player's hero while the heroes are being chosen: the hero (first come, first served) and where
    it starts are public at once; the side, the weapon and the item bought are revealed when everyone is ready."""
    return HeroView(seat=seat, player=h.name, colour=h.colour, letter=h.letter, hero=h.hero or None,
                    province=h.province or None, regions_left=len(h.regions), to_act=seat in acting)


def _kills_xp(state: State, seat: int, current: int | None) -> int:
    """The experience the fighting hero has earned in this fight so far (each opponent slain is told "+1 XP"
    at once; the engine adds it to the sheet when the fight ends, whatever its end)."""
    c = state.combat
    return c.xp if state.phase == "combat" and c is not None and seat == current else 0


def build_view(game: Engine, state: State, seat: int | None) -> ChampionView:
    lib = game.lib
    acting = game.to_act(state)
    current = game.table.current(state)
    needed = game.table.target_info(state)
    heroes = tuple(_hidden_pick(h, i, acting) if state.phase == "setup" and i != seat else HeroView(
        seat=i, player=h.name, colour=h.colour, letter=h.letter, hero=h.hero or None,
        side=lib.hero[h.hero].side[h.side].name if h.hero in lib.hero else None, weapon=h.weapon or None,
        province=h.province or None, life=h.life, max_life=h.max_life, combat=h.combat, max_combat=h.combat,
        initiative=h.initiative, xp=h.xp + _kills_xp(state, i, current), gold=h.gold, info=h.info,
        items=tuple(h.items), fate=h.fate,
        to_act=i in acting, shrines=tuple(h.shrines), regions_left=len(h.regions),
        kept=tuple(KeptView(card=k.card, key=k.key) for k in h.kept), monster=h.monster or None,
        knows_lair=bool(h.province_card), info_needed=needed) for i, h in enumerate(state.heroes))
    highlight: tuple[str, ...] = ()
    if state.phase in ("action", "lair") and current is not None:  # the lair reads as any turn
        highlight = tuple(game.movement.highlight(state, current))
    last = state.last_move
    move = None
    if isinstance(last, dict) and last.get("path"):
        path = last.get("path")
        move = MoveView(seat=int(str(last.get("seat", -1))), path=tuple(str(p) for p in path)
                        if isinstance(path, list) else (), by=str(last.get("by", "")))
    losing = None
    if state.losing:
        losing = LosingView(why=state.losing[0], chooser=int(state.losing[1]), owner=state.order[state.turn],
                            incoming=state.losing[2] if len(state.losing) > 2 else None)
    draw = state.draw
    return ChampionView(
        round=state.round, phase=public_phase(state), heroes=heroes, caption=caption(game, state),
        opponents=state.opponents, order=tuple(state.order), to_act=tuple(sorted(acting)), info_needed=needed,
        fate=state.fate, short=state.short, heroic=state.heroic, event=state.event or None, current=current,
        highlight=highlight, last_move=move, market=tuple(state.market),
        price_cut=game.items.price_cut(state),
        voyage_cost=game.movement.voyage_cost(state, current) if current is not None else 2,
        combat=_combat(game, state),
        story=draw.cards[0] if draw is not None and state.phase == "story" else None,
        story_offer=tuple(draw.cards) if draw is not None and state.phase == "fate" else (),
        monster_choice=len(state.monster_offer) if state.phase == "monster" else 0,
        losing=losing, winner=state.winner if state.winner >= 0 else None,
        secret=_secret(game, state, seat, current) if seat is not None and 0 <= seat < len(state.heroes) else None)


# --- secret variants --------------------------------------------------------------------------------


def secret_variants(game: Engine, state: State, seat: int) -> Iterator[State]:
    """States that differ only in what ``seat`` alone knows (its region cards and province card — so its
    lair —, its combat hand, the hands of the opponents it plays, the monster sheets offered to it) and in
    what nobody knows (the order of every face-down pile, the dice to come, the hands of opponents Tabula
    plays)."""
    v = _copy(state)  # every face-down pile in another order
    v.events.reverse()
    for pile in v.stories.values():
        pile.reverse()
    v.item_deck.reverse()
    v.combat_deck.reverse()
    v.province_cards.reverse()
    v.monsters.reverse()
    v.rng ^= 0x5A5A5A5A  # the dice to come
    yield v
    c = state.combat
    tabula = [i for i, f in enumerate(c.foes) if f.controller < 0 and f.hand] if c is not None else []
    if c is not None and tabula and state.combat_deck:  # the hand of an opponent Tabula plays
        v = _copy(state)
        assert v.combat is not None
        foe = v.combat.foes[tabula[0]]
        swap = next((k for k, x in enumerate(v.combat_deck) if card_type(x) != card_type(foe.hand[0])), 0)
        foe.hand[0], v.combat_deck[swap] = v.combat_deck[swap], foe.hand[0]
        yield v
    if not 0 <= seat < len(state.heroes):
        return
    me = state.heroes[seat]
    if me.province_card and state.province_cards:  # another province card: the lair moves
        v = _copy(state)
        v.heroes[seat].province_card, v.province_cards[0] = v.province_cards[0], v.heroes[seat].province_card
        yield v
    every = [r.id for r in game.lib.map.region]
    if me.regions and len(me.regions) < len(every):  # other region cards in hand, as many
        v = _copy(state)
        v.heroes[seat].regions = [r for r in every if r not in me.regions][:1] + me.regions[1:]
        yield v
    c = state.combat
    if c is not None and state.combat_deck:
        if seat == game.table.current(state) and c.hand:
            v = _copy(state)
            assert v.combat is not None
            swap = next((i for i, x in enumerate(v.combat_deck) if card_type(x) != card_type(c.hand[0])), 0)
            v.combat.hand[0], v.combat_deck[swap] = v.combat_deck[swap], v.combat.hand[0]
            yield v
        for i, f in enumerate(c.foes):
            if f.controller == seat and f.hand:
                v = _copy(state)
                assert v.combat is not None
                foe = v.combat.foes[i]
                swap = next((k for k, x in enumerate(v.combat_deck) if card_type(x) != card_type(f.hand[0])), 0)
                foe.hand[0], v.combat_deck[swap] = v.combat_deck[swap], foe.hand[0]
                yield v
                break
    if state.phase == "setup" and me.hero:  # the other side of the sheet and the other weapon, while choosing
        hero = game.lib.hero[me.hero]
        v = _copy(state)
        mine = v.heroes[seat]
        mine.side = 1 - me.side if len(hero.side) > 1 else me.side
        other = hero.side[mine.side]
        mine.life = mine.max_life = other.life
        mine.combat, mine.initiative, mine.xp, mine.gold = other.combat, other.initiative, other.xp, other.gold
        mine.weapon = next((w for w in hero.weapons if w != me.weapon), me.weapon)
        mine.items = [mine.weapon if i == me.weapon else i for i in me.items]
        if me.offer and v.item_deck:
            mine.offer[0], v.item_deck[0] = v.item_deck[0], mine.offer[0]
        yield v
    if state.phase == "monster" and seat == game.table.current(state) and state.monster_offer and state.monsters:
        v = _copy(state)
        v.monster_offer[0], v.monsters[0] = v.monsters[0], v.monster_offer[0]
        yield v
