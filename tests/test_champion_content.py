"""The Champion of the Empire data files respect the book and the data contract: the map, heroes, items,
events and monsters.

Everything is read through ``rules.champion.content`` — the same loader the game uses.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from rules.champion.content import (
    ABILITIES,
    CARD_TYPES,
    EVENT_EFFECTS,
    ICONS,
    Item,
    events,
    hero_index,
    heroes,
    item_index,
    items,
    links,
    map_file,
    market_items,
    monster_index,
    monsters,
    neighbours,
    ports,
    province_index,
    provinces,
    region_index,
    regions,
)

SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
COLOUR = re.compile(r"#[0-9a-f]{6}")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def words(text: str) -> int:
    return len(text.split())


def first_sentence(text: str) -> str:
    return SENTENCE_END.split(text.strip(), maxsplit=1)[0]


# --- map ------------------------------------------------------------------------------------------------

def test_six_regions_of_eight_provinces() -> None:
    assert len(regions()) == 6
    assert len(provinces()) == 48
    per_region = Counter(p.region for p in provinces())
    assert set(per_region) == set(region_index())
    assert all(n == 8 for n in per_region.values()), per_region


def test_every_region_has_each_icon_once() -> None:
    for region in regions():
        icons = sorted(p.icon for p in provinces() if p.region == region.id)
        assert icons == sorted(ICONS), region.id


def test_region_colours_distinct() -> None:
    colours = [r.colour.lower() for r in regions()]
    assert all(COLOUR.fullmatch(c) for c in colours)
    assert len(set(colours)) == 6


def test_ids_unique_and_slugs() -> None:
    groups: dict[str, list[str]] = {
        "region": [r.id for r in regions()],
        "province": [p.id for p in provinces()],
        "hero": [h.id for h in heroes()],
        "item": [i.id for i in items()],
        "event": [e.id for e in events()],
        "monster": [m.id for m in monsters()],
    }
    for kind, ids in groups.items():
        assert len(ids) == len(set(ids)), kind
        assert all(SLUG.fullmatch(i) for i in ids), kind
    names = [p.name for p in provinces()]
    assert len(names) == len(set(names))


def test_eight_cities_and_five_shrines() -> None:
    cities = [p.city for p in provinces() if p.city]
    shrines = [p.shrine for p in provinces() if p.shrine]
    assert len(cities) == 8 and len(set(cities)) == 8
    assert len(shrines) == 5 and len(set(shrines)) == 5
    assert {"Roma", "Alexandria", "Antiochia", "Carthago"} <= set(cities)
    assert {"Delphi", "Dodona", "Cumae"} <= set(shrines)
    # A city and a shrine never share a province: the shrine is a journey of its own.
    assert not any(p.city and p.shrine for p in provinces())


def test_links_name_real_provinces_once() -> None:
    index = province_index()
    seen: set[frozenset[str]] = set()
    for link in links():
        assert link.a in index and link.b in index, link
        assert link.a != link.b
        pair = frozenset((link.a, link.b))
        assert pair not in seen, link
        seen.add(pair)


def test_land_graph_connected() -> None:
    adjacency = neighbours()
    start = provinces()[0].id
    reached = {start}
    todo = [start]
    while todo:
        for nxt in adjacency[todo.pop()]:
            if nxt not in reached:
                reached.add(nxt)
                todo.append(nxt)
    assert reached == set(province_index())


def test_crossings_are_the_named_straits() -> None:
    crossings = {frozenset((lk.a, lk.b)) for lk in links() if lk.crossing}
    assert frozenset(("bruttium", "sicilia")) in crossings  # Messina
    assert frozenset(("thracia", "bithynia")) in crossings  # Bosporus
    assert frozenset(("thracia", "asia")) in crossings  # Hellespont
    assert frozenset(("baetica", "mauretania-tingitana")) in crossings  # Gibraltar
    assert len(crossings) <= 8


def test_coast_enough_ports_around_the_sea() -> None:
    assert len(ports()) >= 20
    # Every region has at least one port (Gaul's is Narbonensis).
    for region in regions():
        assert any(p.coast for p in provinces() if p.region == region.id), region.id
    # Only the Mare Internum counts.
    index = province_index()
    for inland in ("lusitania", "aquitania", "moesia-inferior", "arabia", "armenia", "assyria", "britannia"):
        assert not index[inland].coast, inland


def test_coordinates_inside_the_map() -> None:
    size = map_file().map
    assert (size.width, size.height) == (1600, 1000)
    for p in provinces():
        assert 0 <= p.x <= size.width and 0 <= p.y <= size.height, p.id
        for x, y in p.polygon:
            assert 0 <= x <= size.width and 0 <= y <= size.height, p.id
    points = [(p.x, p.y) for p in provinces()]
    assert len(set(points)) == len(points)


Point = tuple[float, float]


def inside(point: Point, polygon: tuple[tuple[float, float], ...]) -> bool:
    """Even-odd rule: whether a point lies inside a polygon."""
    x, y = point
    result = False
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            result = not result
    return result


def proper_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Whether segments ab and cd cross at a point inside both (shared end points do not count)."""
    if len({a, b, c, d}) < 4:
        return False

    def side(p: Point, q: Point, r: Point) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    return side(a, b, c) * side(a, b, d) < 0 and side(c, d, a) * side(c, d, b) < 0


