"""The Expanded Game's data respect the book and the lead's design: Hero cards of four more kinds, a row of
boxes per kind on every Monster and Hazard card, and the Spell cards.

Everything is read through ``rules.legend.content`` — the same loader the game uses.
"""

from __future__ import annotations

import re
from statistics import mean

import pytest

from rules.legend.content import (
    BOXES,
    CLASSES,
    ActionCard,
    Hero,
    card_index,
    cards,
    fighters,
    hero_index,
    heroes,
    need,
    spell_index,
    spells,
)

PARTY_CLASSES = ("dwarf", "cleric", "rogue", "magic")  # the kinds that read ``party``; Fighters read ``needs``
#: The "unholy" Monsters — undead, spirits, and the demon in stone — that Clerics are good at fighting.
UNHOLY = {"skeleton", "ghoul", "wraith", "gargoyle"}
SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
SENTENCE_END = re.compile(r"[.!?](?=\s|$)")
PLAYERS = 5


def monsters() -> tuple[ActionCard, ...]:
    return cards().monster


def hazards() -> tuple[ActionCard, ...]:
    return cards().hazard


def dangers() -> tuple[ActionCard, ...]:
    return monsters() + hazards()


def dot(monster: ActionCard) -> int:
    """A Monster's red dot (every Monster card has one)."""
    assert monster.dot is not None, monster.id
    return monster.dot


def row(card: ActionCard, kind: str) -> tuple[int, ...]:
    return card.needs if kind == "fighter" else card.party[kind]


def row_mean(pile: tuple[ActionCard, ...], kind: str) -> float:
    return mean(mean(row(c, kind)) for c in pile)


def of_class(kind: str) -> list[Hero]:
    return [h for h in heroes() if h.kind == kind]


def sentences(text: str) -> list[str]:
    return [s.strip() for s in SENTENCE_END.split(text) if s.strip()]


def opening(text: str, name: str = "") -> str:
    """The first three words, with the hero's own name masked (so "Rolf, a dwarf" and "Vuk, a dwarf" clash)."""
    masked = text.replace(name, "X") if name else text
    return " ".join(masked.lower().split()[:3])


def fight_win(need_: int, defence: int) -> float:
    """Chance a Hero kills the Monster before it wounds him, if neither retreats nor changes Leader."""
    p = (21 - need_) / 20
    q = (21 - defence) / 20
    return p / (p + (1 - p) * q)


def plain(text: str) -> bool:
    return bool(text) and text == text.strip() and "  " not in text and "…" not in text and "..." not in text


# --- the party rows on Monster and Hazard cards -----------------------------------------------------------

def test_every_danger_has_a_full_party_table() -> None:
    for c in dangers():
        assert set(c.party) == set(PARTY_CLASSES), c.id
        for kind in PARTY_CLASSES:
            assert len(c.party[kind]) == len(BOXES), (c.id, kind)
            assert all(2 <= n <= 20 for n in c.party[kind]), (c.id, kind, c.party[kind])


def test_other_cards_have_no_party_table() -> None:
    deck = cards()
    for c in deck.room + deck.feature + deck.treasure:
        assert c.party == {}, c.id


def test_each_row_is_a_base_plus_the_offsets() -> None:
    # The same trick as the Fighter rows: a base difficulty plus −2, −1, 0, +1, +2 in some order.
    for c in dangers():
        for kind in PARTY_CLASSES:
            r = sorted(c.party[kind])
            assert r == list(range(r[0], r[0] + len(BOXES))), (c.id, kind, c.party[kind])


@pytest.mark.parametrize("pile", ["monster", "hazard"])
@pytest.mark.parametrize("kind", PARTY_CLASSES)
def test_no_hero_is_favoured_over_another_of_its_class(pile: str, kind: str) -> None:
    cs: tuple[ActionCard, ...] = getattr(cards(), pile)
    columns = [sum(c.party[kind][i] for c in cs) for i in range(len(BOXES))]
    assert len(set(columns)) == 1, (pile, kind, columns)
    per_hero = {h.id: mean(need(c, h) for c in cs) for h in of_class(kind)}
    assert max(per_hero.values()) - min(per_hero.values()) < 1e-9, per_hero


