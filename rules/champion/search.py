"""Champion of the Empire for Tabula's search (``rules/search.py``): what a hero cannot see, dealt anew, and how
a hunt half-run is scored.

The hidden-information model (also in RULES.md, "Tabula's levels"):

* **Seen by the deciding seat, kept:** every hero's sheet (life, combat, initiative, experience, gold,
  information, items, fate, kept story cards, monster), the map, the event, the market, the story being
  answered, how many cards each fighter holds, who has chosen, who knows their lair and how many region cards
  each hero still holds; all of its own secrets (region cards, province card, combat hand, the hands of the
  opponents it plays, its setup offer, the monster sheets offered to it).
* **Not seen, dealt anew every time the search deals:** the order of every face-down pile (events, stories,
  items, combat cards, province cards, monster sheets); each other hero's region cards (as many as it holds,
  drawn from the map's regions) and province card (from the province cards nobody has shown); the combat hands
  of other fighters (as many cards as each holds, from the combat cards not in sight), with a card chosen face
  down or kept being one of the new hand's, and a queued order of throws forgotten (the fighter decides each
  throw in the simulation); while heroes are chosen, another hero's side, weapon and offer; the monster sheets
  offered to another hero; the dice to come."""

from __future__ import annotations

from rules.champion.engine.combat import card_type
from rules.champion.state import State
from rules.core import Rng, copier
from rules.search import leader_value

_copy = copier(State)


def sample(rules: object, state: State, seat: int, rng: Rng) -> State:
    """A game ``seat`` cannot tell from ``state``, its hidden parts dealt from ``rng``."""
    game = rules.engine  # type: ignore[attr-defined]
    s = _copy(state)
    lib = game.lib
    current = game.table.current(s)
    # face-down piles: any order
    s.events = rng.shuffle(sorted(s.events))
    s.stories = {k: rng.shuffle(sorted(v)) for k, v in sorted(s.stories.items())}
    s.monsters = rng.shuffle(sorted(s.monsters))
    others = [i for i in range(len(s.heroes)) if i != seat]
    every = sorted(r.id for r in lib.map.region)
    for i in others:
        h = s.heroes[i]
        h.regions = sorted(rng.shuffle(every)[:len(h.regions)]) if len(h.regions) < len(every) else list(every)
    # province cards: the pile and every other hero's card, dealt again
    holders = [i for i in others if s.heroes[i].province_card]
    pool = rng.shuffle(sorted(s.province_cards + [s.heroes[i].province_card for i in holders]))
    for i in holders:
        s.heroes[i].province_card = pool.pop()
    s.province_cards = pool
    if current is not None and current != seat and s.monster_offer:
        pool = rng.shuffle(sorted(s.monsters + s.monster_offer))
        s.monster_offer, s.monsters = pool[:len(s.monster_offer)], pool[len(s.monster_offer):]
    _combat_hands(s, seat, current, rng)
    if s.phase == "setup":
        _setup(s, lib, others, rng)
    s.item_deck = rng.shuffle(sorted(s.item_deck))
    s.rng = rng.next64()
    return s


def _combat_hands(s: State, seat: int, current: int | None, rng: Rng) -> None:
    c = s.combat
    if c is None:
        s.combat_deck = rng.shuffle(sorted(s.combat_deck))
        return
    hero_hidden = current != seat
    foes = [f for f in c.foes if f.controller != seat]
    pool = list(s.combat_deck) + (list(c.hand) if hero_hidden else []) + [x for f in foes for x in f.hand]
    pool = rng.shuffle(sorted(pool))
    if hero_hidden:
        c.hand = [pool.pop() for _ in c.hand]
        if c.hero_keep is not None:
            c.hero_keep = [card_type(x) for x in c.hand[:len(c.hero_keep)]]
        c.hero_order = []
    for f in foes:
        f.hand = [pool.pop() for _ in f.hand]
        if f.play:
            f.play = card_type(f.hand[rng.below(len(f.hand))]) if f.hand else ""
        if f.keep is not None:
            f.keep = [card_type(x) for x in f.hand[:len(f.keep)]]
        f.order = []
    s.combat_deck = pool


def _setup(s: State, lib: object, others: list[int], rng: Rng) -> None:
    """Another hero's side, weapon and offer while the heroes are chosen (the hero itself is public)."""
    offered = [i for i in others if s.heroes[i].offer]
    pool = rng.shuffle(sorted(s.item_deck + [x for i in offered for x in s.heroes[i].offer]))
    for i in offered:
        h = s.heroes[i]
        h.offer = [pool.pop() for _ in h.offer]
    s.item_deck = pool
    for i in others:
        h = s.heroes[i]
        card = lib.hero.get(h.hero) if h.hero else None  # type: ignore[attr-defined]
        if card is None or h.side < 0:
            continue
        h.side = rng.below(len(card.side))
        side = card.side[h.side]
        h.life = h.max_life = side.life
        h.combat, h.initiative, h.xp, h.gold = side.combat, side.initiative, side.xp, side.gold
        h.weapon = card.weapons[rng.below(len(card.weapons))]
        h.items = [h.weapon]


def value(rules: object, state: State) -> list[float]:
    """Each seat's chance to win: a champion is made by slaying the monster in its lair, which takes
    information (to find the lair), experience, life and gear; those, added up as a rough strength."""
    points = []
    for h in state.heroes:
        lair = 6 if h.province_card else 0
        points.append(h.info * 1.5 + lair + h.xp * 0.5 + h.life * 0.5 + h.combat + len(h.items) + h.gold * 0.2)
    return leader_value(points, sharpness=3.0)