def edges(polygon: tuple[tuple[float, float], ...]) -> list[tuple[Point, Point]]:
    return list(zip(polygon, polygon[1:] + polygon[:1], strict=True))


def test_polygons_hold_their_label_and_do_not_overlap() -> None:
    shapes = {p.id: p.polygon for p in provinces()}
    for p in provinces():
        assert 5 <= len(p.polygon) <= 12, p.id
        assert inside((p.x, p.y), p.polygon), p.id
    ids = list(shapes)
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            pa, pb = shapes[a], shapes[b]
            assert not any(proper_cross(*e, *f) for e in edges(pa) for f in edges(pb)), (a, b)
            assert not any(v not in pb and inside(v, pb) for v in pa), (a, b)


def test_land_links_are_shared_borders() -> None:
    """Two provinces are linked by land (not a crossing) exactly when their outlines share an edge."""
    owners: dict[frozenset[Point], set[str]] = {}
    for p in provinces():
        for e in edges(p.polygon):
            owners.setdefault(frozenset(e), set()).add(p.id)
    shared = {frozenset(ids) for ids in owners.values() if len(ids) == 2}
    assert all(len(ids) <= 2 for ids in owners.values())
    land = {frozenset((lk.a, lk.b)) for lk in links() if not lk.crossing}
    assert land == shared


def test_geography_roughly_right() -> None:
    """The fixed lon/lat transform puts west left and north up."""
    index = province_index()
    assert index["lusitania"].x < index["latium"].x < index["syria"].x < index["assyria"].x
    assert index["britannia"].y < index["lugdunensis"].y < index["latium"].y < index["aegyptus"].y


def test_story_decks_reachable_in_every_region() -> None:
    """Each region has easy, medium and hard provinces (it has every icon), and the lair rule works."""
    from rules.champion.content import lair_of

    for region in regions():
        for icon in ICONS:
            lair = lair_of(region.id, icon)
            assert lair is not None and province_index()[lair].region == region.id


# --- heroes ---------------------------------------------------------------------------------------------

def test_five_heroes_of_five_peoples() -> None:
    assert len(heroes()) == 5
    assert len({h.people for h in heroes()}) == 5
    assert {"labienus", "jahmesz"} <= set(hero_index())
    for hero in heroes():
        assert hero.start in province_index(), hero.id
        assert 2 <= len(SENTENCE_END.split(hero.bio.strip())) <= 3, hero.id


def test_hero_weapons_are_their_peoples_starting_weapons() -> None:
    for hero in heroes():
        assert len(hero.weapons) == 2, hero.id
        for wid in hero.weapons:
            weapon = item_index()[wid]
            assert weapon.starting and weapon.kind == "weapon" and weapon.price == 0, wid
            assert weapon.people == hero.people, wid
    assert set(hero_index()["labienus"].weapons) == {"pilum", "gladius"}


def test_two_sides_and_the_books_numbers() -> None:
    for hero in heroes():
        assert len(hero.side) == 2, hero.id
        for side in hero.side:
            assert side.gold == 3 and side.xp == 0
            assert side.combat > 0 and side.initiative > 0 and side.life > 0
    labienus = [(s.combat, s.initiative) for s in hero_index()["labienus"].side]
    jahmesz = [(s.combat, s.initiative) for s in hero_index()["jahmesz"].side]
    assert (7, 3) in labienus
    assert (6, 4) in jahmesz
    assert any(s.life == 5 for h in heroes() for s in h.side)


