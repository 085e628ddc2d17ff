"""The Legend of Heroes data files respect the book and the engine: counts, arrows, numbers, balance, prose.

Everything is read through ``rules.legend.content`` — the same loader the game uses.
"""

from __future__ import annotations

import re
from statistics import mean

import pytest

from rules.legend.content import BOXES, ActionCard, card_index, cards, fighter_index, fighters

PILES = ("room", "feature", "monster", "hazard", "treasure")
COUNTS = {"room": 14, "feature": 14, "monster": 14, "hazard": 12, "treasure": 16}
ARROWS = {
    "room": {"feature", "monster", "hazard", "treasure", "end"},
    "feature": {"monster", "hazard", "treasure", "end"},
    "monster": {"treasure", "end"},
    "hazard": {"treasure", "end"},
    "treasure": {"end"},
}
ROOMS_ON_BOARD = 12
ELLIPSIS = "…"
SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
# A continuation: the ellipsis, then "a"/"an" and a lowercase word ("…a troll, …", "…an ogre, …").
OPENING = re.compile(r"…(a|an) ([a-z][a-z'-]*)")
SENTENCE_END = re.compile(r"[.!?](?=\s|$)")


def pile(kind: str) -> tuple[ActionCard, ...]:
    return getattr(cards(), kind)


def every_card() -> list[ActionCard]:
    return [c for kind in PILES for c in pile(kind)]


def last_part(card: ActionCard) -> str:
    """The part read just before the next card is drawn."""
    return card.after if card.kind in ("monster", "hazard") else card.text


def parts(card: ActionCard) -> list[str]:
    return [card.text, card.after] if card.kind in ("monster", "hazard") else [card.text]


def sentences(text: str) -> list[str]:
    """Sentences of a text part; a trailing lead-in fragment ("…comes…") counts as one."""
    body = text.removeprefix(ELLIPSIS)
    out = [s.strip() for s in SENTENCE_END.split(body) if s.strip()]
    return out


def lead_in(text: str) -> str:
    """The fragment after the last full stop of a text that ends in an ellipsis."""
    return sentences(text)[-1]


def legal_pairs() -> list[tuple[ActionCard, ActionCard]]:
    return [(c, n) for c in every_card() if c.next != "end" for n in pile(c.next)]


def fight_win(need: int, defence: int) -> float:
    """Chance the Fighter kills the Monster before it wounds him (d20, rolls ≥ the number succeed)."""
    p = (21 - need) / 20
    q = (21 - defence) / 20
    return p / (p + (1 - p) * q)


# --- counts, ids, arrows ----------------------------------------------------------------------------

def test_pile_counts() -> None:
    assert {k: len(pile(k)) for k in PILES} == COUNTS


def test_kinds_match_piles() -> None:
    for kind in PILES:
        assert all(c.kind == kind for c in pile(kind))


def test_ids_are_unique_slugs() -> None:
    ids = [c.id for c in every_card()]
    assert len(ids) == len(set(ids)) == len(card_index())
    assert all(SLUG.fullmatch(i) for i in ids)


def test_titles_present_and_unique_per_pile() -> None:
    for kind in PILES:
        titles = [c.title for c in pile(kind)]
        assert all(t and t[0].isupper() and not t.endswith(".") for t in titles)
        assert len(titles) == len(set(titles)), kind


def test_arrows_point_forward_only() -> None:
    for c in every_card():
        assert c.next in ARROWS[c.kind], (c.id, c.next)


def test_suggested_arrow_mix() -> None:
    def mix(kind: str) -> dict[str, int]:
        out: dict[str, int] = {}
        for c in pile(kind):
            out[c.next] = out.get(c.next, 0) + 1
        return out

    assert mix("room") == {"feature": 5, "monster": 4, "hazard": 2, "treasure": 2, "end": 1}
    assert mix("feature") == {"monster": 4, "hazard": 4, "treasure": 5, "end": 1}
    assert mix("monster") == {"treasure": 9, "end": 5}
    assert mix("hazard") == {"treasure": 6, "end": 6}


def test_no_pile_can_run_dry() -> None:
    # Arrows only go forward, so one room's exploration draws at most one card from each pile (a Monster
    # left in a room after a wound is not redrawn).  Twelve rooms therefore need at most twelve of each.
    rank = {"room": 0, "feature": 1, "monster": 2, "hazard": 2, "treasure": 3, "end": 4}
    for c in every_card():
        assert rank[c.next] > rank[c.kind]
    for kind in ("feature", "monster", "hazard", "treasure"):
        assert len(pile(kind)) >= ROOMS_ON_BOARD
    assert len(pile("room")) >= ROOMS_ON_BOARD


