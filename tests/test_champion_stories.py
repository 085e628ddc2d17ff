"""The 75 story cards of Champion of the Empire: counts, shapes, balance, and prose that agrees with the data.

Everything is read through ``rules.champion.content`` — the same loader the game uses.  The outcome texts
end in fixed glossary sentences ("Gain 2 gold.", "Fight!"); the tests parse them back and compare them with
the numbers the engine reads, so a player is never told one thing while the engine does another.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from rules.champion.content import DECKS, KEEP_KEYS, Opponent, Outcome, Story, item_index, stories, stories_by_deck

SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
SENTENCE = re.compile(r"(?<=[.!?])\s+")
ROLL_INSTRUCTION = "Roll a d6."

#: What "Place this card in front of you: …" promises for each keep key (the engine's RULES.md words).
KEEP_WORDS = {
    "guide": "your next exploration moves one province further",
    "blessing": "draw 1 extra combat card in your next fight",
    "fever": "draw 1 fewer combat card in your next fight",
    "free_passage": "your next voyage costs nothing",
    "lame": "your next move action moves one province fewer",
}

#: Opponent numbers allowed in each deck: (combat, initiative, life, experience), inclusive ranges.
BANDS = {
    "easy": {"combat": (2, 5), "initiative": (1, 3), "life": (1, 3), "xp": (0, 2)},
    "medium": {"combat": (4, 7), "initiative": (2, 4), "life": (2, 5), "xp": (0, 3)},
    "hard": {"combat": (6, 9), "initiative": (3, 5), "life": (3, 6), "xp": (1, 4)},
}
#: The most an outcome may give or take in each deck.
MOST_GOLD = {"easy": 2, "medium": 4, "hard": 6}  # gold gained, fight reward included
MOST_XP = {"easy": 2, "medium": 2, "hard": 3}
MOST_WOUND = {"easy": 1, "medium": 2, "hard": 3}  # life lost outside a fight
MOST_OPPONENTS = {"easy": 2, "medium": 3, "hard": 3}
LEAST_INFO = {"easy": 2, "medium": 6, "hard": 6}

FIXTURES = ("spring-oasis", "greek-scholars", "servants-of-mars", "tax-collector", "starving-farmers", "bodyguard")


def every_story() -> tuple[Story, ...]:
    return stories()


def every_outcome() -> list[tuple[Story, Outcome]]:
    return [(s, o) for s in stories() for o in s.outcome]


def sentences(text: str) -> list[str]:
    return [p for p in SENTENCE.split(text.strip()) if p]


def words(text: str) -> int:
    return len(text.split())


# --- the glossary --------------------------------------------------------------------------------------

def effects_in_prose(text: str) -> tuple[str, Counter[str]]:
    """Split an outcome text into its story sentence and the effects its glossary sentences state.

    Returns the story sentence and a multiset of normalised effects ("gold:+2", "fight", "keep:guide").
    Any sentence after the first that is not a glossary sentence fails the test.
    """
    parts = sentences(text)
    assert parts, "empty outcome text"
    story, rest = parts[0], parts[1:]
    found: Counter[str] = Counter()
    patterns: list[tuple[re.Pattern[str], str]] = [
        (re.compile(r"Gain (\d+) gold\."), "gold:+{}"),
        (re.compile(r"Lose (\d+) gold\."), "gold:-{}"),
        (re.compile(r"Gain (\d+) experience\."), "xp:+{}"),
        (re.compile(r"Gain (\d+) life\."), "life:+{}"),
        (re.compile(r"Lose (\d+) life\."), "life:-{}"),
        (re.compile(r"Set your life to its maximum\."), "full_life"),
        (re.compile(r"Raise your maximum life by (\d+)\."), "max_life:+{}"),
        (re.compile(r"Raise your combat value by (\d+)\."), "combat:+{}"),
        (re.compile(r"Raise your initiative by (\d+)\."), "initiative:+{}"),
        (re.compile(r"Gain (\d+) information\."), "info:+{}"),
        (re.compile(r"Draw an item card for free\."), "draw_item"),
        (re.compile(r"Lose an item of your choice\."), "lose_item"),
        (re.compile(r"Gain the (.+)\."), "item:{}"),
        (re.compile(r"Place this card in front of you: (.+)\."), "keep-words:{}"),
        (re.compile(r"Fight!"), "fight"),
        (re.compile(r"The fight lasts at most (\d+) combat rounds?\."), "rounds:{}"),
        (re.compile(r"If you win, gain (\d+) gold\."), "win_gold:{}"),
        (re.compile(r"Nothing happens\."), "nothing"),
    ]
    for sentence in rest:
        for pattern, label in patterns:
            m = pattern.fullmatch(sentence)
            if m:
                found[label.format(*m.groups())] += 1
                break
        else:
            raise AssertionError(f"not a glossary sentence: {sentence!r} in {text!r}")
    return story, found


def effects_in_data(outcome: Outcome) -> Counter[str]:
    """The same multiset, built from the fields the engine reads."""
    out: Counter[str] = Counter()
    if outcome.gold:
        out[f"gold:{outcome.gold:+d}"] += 1
    if outcome.xp:
        out[f"xp:{outcome.xp:+d}"] += 1
    if outcome.life:
        out[f"life:{outcome.life:+d}"] += 1
    if outcome.full_life:
        out["full_life"] += 1
    for key in ("max_life", "combat", "initiative", "info"):
        value = getattr(outcome, key)
        if value:
            out[f"{key}:{value:+d}"] += 1
    if outcome.item:
        out[f"item:{item_index()[outcome.item].name}"] += 1
    if outcome.draw_item:
        out["draw_item"] += 1
    if outcome.lose_item:
        out["lose_item"] += 1
    if outcome.keep:
        out[f"keep-words:{KEEP_WORDS[outcome.keep]}"] += 1
    if outcome.opponent:
        out["fight"] += 1
    if outcome.rounds:
        out[f"rounds:{outcome.rounds}"] += 1
    if outcome.win_gold:
        out[f"win_gold:{outcome.win_gold}"] += 1
    if not out:
        out["nothing"] += 1
    return out


# --- counts and ids ------------------------------------------------------------------------------------

def test_twenty_five_cards_in_each_deck() -> None:
    by_deck = stories_by_deck()
    assert {d: len(by_deck[d]) for d in DECKS} == {"easy": 25, "medium": 25, "hard": 25}
    assert len(every_story()) == 75


def test_ids_and_titles_are_unique_slugs() -> None:
    ids = [s.id for s in every_story()]
    titles = [s.title for s in every_story()]
    assert all(SLUG.fullmatch(i) for i in ids), [i for i in ids if not SLUG.fullmatch(i)]
    assert len(set(ids)) == len(ids), [i for i, n in Counter(ids).items() if n > 1]
    assert len(set(titles)) == len(titles), [t for t, n in Counter(titles).items() if n > 1]


# --- the story text ------------------------------------------------------------------------------------

@pytest.mark.parametrize("story", every_story(), ids=lambda s: s.id)
def test_story_text_is_forty_to_ninety_words(story: Story) -> None:
    assert 40 <= words(story.text) <= 90, (story.id, words(story.text))


def test_no_two_cards_open_with_the_same_sentence() -> None:
    openings = Counter(sentences(s.text)[0] for s in every_story())
    assert [o for o, n in openings.items() if n > 1] == []


def test_no_two_cards_open_with_the_same_three_words() -> None:
    starts = Counter(" ".join(s.text.split()[:3]) for s in every_story())
    assert [o for o, n in starts.items() if n > 1] == []


@pytest.mark.parametrize("story", every_story(), ids=lambda s: s.id)
def test_a_roll_card_ends_by_asking_for_the_roll(story: Story) -> None:
    assert story.text.endswith(ROLL_INSTRUCTION) == story.roll, story.id
    assert story.text.count(ROLL_INSTRUCTION) <= 1


def test_texts_are_plain_and_finished() -> None:
    for story in every_story():
        for text in [story.text, story.title] + [o.text for o in story.outcome] + [o.choice for o in story.outcome]:
            assert text == text.strip(), story.id
            assert "  " not in text, story.id
            assert "TODO" not in text and "XXX" not in text, story.id
            assert "\n" not in text, story.id


# --- the outcome table ---------------------------------------------------------------------------------

@pytest.mark.parametrize("story", every_story(), ids=lambda s: s.id)
def test_the_outcome_table_has_a_known_shape(story: Story) -> None:
    outcomes = story.outcome
    assert outcomes, story.id
    if story.roll:
        faces: list[int] = []
        for o in outcomes:
            assert len(o.rolls) in (1, 2) and o.rolls[0] <= o.rolls[-1], (story.id, o.rolls)
            assert o.choice == "", story.id
            faces += range(o.rolls[0], o.rolls[-1] + 1)
        assert sorted(faces) == [1, 2, 3, 4, 5, 6], (story.id, faces)
        assert len(outcomes) >= 2, story.id
        for face in range(1, 7):
            assert sum(o.covers(face) for o in outcomes) == 1
    else:
        assert all(o.rolls == () for o in outcomes), story.id
        if len(outcomes) == 1:
            assert outcomes[0].choice == "", story.id
        else:
            labels = [o.choice for o in outcomes]
            assert 2 <= len(outcomes) <= 3, story.id
            assert all(labels) and len(set(labels)) == len(labels), (story.id, labels)
            assert all(len(label.split()) <= 5 for label in labels), (story.id, labels)
            # A choice that costs gold needs the gold: some option must always be open.
            assert any(o.gold >= 0 for o in outcomes), story.id


def test_every_shape_is_used() -> None:
    shapes: Counter[str] = Counter()
    for s in every_story():
        if s.roll:
            shapes["roll"] += 1
        elif len(s.outcome) == 1:
            shapes["single"] += 1
        else:
            shapes["choice"] += 1
        if any(o.opponent for o in s.outcome):
            shapes["fight"] += 1
        if not s.roll and any(o.gold < 0 and (o.item or o.draw_item or o.info or o.full_life or o.keep)
                              for o in s.outcome):
            shapes["bargain"] += 1
    for shape, least in {"roll": 20, "single": 5, "choice": 12, "fight": 20, "bargain": 4}.items():
        assert shapes[shape] >= least, (shape, shapes)


@pytest.mark.parametrize("story", every_story(), ids=lambda s: s.id)
def test_the_prose_of_each_outcome_states_exactly_its_effects(story: Story) -> None:
    for o in story.outcome:
        narrative, stated = effects_in_prose(o.text)
        assert stated == effects_in_data(o), (story.id, o.text, dict(stated), dict(effects_in_data(o)))
        assert narrative[-1] in ".!", (story.id, narrative)
        assert 4 <= words(narrative) <= 40, (story.id, narrative)


def test_fight_fields_only_on_fights() -> None:
    for story, o in every_outcome():
        if not o.opponent:
            assert o.rounds == 0 and o.win_gold == 0, story.id
        assert o.rounds >= 0 and o.win_gold >= 0, story.id


def test_referenced_items_exist() -> None:
    referenced = [(s.id, o.item) for s, o in every_outcome() if o.item]
    referenced += [(s.id, p.weapon) for s, o in every_outcome() for p in o.opponent if p.weapon]
    if not referenced:
        return
    index = item_index()
    for story_id, item in referenced:
        assert item in index, (story_id, item)
        assert not index[item].starting or any(p.weapon == item for s, o in every_outcome() for p in o.opponent), (
            story_id, item)


def test_opponents_fight_with_weapons() -> None:
    for story, o in every_outcome():
        for p in o.opponent:
            if p.weapon:
                assert item_index()[p.weapon].kind == "weapon", (story.id, p.name, p.weapon)


def test_gained_items_are_market_items() -> None:
    for story, o in every_outcome():
        if o.item:
            assert not item_index()[o.item].starting, (story.id, o.item)


# --- balance --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("story", every_story(), ids=lambda s: s.id)
def test_opponents_sit_in_their_deck_band(story: Story) -> None:
    band = BANDS[story.deck]
    for o in story.outcome:
        assert len(o.opponent) <= MOST_OPPONENTS[story.deck], story.id
        for p in o.opponent:
            for key, (low, high) in band.items():
                assert low <= getattr(p, key) <= high, (story.id, p.name, key, getattr(p, key))
            assert p.name and p.name[0].isupper(), (story.id, p.name)
        names = [p.name for p in o.opponent]
        assert len(set(names)) == len(names), (story.id, names)  # a player must be able to say whom to strike


@pytest.mark.parametrize("story", every_story(), ids=lambda s: s.id)
def test_rewards_and_wounds_fit_the_deck(story: Story) -> None:
    for o in story.outcome:
        assert o.gold + o.win_gold <= MOST_GOLD[story.deck], (story.id, o.text)
        assert o.xp <= MOST_XP[story.deck], (story.id, o.text)
        assert -o.life <= MOST_WOUND[story.deck], (story.id, o.text)
        assert o.xp >= 0 and o.info >= 0 and o.max_life >= 0 and o.combat >= 0 and o.initiative >= 0, story.id
        assert o.info <= 1 and o.max_life <= 1 and o.combat <= 1 and o.initiative <= 1, story.id
        if story.deck == "easy":
            assert o.combat == 0 and o.initiative == 0, story.id
        assert not (o.full_life and o.life), story.id


def test_easy_decks_are_gentler_than_hard_ones() -> None:
    def mean_opponent(deck: str) -> float:
        fighters: list[Opponent] = [p for s in stories_by_deck()[deck] for o in s.outcome for p in o.opponent]
        return sum(p.combat + p.life for p in fighters) / len(fighters)

    assert mean_opponent("easy") < mean_opponent("medium") < mean_opponent("hard")


def test_information_is_spread_over_the_decks() -> None:
    for deck in DECKS:
        with_info = [s.id for s in stories_by_deck()[deck] if any(o.info for o in s.outcome)]
        assert len(with_info) >= LEAST_INFO[deck], (deck, with_info)
    assert sum(any(o.info for o in s.outcome) for s in every_story()) >= 14


def test_cards_placed_in_front_of_you() -> None:
    kept = [s for s in every_story() if any(o.keep for o in s.outcome)]
    assert len(kept) >= 5
    assert {o.keep for s in kept for o in s.outcome if o.keep} == set(KEEP_KEYS)
    # The keep key lives on the outcome that places the card, so a roll decides it; never on the card itself.
    assert all(s.keep == "" for s in every_story())


def test_most_outcomes_carry_a_fate_icon() -> None:
    outcomes = [o for _, o in every_outcome()]
    marked = [o for o in outcomes if o.fate]
    assert len(marked) >= 0.8 * len(outcomes)


def test_fate_icons_point_the_right_way() -> None:
    for story, o in every_outcome():
        gains = (o.gold > 0 or o.xp > 0 or o.life > 0 or o.full_life or o.max_life or o.combat or o.initiative
                 or o.info or o.item or o.draw_item or o.keep in ("guide", "blessing", "free_passage"))
        losses = o.gold < 0 or o.life < 0 or o.lose_item or o.keep in ("fever", "lame")
        if gains and not losses and not o.opponent:
            assert o.fate != "skull", (story.id, o.text)
        if losses and not gains:
            assert o.fate != "laurel", (story.id, o.text)


# --- the book's example cards ----------------------------------------------------------------------------

def card(story_id: str) -> Story:
    match = [s for s in every_story() if s.id == story_id]
    assert len(match) == 1, story_id
    return match[0]


def numbers(p: Opponent) -> tuple[int, int, int, int]:
    return (p.combat, p.initiative, p.life, p.xp)


def test_the_fixtures_are_present() -> None:
    for story_id in FIXTURES:
        card(story_id)


def test_spring_oasis() -> None:
    spring = card("spring-oasis")
    assert spring.deck == "easy" and spring.roll
    robber, coins, healing = spring.outcome
    assert robber.rolls == (1, 3) and [(p.name, *numbers(p)) for p in robber.opponent] == [("Robber", 5, 3, 3, 2)]
    assert robber.rounds == 2
    assert coins.rolls == (4, 5) and coins.gold == 2 and not coins.opponent
    assert healing.rolls in ((6,), (6, 6)) and healing.full_life


def test_greek_scholars() -> None:
    scholars = card("greek-scholars")
    assert scholars.deck == "medium" and scholars.roll
    nothing, lore = scholars.outcome
    assert nothing.rolls == (1, 2) and effects_in_data(nothing) == Counter({"nothing": 1})
    assert lore.rolls == (3, 6) and lore.info == 1 and effects_in_data(lore) == Counter({"info:+1": 1})


def test_servants_of_mars() -> None:
    mars = card("servants-of-mars")
    assert mars.deck == "medium" and not mars.roll and len(mars.outcome) == 1
    (gift,) = mars.outcome
    assert gift.choice == "" and effects_in_data(gift) == Counter({"max_life:+1": 1})


def test_tax_collector() -> None:
    taxes = card("tax-collector")
    fights = [o for o in taxes.outcome if o.opponent]
    assert fights
    for fight in fights:
        assert len(fight.opponent) == 3 and [p.xp for p in fight.opponent] == [1, 1, 1]
        assert fight.rounds > 0  # the book's example ends with the combat rounds run out and one opponent alive


def test_starving_farmers() -> None:
    farmers = card("starving-farmers")
    fights = [o for o in farmers.outcome if o.opponent]
    assert fights
    for fight in fights:
        assert [numbers(p)[:3] for p in fight.opponent] == [(3, 3, 1), (3, 3, 1)]
        assert [p.xp for p in fight.opponent] == [0, 1]


def test_bodyguard() -> None:
    guard = card("bodyguard")
    fights = [o for o in guard.outcome if o.opponent]
    assert fights
    for fight in fights:
        assert [numbers(p) for p in fight.opponent] == [(6, 4, 3, 2)]