def test_sides_balanced_by_experience_cost() -> None:
    """3 XP per combat point, 4 per initiative, 2 per max life (the book's prices): 42–44 on every side."""
    for hero in heroes():
        costs = [3 * s.combat + 4 * s.initiative + 2 * s.life for s in hero.side]
        assert all(42 <= c <= 44 for c in costs), (hero.id, costs)
        assert max(costs) - min(costs) <= 2, hero.id


# --- items ----------------------------------------------------------------------------------------------

def test_ten_starting_weapons_and_thirty_five_market_items() -> None:
    starting = [i for i in items() if i.starting]
    assert len(starting) == 10
    assert Counter(i.people for i in starting) == Counter({h.people: 2 for h in heroes()})
    assert all(i.price == 0 and i.kind == "weapon" for i in starting)
    market = market_items()
    assert len(market) == 35
    assert all(1 <= i.price <= 8 and not i.people for i in market)
    assert {"weapon", "shield", "armour", "healing", "horse", "tool"} <= {i.kind for i in market}


def test_pilum_and_the_krisztina_example() -> None:
    pilum = item_index()["pilum"]
    assert pilum.ranged and pilum.ranged_discard == 2
    index = item_index()
    assert index["battleaxe"].hands == 2
    assert index["short-sword"].hands == 1
    assert index["medium-shield"].kind == "shield"


def test_item_fields_consistent() -> None:
    for item in items():
        assert item.shield == "", item.id
        if item.kind in ("weapon", "shield"):
            assert item.hands in (1, 2), item.id
            assert item.armed_count > 0 or item.ranged, item.id
        else:
            assert item.hands == 0 and item.armed_count == 0 and not item.ranged, item.id
        if item.kind == "shield":
            assert item.hands == 1
        assert (item.armed == "") == (item.armed_count == 0), item.id
        assert item.armed in ("", *CARD_TYPES)
        assert item.ranged == bool(item.ranged_discard or item.ranged_wound), item.id
        assert not (item.ranged_discard and item.ranged_wound), item.id
        assert (item.kind == "armour") == (item.armour > 0), item.id
        assert (item.kind == "healing") == (item.heal > 0), item.id
        assert (item.kind in ("horse", "tool")) == (item.move > 0), item.id


def test_market_has_ranged_and_two_handed_weapons() -> None:
    weapons = [i for i in market_items() if i.kind == "weapon"]
    assert any(i.ranged for i in weapons)
    assert any(i.hands == 2 for i in weapons)
    assert any(i.hands == 1 for i in weapons)


def claimed(item: Item) -> dict[str, object]:
    """What the item's text says it does, read back from the glossary phrases."""
    text = item.text
    out: dict[str, object] = {}
    if m := re.search(r"Adds (\d+) (Torso|Head|Hand|Leg|Inspired) cards? to your hand in a fight\.", text):
        out["armed_count"] = int(m.group(1))
        out["armed"] = m.group(2).lower()
    if m := re.search(r"Ranged: before melee, the opponent discards (\d+) combat cards?\.", text):
        out["ranged_discard"] = int(m.group(1))
    if m := re.search(r"Ranged: before melee, the opponent loses (\d+) life\.", text):
        out["ranged_wound"] = int(m.group(1))
    if m := re.search(r"Absorbs (\d+) wounds? in each fight\.", text):
        out["armour"] = int(m.group(1))
    if m := re.search(r"Heals (\d+) life; used up\.", text):
        out["heal"] = int(m.group(1))
    if "Exploration moves one province further; no help on caravan escort." in text:
        out["move"] = 1
    if "One-handed." in text or "beside a one-handed weapon only." in text:
        out["hands"] = 1
    if "Two-handed: no shield or second weapon beside it." in text:
        out["hands"] = 2
    return out


@pytest.mark.parametrize("item", items(), ids=lambda i: i.id)
def test_item_text_agrees_with_fields(item: Item) -> None:
    said = claimed(item)
    actual = {
        "armed_count": item.armed_count, "armed": item.armed, "ranged_discard": item.ranged_discard,
        "ranged_wound": item.ranged_wound, "armour": item.armour, "heal": item.heal, "move": item.move,
        "hands": item.hands,
    }
    for key, value in actual.items():
        if value:
            assert said.get(key) == value, (key, value, item.text)
        else:
            assert key not in said, (key, item.text)
    # Every number in the text is one of the stated effects (no stray figures in the flavour).
    numbers = [int(n) for n in re.findall(r"\d+", item.text)]
    stated = [v for k, v in said.items() if k not in ("hands", "move") and isinstance(v, int)]
    assert sorted(numbers) == sorted(stated), item.text