# --- numbers ----------------------------------------------------------------------------------------

def test_danger_numbers() -> None:
    for c in pile("monster") + pile("hazard"):
        assert len(c.needs) == len(BOXES), c.id
        assert all(5 <= n <= 18 for n in c.needs), c.id
        assert c.gold == 0
        assert c.after
    for c in pile("monster"):
        assert c.dot is not None and 0 <= c.dot < len(BOXES), c.id
    for c in pile("hazard"):
        assert c.dot is None, c.id


def test_other_cards_carry_no_fight_numbers() -> None:
    for kind in ("room", "feature", "treasure"):
        for c in pile(kind):
            assert c.needs == () and c.dot is None and c.after == "", c.id


def test_monster_dots_spread_evenly() -> None:
    counts = [sum(1 for m in pile("monster") if m.dot == i) for i in range(len(BOXES))]
    assert max(counts) - min(counts) <= 1


def test_fighters() -> None:
    fs = fighters()
    assert len(fs) == 5
    assert len({f.id for f in fs}) == 5 and all(SLUG.fullmatch(f.id) for f in fs)
    assert len({f.name for f in fs}) == 5
    assert sorted(f.dot for f in fs) == list(range(len(BOXES)))
    for f in fs:
        assert len(f.defence) == len(BOXES), f.id
        assert all(8 <= d <= 17 for d in f.defence), f.id


def test_treasure_gold() -> None:
    golds = [t.gold for t in pile("treasure")]
    assert all(5 <= g <= 150 for g in golds)
    assert 800 <= sum(golds) <= 1000
    assert len(set(golds)) >= 12  # varied values
    assert sum(1 for g in golds if g >= 100) >= 3  # a few big prizes
    for kind in ("room", "feature", "monster", "hazard"):
        assert all(c.gold == 0 for c in pile(kind))


# --- fixtures from the book ---------------------------------------------------------------------------

def test_book_fixtures() -> None:
    idx = card_index()
    brand = fighter_index()["brand"]
    assert brand.name == "Brand" and brand.dot == 0
    troll = idx["troll"]
    assert troll.kind == "monster" and troll.title == "Troll"
    assert troll.needs[brand.dot] == 12  # "for Brand against the Troll the number is 12"
    assert troll.dot is not None and brand.defence[troll.dot] == 13  # "for the Troll against Brand … 13"
    slab = idx["falling-slab"]
    assert slab.kind == "hazard" and slab.title == "Falling Slab"
    assert slab.needs[brand.dot] == 10  # "against the Falling Slab it is 10"
    map_room = idx["map-room"]
    assert map_room.kind == "room" and map_room.title == "Map Room" and map_room.next == "monster"


# --- balance and difficulty ---------------------------------------------------------------------------

def test_no_fighter_is_favoured() -> None:
    dangers = pile("monster") + pile("hazard")
    need = {f.id: mean(c.needs[f.dot] for c in dangers) for f in fighters()}
    assert max(need.values()) - min(need.values()) <= 0.3, need
    defence = {f.id: mean(f.defence[m.dot] for m in pile("monster")) for f in fighters()}  # type: ignore[index]
    assert max(defence.values()) - min(defence.values()) <= 0.3, defence
    for kind in ("monster", "hazard"):  # each pile on its own, too
        per = {f.id: mean(c.needs[f.dot] for c in pile(kind)) for f in fighters()}
        assert max(per.values()) - min(per.values()) <= 0.3, (kind, per)


def test_fights_are_winnable_but_not_safe() -> None:
    for f in fighters():
        wins = [fight_win(m.needs[f.dot], f.defence[m.dot]) for m in pile("monster")]  # type: ignore[index]
        assert 0.55 <= mean(wins) <= 0.75, (f.id, mean(wins))
        passes = [(21 - h.needs[f.dot]) / 20 for h in pile("hazard")]
        assert 0.45 <= mean(passes) <= 0.75, (f.id, mean(passes))


def test_weak_and_fearsome_monsters() -> None:
    avg = {m.id: mean(m.needs) for m in pile("monster")}
    assert avg["goblin"] <= 10 and avg["giant-rats"] <= 10
    assert avg["minotaur"] >= 14 and avg["wraith"] >= 14


