"""Autokrator's data: the map, the 54 + 12 battle cards, the life tracks and the epochs hold together, and the
prose agrees with the numbers the engine reads."""

from __future__ import annotations

import re

from rules.autokrator.content import FIELDS, REALMS, library
from rules.autokrator.spec import SPEC

LIB = library()


def test_every_region_is_placed_and_every_border_names_real_regions() -> None:
    for a, b in LIB.links:
        assert a in LIB.regions and b in LIB.regions and a != b
    for r in LIB.regions.values():
        assert -11 <= r.lon <= 46 and 24 <= r.lat <= 54, r.id
        assert r.owner in (*REALMS, "", "x")
        assert r.anchor in ("", "red", "yellow")
        assert LIB.neighbours[r.id], f"{r.id} borders nothing"
    for key, realm in LIB.realms.items():
        assert LIB.regions[realm.capital].capital and LIB.regions[realm.capital].owner == key
        assert LIB.regions[realm.admiral].owner == key and LIB.regions[realm.admiral].anchor == realm.anchor
    assert sum(r.capital for r in LIB.regions.values()) == 4


def test_the_red_anchors_are_the_sidon_example_and_every_realm_has_ports() -> None:
    red = set(LIB.ports("red"))
    assert red == {"sidon", "cyprus", "rhodes", "crete", "ephesus", "thessaloniki", "corinth", "alexandria",
                   "cyrene", "apulia", "calabria", "tunis"}
    yellow = set(LIB.ports("yellow"))
    assert len(yellow) >= 10
    for key, realm in LIB.realms.items():
        assert any(LIB.regions[p].owner == key for p in LIB.ports(realm.anchor))


def test_fifty_four_cards_and_the_expansion_stacks() -> None:
    base = [c for c in LIB.cards.values() if c.owner in (*REALMS, "neutral")]
    assert len(base) == 54
    for key in REALMS:
        deck = [LIB.cards[c] for c in LIB.deck(key)]
        assert len(deck) == 12
        assert sorted(c.fixed for c in deck if c.fixed) == ["admiral", "garrison", "general", "king"]
        assert LIB.cards[LIB.fixed(key, "king")].kind == "cavalry"  # the crown is Cavalry
    assert len(LIB.deck("neutral")) == len(LIB.deck("neutral-general")) == len(LIB.deck("neutral-region")) == 6
    for c in LIB.cards.values():
        assert len(c.values) == len(FIELDS) and all(1 <= v <= 5 for v in c.values), c.id
        assert 1000 <= c.troops <= 6000 and 0 <= c.swords <= 3
    assert LIB.fixed("byz", "admiral") == "byz-admiral" and LIB.cards["byz-admiral"].kind == "archers"
    assert LIB.cards[LIB.fixed("sar", "general")].kind == "infantry"


def test_life_tracks_carry_the_books_modifiers() -> None:
    lives = LIB.numbers.lives
    assert lives["king"].start == 3 and lives["general"].start == 4 and lives["admiral"].start == 4
    assert lives["admiral"].modifier(4) == -2 and lives["general"].modifier(4) == -1
    assert any(t.modifier(n) > 0 for t in lives.values() for n in range(1, 5))


def test_each_epoch_has_a_report_and_a_condition_whose_numbers_match_the_data() -> None:
    assert [e.number for e in LIB.epochs] == [1, 2, 3, 4, 5]
    for e in LIB.epochs:
        words = len(e.report.split())
        assert 40 <= words <= 90, (e.number, words)
        assert str(e.value) in re.findall(r"\d+", e.condition), e.condition
        assert e.kind in ("bonus", "discount", "income", "conquest")
        if e.raid:
            assert LIB.regions[e.raid].owner == "x"
    assert len({e.report.split(".")[0] for e in LIB.epochs}) == 5


def test_the_rules_summary_and_intro_are_filled_in() -> None:
    assert 4 <= len(SPEC.rules) <= 8 and SPEC.rules[0].topic == "overview"
    assert all(len(s.text) <= 1500 for s in SPEC.rules)
    assert SPEC.intro.count("\n") in (1, 2)
    costs = LIB.numbers.costs
    gold = next(s.text for s in SPEC.rules if s.topic == "gold")
    for name, cost in costs.items():
        label = {"spy": "Spies", "king_campaign": "King's campaign", "general_campaign": "General's campaign",
                 "admiral_campaign": "Admiral's campaign"}[name]
        assert f"{label} ({cost} gold)" in gold or f"{label} ({cost})" in gold