# --- events ---------------------------------------------------------------------------------------------

EFFECT_PHRASE = {
    "none": "Nothing changes this round.",
    "explore_move_minus1": "This round, exploration moves one province fewer.",
    "explore_move_plus1": "This round, exploration moves one province further.",
    "caravan_gold_plus1": "This round, caravan escort earns 1 more gold.",
    "voyage_forbidden": "This round, no one may take a voyage.",
    "voyage_free": "This round, a voyage costs nothing.",
    "market_closed": "This round, no local market may be visited.",
    "market_discount1": "This round, every item at a local market costs 1 gold less.",
    "commission_gold_plus1": "This round, local commissions pay 1 more gold when you take gold.",
    "commission_xp_plus1": "This round, local commissions give 1 more experience point when you take experience.",
    "recuperate_plus1": "This round, recuperation outside a city restores 1 more life.",
    "lore_free": "This round, learning secret lore costs no gold.",
    "story_xp_plus1": "This round, fighting an opponent from a story card gives 1 more experience point.",
    "opponents_combat_plus1": "This round, every opponent fights with combat value 1 higher.",
    "opponents_initiative_plus1": "This round, every opponent has initiative 1 higher.",
    "heroes_initiative_plus1": "This round, every hero fights with initiative 1 higher.",
    "shipwreck_on_1_2": "This round, a voyage is wrecked on a roll of 1 or 2.",
    "all_gain_1_gold": "Every hero gains 1 gold now.",
}


def test_eighteen_events_cover_every_effect() -> None:
    assert len(events()) == 18
    used = Counter(e.effect for e in events())
    assert set(used) == set(EVENT_EFFECTS)
    assert set(EFFECT_PHRASE) == set(EVENT_EFFECTS)
    assert any(e.id == "rainy-weather" and e.effect == "explore_move_minus1" for e in events())


def test_event_texts() -> None:
    openings = [first_sentence(e.text) for e in events()]
    assert len(set(openings)) == len(openings)
    for event in events():
        assert 30 <= words(event.text) <= 60, (event.id, words(event.text))
        assert event.text.endswith(EFFECT_PHRASE[event.effect]), event.id
        # The effect is stated once, at the end; the story before it has no figures of its own.
        story = event.text.removesuffix(EFFECT_PHRASE[event.effect])
        assert not re.search(r"\d", story), event.id


# --- monsters -------------------------------------------------------------------------------------------

def test_five_monsters() -> None:
    assert len(monsters()) == 5
    for m in monsters():
        assert 60 <= words(m.text) <= 100, (m.id, words(m.text))
        assert set(m.abilities) <= set(ABILITIES)
        assert len(m.ability_text) == len(m.abilities) >= 1, m.id
        if m.heads == 1:
            assert 7 <= m.combat <= 10 and 4 <= m.initiative <= 6 and 5 <= m.life <= 8, m.id
            assert not m.single_torso and "three_headed" not in m.abilities


def test_kerberos_as_printed() -> None:
    kerberos = monster_index()["kerberos"]
    assert kerberos.heads == 3 and kerberos.single_torso
    assert set(kerberos.abilities) == {"three_headed", "single_torso"}
    others = [m for m in monsters() if m.id != "kerberos"]
    assert kerberos.combat < min(m.combat for m in others)
    assert kerberos.life < min(m.life for m in others)
    # Three heads together are still the hardest fight by total life.
    assert kerberos.life * kerberos.heads >= max(m.life for m in others)


def test_ability_texts_name_their_ability() -> None:
    names = {
        "three_headed": "Three-headed", "single_torso": "Single torso", "regenerates": "Regenerates",
        "stone_gaze": "Stone gaze", "armoured_hide": "Armoured hide", "fiery_breath": "Fiery breath",
        "bull_rush": "Bull rush",
    }
    for m in monsters():
        for ability, line in zip(m.abilities, m.ability_text, strict=True):
            assert line.startswith(names[ability] + ":"), (m.id, line)