# --- prose: form ----------------------------------------------------------------------------------------

def test_no_ascii_ellipsis_and_ellipsis_only_at_the_edges() -> None:
    for c in every_card():
        for part in parts(c):
            assert "..." not in part, c.id
            inner = part.removeprefix(ELLIPSIS).removesuffix(ELLIPSIS)
            assert ELLIPSIS not in inner, c.id
            assert part == part.strip() and "  " not in part, c.id


def test_one_to_three_sentences_per_part() -> None:
    for c in every_card():
        for part in parts(c):
            assert 1 <= len(sentences(part)) <= 3, (c.id, part)


def test_room_texts_open_with_the_room() -> None:
    for c in pile("room"):
        assert not c.text.startswith(ELLIPSIS) and c.text[0].isupper(), c.id


def test_continuations_open_with_a_singular_noun_phrase() -> None:
    for kind in ("feature", "monster", "hazard", "treasure"):
        for c in pile(kind):
            m = OPENING.match(c.text)
            assert m, (c.id, c.text[:30])
            article, word = m.groups()
            assert (article == "an") == (word[0] in "aeiou"), (c.id, article, word)


def test_lead_ins_and_endings() -> None:
    for c in every_card():
        last = last_part(c)
        if c.next == "end":
            assert last.endswith((".", "!")) and not last.endswith(ELLIPSIS), c.id
        else:
            assert last.endswith(ELLIPSIS), c.id
            assert not last.endswith(("." + ELLIPSIS, "," + ELLIPSIS, ":" + ELLIPSIS)), c.id
    for c in pile("monster") + pile("hazard"):
        # Read when drawn: ends as the danger strikes, with a full stop.
        assert c.text.endswith(".") and not c.text.endswith(ELLIPSIS), c.id


def test_openings_and_lead_ins_are_unique() -> None:
    for kind in PILES:
        firsts = [sentences(c.text)[0] for c in pile(kind)]
        assert len(firsts) == len(set(firsts)), kind
        leads = [lead_in(last_part(c)) for c in pile(kind) if c.next != "end"]
        assert len(leads) == len(set(leads)), kind
    everywhere = [lead_in(last_part(c)) for c in every_card() if c.next != "end"]
    assert len(everywhere) == len(set(everywhere))


def test_every_legal_pair_joins_cleanly() -> None:
    pairs = legal_pairs()
    assert len(pairs) == sum(len(pile(c.next)) for c in every_card() if c.next != "end")
    for prev, nxt in pairs:
        joined = f"{last_part(prev)} {nxt.text}"
        left, right = joined.split(ELLIPSIS + " " + ELLIPSIS)
        assert left == last_part(prev).removesuffix(ELLIPSIS), (prev.id, nxt.id)
        assert right == nxt.text.removeprefix(ELLIPSIS), (prev.id, nxt.id)
        assert OPENING.match(ELLIPSIS + right), (prev.id, nxt.id)


def test_map_room_then_troll() -> None:
    idx = card_index()
    joined = f"{idx['map-room'].title}. {idx['map-room'].text} {idx['troll'].text}"
    assert joined.startswith("Map Room. ")
    assert "… …a troll" in joined and joined.endswith(".")


def test_fighter_texts() -> None:
    for f in fighters():
        for part in (f.text, f.wounded_text):
            assert len(sentences(part)) == 1 and part.endswith("."), f.id
            assert f.name in part, f.id
            assert ELLIPSIS not in part and "..." not in part


# --- prose agrees with the data -------------------------------------------------------------------------

@pytest.mark.parametrize("card", pile("treasure"), ids=lambda c: c.id)
def test_treasure_prose_states_its_value(card: ActionCard) -> None:
    numbers = [int(n) for n in re.findall(r"\d+", card.text)]
    assert numbers == [card.gold], (card.id, numbers, card.gold)
    assert f"worth {card.gold} gold pieces" in card.text


def test_only_treasure_mentions_values() -> None:
    for c in every_card():
        if c.kind == "treasure":
            continue
        for part in parts(c):
            assert not re.search(r"\d", part), c.id
            assert not re.search(r"gold|coin|worth", part, re.IGNORECASE), c.id
    for f in fighters():
        assert not re.search(r"\d", f.text + f.wounded_text), f.id