# --- the class profile --------------------------------------------------------------------------------

def test_dwarves_fight_like_fighters() -> None:
    assert abs(row_mean(monsters(), "dwarf") - row_mean(monsters(), "fighter")) <= 1
    assert 10 <= row_mean(hazards(), "dwarf") <= 13


def test_clerics_are_good_against_the_unholy_only() -> None:
    ids = {m.id for m in monsters()}
    assert ids >= UNHOLY and 4 <= len(UNHOLY) <= 6
    unholy = tuple(m for m in monsters() if m.id in UNHOLY)
    rest = tuple(m for m in monsters() if m.id not in UNHOLY)
    assert 7 <= row_mean(unholy, "cleric") <= 9
    assert 14 <= row_mean(rest, "cleric") <= 16
    assert 10 <= row_mean(hazards(), "cleric") <= 13
    # On exactly the unholy cards the Cleric is the best kind of Hero to send in.
    best = {m.id for m in monsters()
            if all(mean(row(m, "cleric")) < mean(row(m, k)) for k in CLASSES if k != "cleric")}
    assert best == UNHOLY


def test_rogues_are_very_good_with_hazards_and_poor_against_monsters() -> None:
    assert 4 <= row_mean(hazards(), "rogue") <= 8
    assert 14 <= row_mean(monsters(), "rogue") <= 16
    assert all(row_mean(hazards(), "rogue") < row_mean(hazards(), k) for k in CLASSES if k != "rogue")


def test_magic_users_are_very_poor_at_ordinary_fighting() -> None:
    assert 16 <= row_mean(monsters(), "magic") <= 19
    assert 12 <= row_mean(hazards(), "magic") <= 15
    assert all(row_mean(monsters(), "magic") > row_mean(monsters(), k) for k in CLASSES if k != "magic")


def test_fights_by_class() -> None:
    def wins(h: Hero) -> float:
        return mean(fight_win(need(m, h), h.defence[dot(m)]) for m in monsters())

    for h in heroes():
        if h.kind in ("fighter", "dwarf"):
            assert 0.55 <= wins(h) <= 0.75, (h.id, wins(h))
        elif h.kind == "magic":
            assert wins(h) <= 0.35, (h.id, wins(h))
        else:
            assert 0.35 <= wins(h) <= 0.65, (h.id, wins(h))


# --- the Hero cards ---------------------------------------------------------------------------------------

def test_five_heroes_of_each_kind_with_every_dot() -> None:
    assert len(heroes()) == len(CLASSES) * len(BOXES)
    for kind in CLASSES:
        assert sorted(h.dot for h in of_class(kind)) == list(range(len(BOXES))), kind
    assert [h.id for h in of_class("fighter")] == [f.id for f in fighters()]


def test_ids_and_names_are_unique_across_fighters_and_heroes() -> None:
    hs = heroes()
    assert len({h.id for h in hs}) == len(hs) == len(hero_index())
    assert all(SLUG.fullmatch(h.id) for h in hs)
    assert len({h.name for h in hs}) == len(hs)
    assert not set(hero_index()) & set(card_index())


def test_book_names() -> None:
    idx = hero_index()
    assert idx["brand"].kind == "fighter" and idx["brand"].name == "Brand"
    assert idx["rolf"].name == "Rolf" and idx["rolf"].kind in PARTY_CLASSES  # "a Party with Rolf as the Leader"


def test_defences_are_balanced_within_each_class() -> None:
    bands = {"dwarf": (12.5, 13.5), "cleric": (11.5, 12.5), "rogue": (10.5, 11.5), "magic": (9.0, 10.0)}
    for kind, (low, high) in bands.items():
        totals = {h.id: sum(h.defence[dot(m)] for m in monsters()) for h in of_class(kind)}
        assert len(set(totals.values())) == 1, (kind, totals)
        avg = next(iter(totals.values())) / len(monsters())
        assert low <= avg <= high, (kind, avg)
        for h in of_class(kind):
            assert len(h.defence) == len(BOXES) and all(2 <= d <= 20 for d in h.defence), h.id
    order = [mean(h.defence[dot(m)] for h in of_class(kind) for m in monsters())
             for kind in ("dwarf", "fighter", "cleric", "rogue", "magic")]
    assert order == sorted(order, reverse=True), order  # Dwarves hardest to wound, Magic Users easiest


