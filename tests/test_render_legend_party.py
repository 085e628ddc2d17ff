"""Legend of Heroes, Expanded Game pictures: Hero and Spell cards, the party rows on Monster and Hazard
cards, and a player's Party (valid PNGs, sizes, caches, key pixels and crops, alt text, speed)."""

from __future__ import annotations

import io
from typing import Any

import msgspec
import pytest
from PIL import Image, ImageChops, ImageStat

from render import legend
from render.legend import cards as card_layer
from render.legend import party as party_layer
from rules.legend.content import CLASSES, DATA, ActionCard, Hero, Spell
from rules.legend.ruleset import LegendRuleset
from rules.legend.view import PartyView
from tests.legend_helpers import play_moves

CARD = (card_layer.CARD_W, card_layer.CARD_H)


def _open(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def _rgb(data: bytes) -> Image.Image:
    return _open(data).convert("RGBA").convert("RGB")


def _near(px: object, colour: tuple[int, int, int], tolerance: int = 12) -> bool:
    """A pixel within ``tolerance`` of ``colour`` (the adaptive palette moves colours a little)."""
    assert isinstance(px, tuple)
    distance: int = sum(abs(int(a) - b) for a, b in zip(px, colour, strict=True))
    return distance <= tolerance


def _diff(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference of two same-sized RGB images, 0–255."""
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


# --- sample cards, built here so the tests do not depend on the data files ---------------------------

HEROES = {h.id: h for h in (
    Hero(id="brand", name="Brand", kind="fighter", dot=0, defence=(13, 12, 14, 11, 12),
         text="Brand stands ready with blade and shield.", wounded_text="Brand leans on the wall, bleeding."),
    Hero(id="rolf", name="Rolf", kind="dwarf", dot=1, defence=(12, 14, 11, 13, 12),
         text="Rolf hefts his axe and grunts.", wounded_text="Rolf sits on his shield, grey in the face."),
    Hero(id="ciaran", name="Ciarán", kind="cleric", dot=2, defence=(11, 13, 12, 12, 15),
         text="Ciarán lifts his lamp and murmurs a prayer.", wounded_text="Ciarán binds his own arm, wincing."),
    Hero(id="tamsin", name="Tamsin", kind="rogue", dot=3, defence=(10, 11, 13, 14, 12),
         text="Tamsin listens at the lock.", wounded_text="Tamsin limps, a dart in her shoulder."),
    Hero(id="zoltan", name="Zoltán", kind="magic", dot=4, defence=(8, 9, 10, 9, 8),
         text="Zoltán leans on his staff, humming.", wounded_text="Zoltán's robe is torn; his hands shake."),
)}
SPELLS = {s.id: s for s in (
    Spell(id="ice-storm", name="Ice Storm", roll=7, works=(True, False, True, True, False),
          text="Hail and ice whirl about the foe.", fizzle="The foe shakes off the frost."),
    Spell(id="sleep", name="Sleep", roll=6, works=(True, True, True, True, True),
          text="A grey mist and the foe slumps, snoring.", fizzle="The foe blinks through the mist."),
)}


def _party(order: list[str], wounded: frozenset[str] | set[str] = frozenset(), spell: str | None = "ice-storm",
           **extra: Any) -> PartyView:
    party: dict[str, Any] = {"player": "Ann", "colour": "red", "letter": "R",
                             "heroes": [{"id": h, "wounded": h in wounded} for h in order], "spell": spell}
    party.update(extra)
    return msgspec.convert(party, PartyView)


ORDER = ["tamsin", "ciaran", "zoltan", "rolf", "brand"]  # Brand leads


# --- Hero cards ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("hero_id", list(HEROES))
@pytest.mark.parametrize("wounded", [False, True])
def test_hero_card_renders_and_is_cached(hero_id: str, wounded: bool) -> None:
    hero = HEROES[hero_id]
    data = legend.render_hero(hero, wounded=wounded)
    img = _open(data)
    assert img.format == "PNG" and img.size == CARD
    assert len(data) < 300_000
    assert legend.render_hero(hero, wounded=wounded) is data
    as_dict = {**msgspec.to_builtins(hero)}
    assert legend.render_hero(as_dict, wounded=wounded) is data


@pytest.mark.parametrize("hero_id", list(HEROES))
def test_wounded_side_differs_and_is_darker(hero_id: str) -> None:
    hero = HEROES[hero_id]
    well = _rgb(legend.render_hero(hero, wounded=False))
    hurt = _rgb(legend.render_hero(hero, wounded=True))
    assert _diff(well, hurt) > 10
    assert sum(ImageStat.Stat(hurt).mean) < sum(ImageStat.Stat(well).mean)
    # the band at the top of the card is darker on the wounded side
    band = (card_layer.CARD_W // 2 - 150, 8, card_layer.CARD_W // 2 - 100, 14)
    assert sum(ImageStat.Stat(hurt.crop(band)).mean) < sum(ImageStat.Stat(well.crop(band)).mean)


def test_each_kind_has_its_own_band_colour() -> None:
    tops = {h.kind: _rgb(legend.render_hero(h, wounded=False)).getpixel((60, 10)) for h in HEROES.values()}
    assert len(set(tops.values())) == 5


def test_hero_red_dot_under_its_box() -> None:
    img = _rgb(legend.render_hero(HEROES["rolf"], wounded=False))
    w, gap = 72, 10
    left = (card_layer.CARD_W - (5 * w + 4 * gap)) // 2
    y = card_layer.CARD_H - 190 + 20 + 58 + 15
    reds = []
    for i in range(5):
        px = img.getpixel((left + i * (w + gap) + w // 2, y))
        assert isinstance(px, tuple)
        if px[0] > 180 and px[1] < 60:
            reds.append(i)
    assert reds == [1]


def test_hero_alt_text() -> None:
    alt = legend.hero_alt_text(HEROES["tamsin"], wounded=True)
    assert alt.startswith("Rogue card, wounded side: Tamsin.")
    assert "dart in her shoulder" in alt and "box D of the Rogue row" in alt and "A 10" in alt
    alt = legend.hero_alt_text(HEROES["zoltan"], wounded=False)
    assert "Magic User card, unwounded side" in alt and "humming" in alt


def test_fighter_still_renders_through_the_hero_card() -> None:
    fighter = {"id": "brand", "name": "Brand", "dot": 0, "defence": [13, 12, 14, 11, 12],
               "text": "Brand stands ready with blade and shield.",
               "wounded_text": "Brand leans on the wall, bleeding."}
    assert legend.render_fighter(fighter, wounded=True) == legend.render_hero(HEROES["brand"], wounded=True)


# --- Spell cards --------------------------------------------------------------------------------------

@pytest.mark.parametrize("spell_id", list(SPELLS))
def test_spell_card_renders_and_is_cached(spell_id: str) -> None:
    spell = SPELLS[spell_id]
    data = legend.render_spell(spell)
    assert _open(data).size == CARD and len(data) < 300_000
    assert legend.render_spell(msgspec.to_builtins(spell)) is data


def test_spell_boxes_read_success_or_no_effect() -> None:
    img = _rgb(legend.render_spell(SPELLS["ice-storm"]))
    gap, w = 10, card_layer.SPELL_BOX_W
    left = (card_layer.CARD_W - (5 * w + 4 * gap)) // 2
    y = card_layer.CARD_H - 142 + 20 + card_layer.SPELL_BOX_H // 2
    seen = []
    for i in range(5):
        px = img.getpixel((left + i * (w + gap) + 1, y))  # the box's outline
        assert isinstance(px, tuple)
        seen.append(px[1] > px[0])  # green: Success; red: No Effect
    assert seen == list(SPELLS["ice-storm"].works)


def test_spell_alt_text() -> None:
    alt = legend.spell_alt_text(SPELLS["ice-storm"])
    assert "Ice Storm" in alt and "roll 7 or more" in alt
    assert "box A, C, D" in alt and "No Effect under box B, E" in alt and "shakes off the frost" in alt


# --- Monster and Hazard cards with the Expanded Game rows ---------------------------------------------

TROLL: dict[str, Any] = {
    "id": "t-troll", "kind": "monster", "title": "Troll", "text": "…a troll, which grins as it attacks.",
    "after": "The troll falls. Beyond it you find…", "needs": [12, 13, 14, 15, 11], "dot": 2, "next": "treasure",
    "party": {"dwarf": [11, 12, 13, 14, 10], "cleric": [14, 15, 16, 17, 13], "rogue": [15, 16, 17, 18, 14],
              "magic": [17, 18, 19, 20, 16]},
}


def test_monster_card_with_party_rows() -> None:
    data = legend.render_card(TROLL)
    img = _open(data)
    assert img.size == CARD and len(data) < 300_000
    starter = {k: v for k, v in TROLL.items() if k != "party"}
    assert _diff(_rgb(data), _rgb(legend.render_card(starter))) > 2
    # one coloured label chip per kind of Hero, top to bottom in the book's order
    rgb = _rgb(data)
    table_top = card_layer.CARD_H - 88 - card_layer.PARTY_TABLE_H
    for row, kind in enumerate(CLASSES):
        y = table_top + 18 + row * (card_layer.ROW_H + card_layer.ROW_GAP) + card_layer.ROW_H - 4
        assert _near(rgb.getpixel((card_layer.CARD_W - 400, y)), card_layer.CLASS_COLOURS[kind], 40), kind
    alt = legend.card_alt_text(TROLL)
    assert "Magic User 17/18/19/20/16" in alt and "Dwarf 11/12/13/14/10" in alt and "box C" in alt


def test_card_with_party_rows_is_cached() -> None:
    first = legend.render_card(TROLL)
    assert legend.render_card(dict(TROLL)) is first
    as_struct = msgspec.convert(TROLL, ActionCard)
    assert legend.render_card(as_struct) is first


# --- the data -----------------------------------------------------------------------------------------

def _have(name: str) -> bool:
    return (DATA / name).exists()


def test_every_real_hero_renders_both_sides() -> None:
    if not _have("heroes.toml"):
        pytest.skip("heroes.toml not written yet")
    from rules.legend.content import heroes

    seen = set()
    for hero in heroes():
        seen.add(hero.kind)
        well, hurt = legend.render_hero(hero, wounded=False), legend.render_hero(hero, wounded=True)
        assert _open(well).size == CARD and _open(hurt).size == CARD, hero.id
        assert well != hurt
        assert hero.name in legend.hero_alt_text(hero, wounded=True)
    assert seen == set(CLASSES)


def test_every_real_spell_renders() -> None:
    if not _have("spells.toml"):
        pytest.skip("spells.toml not written yet")
    from rules.legend.content import spells

    for spell in spells():
        assert _open(legend.render_spell(spell)).size == CARD, spell.id
        assert spell.name in legend.spell_alt_text(spell)


def test_every_real_danger_card_with_party_rows_renders() -> None:
    from rules.legend.content import cards

    deck = cards()
    dangers = [c for c in deck.monster + deck.hazard if c.party]
    if not dangers:
        pytest.skip("no party rows in cards.toml yet")
    for card in dangers:
        assert _open(legend.render_card(card)).size == CARD, card.id
        assert "Rogue" in legend.card_alt_text(card)


def test_real_party_renders() -> None:
    if not (_have("heroes.toml") and _have("spells.toml")):
        pytest.skip("heroes.toml or spells.toml not written yet")
    from rules.legend.content import heroes, spells

    one = {kind: next(h.id for h in heroes() if h.kind == kind) for kind in CLASSES}
    party = _party([one["rogue"], one["cleric"], one["magic"], one["dwarf"], one["fighter"]],
                   spell=spells()[0].id)
    data = legend.render_party(party)
    assert _open(data).size == (party_layer.WIDTH, party_layer.HEIGHT) and len(data) < 1_000_000
    assert legend.render_party(msgspec.structs.replace(party)) is data  # cached while the party is unchanged
    assert spells()[0].name in legend.party_alt_text(party)


# --- the party picture --------------------------------------------------------------------------------

def _slot_crop(img: Image.Image, x: int, w: int = party_layer.HERO_W, h: int = party_layer.HERO_H,
               top: int = party_layer.CARD_TOP) -> Image.Image:
    inset = 24  # away from the rounded corners
    return img.crop((x + inset, top + inset, x + w - inset, top + h - inset))


def _small(hero_id: str, wounded: bool) -> Image.Image:
    card = party_layer._small_hero(HEROES[hero_id], wounded).convert("RGB")
    inset = 24
    return card.crop((inset, inset, card.width - inset, card.height - inset))


def _render(party: dict[str, Any]) -> Image.Image:
    return _rgb(legend.render_party(party, heroes=HEROES, spells=SPELLS))


def test_party_png_size_and_weight() -> None:
    data = legend.render_party(_party(ORDER), heroes=HEROES, spells=SPELLS)
    img = _open(data)
    assert img.format == "PNG" and img.mode == "P"
    assert img.size == (party_layer.WIDTH, party_layer.HEIGHT) and img.width <= 1600
    assert len(data) < 1_000_000


def _reading(at: tuple[int, int]) -> int:
    """A slot's place in reading order: left to right, top to bottom."""
    x, y = at
    return party_layer.ROW_TOPS.index(y) * party_layer.COLUMNS + (x - party_layer.MARGIN) // (
        party_layer.HERO_W + party_layer.GAP)


@pytest.mark.parametrize("leader", ["brand", "zoltan", "tamsin"])
def test_leader_is_the_last_card_at_the_bottom_right(leader: str) -> None:
    order = [h for h in ORDER if h != leader] + [leader]
    img = _render(_party(order))
    xs, spell_at = party_layer.positions([HEROES[h].kind for h in order])
    x, y = xs[-1]
    assert x + party_layer.HERO_W == party_layer.WIDTH - party_layer.MARGIN and y == party_layer.ROW_TOPS[-1]
    places = [_reading(at) for at in xs]
    assert places == sorted(places) and len(set(places)) == 5  # the row's order, read as text is read
    assert spell_at is None or _reading(spell_at) not in places
    right = _slot_crop(img, x, top=y)
    diffs = {h: _diff(right, _small(h, False)) for h in HEROES}
    assert min(diffs, key=lambda h: diffs[h]) == leader
    assert diffs[leader] < 6, diffs
    # the gold Leader frame shows beside the last card only
    assert _near(img.getpixel((x - 4, y + party_layer.HERO_H // 2)), party_layer.LEADER_GOLD)
    for ox, oy in xs[:-1]:
        assert not _near(img.getpixel((ox - 4, oy + party_layer.HERO_H // 2)), party_layer.LEADER_GOLD, 60)


def test_the_party_picture_reads_at_chat_width() -> None:
    assert party_layer.WIDTH <= 800 and party_layer.HEIGHT <= 1000  # two rows of three, not one long strip
    scale = 500 / party_layer.WIDTH
    assert party_layer.HERO_W * scale >= 150  # each card is at least 150 px wide in a 500 px chat column
    assert 30 * scale >= 18  # the names under the cards (30 px) read at 18 px or more


def test_wounded_heroes_show_their_wounded_side() -> None:
    img = _render(_party(ORDER, wounded={"ciaran", "rolf"}))
    xs, _ = party_layer.positions([HEROES[h].kind for h in ORDER])
    for (x, y), h in zip(xs, ORDER, strict=True):
        crop = _slot_crop(img, x, top=y)
        hurt = h in {"ciaran", "rolf"}
        assert _diff(crop, _small(h, hurt)) < _diff(crop, _small(h, not hurt)), h
    well = _render(_party(ORDER))
    x, y = xs[1]
    assert _diff(_slot_crop(img, x, top=y), _slot_crop(well, x, top=y)) > 10


def test_spell_comes_just_before_the_magic_user() -> None:
    img = _render(_party(ORDER, spell="ice-storm"))
    xs, spell_at = party_layer.positions([HEROES[h].kind for h in ORDER])
    magic = ORDER.index("zoltan")
    assert spell_at is not None and _reading(spell_at) + 1 == _reading(xs[magic])
    sx, sy = spell_at
    left = sx + (party_layer.HERO_W - party_layer.SPELL_W) // 2
    top = sy + (party_layer.HERO_H - party_layer.SPELL_H) // 2
    crop = _slot_crop(img, left, party_layer.SPELL_W, party_layer.SPELL_H, top)
    card = party_layer._small_spell(SPELLS["ice-storm"]).convert("RGB")
    assert _diff(crop, card.crop((24, 24, card.width - 24, card.height - 24))) < 6
    empty = _render(_party(ORDER, spell=None))
    assert _diff(crop, _slot_crop(empty, left, party_layer.SPELL_W, party_layer.SPELL_H, top)) > 20


def test_player_colour_in_the_header() -> None:
    red = _render(_party(ORDER, colour="red", letter="R"))
    blue = _render(_party(ORDER, colour="blue", letter="B"))
    y = party_layer.HEADER_H - 10
    assert red.getpixel((party_layer.WIDTH // 2, y)) != blue.getpixel((party_layer.WIDTH // 2, y))


def test_party_alt_text_names_leader_order_wounded_and_spell() -> None:
    alt = legend.party_alt_text(_party(ORDER, wounded={"rolf"}), heroes=HEROES, spells=SPELLS)
    assert "Ann's party (red), led by Brand the Fighter" in alt
    assert "Tamsin (Rogue), Ciarán (Cleric), Zoltán (Magic User), Rolf (Dwarf, wounded), Brand (Fighter)" in alt
    assert "Wounded: Rolf." in alt
    assert "Zoltán holds the Ice Storm spell (roll 7 or more; no effect under box B, E)" in alt
    alt = legend.party_alt_text(_party(ORDER, spell=None), heroes=HEROES, spells=SPELLS)
    assert "Zoltán has no spell" in alt and "No one is wounded" in alt


def test_party_tolerates_odd_input() -> None:
    odd = _party(["tamsin", "nobody", "zoltan"], spell="no-such-spell")
    img = _open(legend.render_party(odd, heroes=HEROES, spells=SPELLS))
    assert img.size == (party_layer.WIDTH, party_layer.HEIGHT)
    alt = legend.party_alt_text(odd, heroes=HEROES, spells=SPELLS)
    assert "nobody" in alt and "no-such-spell" in alt
    assert legend.party_alt_text(PartyView(player="Zed"), heroes=HEROES, spells=SPELLS) == "Zed's party: no heroes."


def test_parties_of_a_real_game_render_with_their_spell_for_everyone() -> None:
    rules = LegendRuleset()
    for state, _events in play_moves(rules, ["Ann", "Bob"], 40, mode="expanded")[::8]:
        for seat, p in enumerate(state.players):
            own = rules.view(state, seat).party_of(seat)
            assert [h.id for h in own.heroes] == [h.id for h in p.party] and own.spell == p.spell
            assert rules.view(state, 1 - seat).party_of(seat) == own  # face up: the same picture for all
            assert rules.view(state, None).party_of(seat) == own
            data = legend.render_party(own)
            assert _open(data).size == (party_layer.WIDTH, party_layer.HEIGHT) and len(data) < 1_000_000
            alt = legend.party_alt_text(own)
            assert ("has no spell" in alt) == (p.spell is None)