def test_hero_texts() -> None:
    for h in heroes():
        for part in (h.text, h.wounded_text):
            assert plain(part) and part.endswith("."), h.id
            assert len(sentences(part)) == 1, (h.id, part)
            assert h.name in part, h.id
            assert not re.search(r"\d", part), h.id
    for attr in ("text", "wounded_text"):
        openings = [opening(getattr(h, attr), h.name) for h in heroes()]
        assert len(openings) == len(set(openings)), (attr, sorted(o for o in openings if openings.count(o) > 1))


# --- need() -----------------------------------------------------------------------------------------------

def test_need_reads_the_class_row_at_the_heros_dot() -> None:
    for h in heroes():
        for c in dangers():
            expected = c.needs[h.dot] if h.kind == "fighter" else c.party[h.kind][h.dot]
            assert need(c, h) == expected
    idx, cs = hero_index(), card_index()
    assert need(cs["troll"], idx["brand"]) == 12  # "for Brand against the Troll the number is 12"
    assert need(cs["falling-slab"], idx["brand"]) == 10  # "if Brand is facing the Falling Slab the number is 10"
    for f in fighters():  # the Fighter heroes are the starter Fighter cards, unchanged
        h = idx[f.id]
        assert (h.kind, h.name, h.dot, h.defence, h.text) == ("fighter", f.name, f.dot, f.defence, f.text)


def test_brand_against_the_troll_from_both_sides() -> None:
    brand, troll = hero_index()["brand"], card_index()["troll"]
    assert troll.dot is not None and brand.defence[troll.dot] == 13  # "for the Troll against Brand … 13"


# --- the Spell cards --------------------------------------------------------------------------------------

def immune(spell_works: tuple[bool, ...]) -> int:
    return sum(1 for w in spell_works if not w)


def test_spell_pile() -> None:
    ss = spells()
    assert len(ss) >= 8 and len(ss) > PLAYERS  # the Spell Pile still holds cards once five players take one
    assert len({s.id for s in ss}) == len(ss) == len(spell_index())
    assert all(SLUG.fullmatch(s.id) for s in ss)
    assert len({s.name for s in ss}) == len(ss)
    ice = spell_index()["ice-storm"]
    assert ice.name == "Ice Storm" and ice.roll == 7  # "an Ice Storm spell fails if your roll is less than 7"


def test_spell_rolls_and_immunities() -> None:
    ss = spells()
    for s in ss:
        assert 5 <= s.roll <= 12, s.id
        assert len(s.works) == len(BOXES), s.id
        assert immune(s.works) <= 2, s.id
    for i in range(len(BOXES)):
        assert any(not s.works[i] for s in ss), BOXES[i]
    for a in ss:  # a stronger spell (lower roll) has at least as many immune boxes
        for b in ss:
            if a.roll < b.roll:
                assert immune(a.works) >= immune(b.works), (a.id, b.id)


def test_spells_are_worth_about_the_same_against_the_deck() -> None:
    for s in spells():
        hits = sum(1 for m in monsters() if s.works[dot(m)])
        chance = (21 - s.roll) / 20 * hits / len(monsters())
        assert 0.4 <= chance <= 0.6, (s.id, chance)


def test_spell_texts() -> None:
    titles = re.compile(r"\b(" + "|".join(re.escape(m.title.lower()) for m in monsters()) + r")\b")
    for s in spells():
        assert plain(s.text) and s.text.endswith("."), s.id
        assert 1 <= len(sentences(s.text)) <= 2, s.id
        assert plain(s.fizzle) and s.fizzle.endswith(".") and len(sentences(s.fizzle)) == 1, s.id
        for part in (s.text, s.fizzle):
            assert not re.search(r"\d", part), s.id
            # Read after any Monster's first part, so no Monster is named.
            assert not titles.search(part.lower()), s.id
    for attr in ("text", "fizzle"):
        openings = [opening(getattr(s, attr)) for s in spells()]
        assert len(openings) == len(set(openings)), attr
