"""The Champion of the Empire thread text: whole random games told step by step (never raises, no mentions, no
raw ids, no secrets), and focused scenes with scripted dice (a story roll, a fight, the market, the champion)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from rules.champion import auto
from rules.champion import telling as story
from rules.champion.content import CARD_TYPES, library
from rules.champion.engine import Engine
from rules.champion.ruleset import ChampionRuleset
from rules.champion.state import (
    Buy,
    Caravan,
    CardsDrawn,
    Champion,
    ChampionEvent,
    Choose,
    Commission,
    Defend,
    FightEnded,
    Gazed,
    Information,
    Keep,
    MonsterOffer,
    MonsterTaken,
    NoRoll,
    Play,
    ProvinceCard,
    Regenerated,
    State,
    TrailLost,
    WeaponChosen,
)
from rules.champion.telling import CARD_NAMES, EFFECT_WORDS, revealed
from rules.core import SeatInfo
from tests.champion_helpers import (
    ScriptedDice,
    book_library,
    calm,
    next_to,
    scripted,
    stack_combat,
    started,
    story_on_top,
)
from tests.test_champion_property import choose

LIB = library()
RULES = Engine()
#: Views for states of any test here (the book's fixture cards included).
VIEWS = ChampionRuleset(Engine(book_library()))


def tell(state: State, events: Any, *, lib: Any = None) -> list[str]:
    """The lines told for a state's public view (as the presenter tells them)."""
    return story.tell(VIEWS.view(state, None), events, lib=lib)


def final_report(state: State, *, lib: Any = None) -> list[str]:
    return story.final_report(VIEWS.view(state, None), lib=lib)
#: Events that touch a hero's secrets: their lines must never name a region, an icon or a province.
SECRET_EVENTS = (Information, ProvinceCard, TrailLost, MonsterOffer, MonsterTaken, Champion)


def _raw_ids() -> list[tuple[str, re.Pattern[str]]]:
    """Every id whose display name differs from it, as a whole-word, case-sensitive pattern."""
    named: list[tuple[str, str]] = []
    named += [(p.id, p.name) for p in LIB.map.province] + [(r.id, r.name) for r in LIB.map.region]
    named += [(h.id, h.name) for h in LIB.heroes] + [(i.id, i.name) for i in LIB.items]
    named += [(s.id, s.title) for s in LIB.stories] + [(e.id, e.name) for e in LIB.events]
    named += [(m.id, m.name) for m in LIB.monsters]
    return [(i, re.compile(rf"(?<![\w-]){re.escape(i)}(?![\w-])")) for i, name in named if i != name]


RAW = _raw_ids()
#: The card texts read aloud: an ordinary word in them ("games", "club") is not an id leaking.
#: Display names are where names belong too: "Knotted club" holds the word "club" and is no leak.
PROSE = sorted({s.text for s in LIB.stories} | {o.text for s in LIB.stories for o in s.outcome}
               | {o.choice for s in LIB.stories for o in s.outcome if o.choice}
               | {op.name for s in LIB.stories for o in s.outcome for op in o.opponent}
               | {x.name for x in (*LIB.map.province, *LIB.map.region, *LIB.heroes, *LIB.items, *LIB.events,
                                   *LIB.monsters)} | {s.title for s in LIB.stories}
               | {p.city for p in LIB.map.province if p.city} | {p.shrine for p in LIB.map.province if p.shrine},
               key=len, reverse=True)


def _templated(line: str) -> str:
    for text in PROSE:
        if text and text in line:
            line = line.replace(text, "")
    return line


def _secrets(state: State) -> set[str]:
    """Names that would give a hero's secret away: the lair, the regions set aside, the province card's icon."""
    out: set[str] = set()
    for h in state.heroes:
        lair = RULES.table.lair(h)
        if lair:
            out.add(LIB.province[lair].name)
        out |= {r.name for r in LIB.map.region if r.id not in h.regions}
        if h.province_card:
            out.add(h.province_card)
    return out


def _check(state: State, events: list[Any], lines: list[str]) -> None:
    for line in lines:
        assert line.strip(), "an empty line"
        assert "@" not in line, line
        bare = _templated(line)
        for rid, pattern in RAW:
            assert not pattern.search(bare), f"raw id {rid!r} in: {line}"
        for region in LIB.map.region:  # region names are never told at all
            assert region.name not in line, line
    secrets = _secrets(state)
    for e in events:
        if isinstance(e, SECRET_EVENTS):
            for line in tell(state, [e]):
                for word in secrets:
                    assert word not in line, f"secret {word!r} in: {line}"
        if isinstance(e, CardsDrawn):  # hands are secret: only counts
            for line in tell(state, [e]):
                assert not any(name in line for name in CARD_NAMES.values()), line


def _play(players: int, options: dict[str, Any], seed: int) -> tuple[State, set[str]]:
    seats = [SeatInfo(index=i, name=n) for i, n in enumerate(["Ann", "Bob", "Cid", "Dora"][:players])]
    step = RULES.setup(seats, options, seed)
    state = step.state
    seen: set[str] = set()
    _check(state, list(step.events), tell(state, step.events))
    rng = random.Random(seed)
    for _ in range(30000):
        if RULES.outcome(state) is not None:
            break
        seat = rng.choice(sorted(RULES.to_act(state)))
        timed = auto.timeout(RULES, state) if options["opponents"] == "players" and rng.random() < 0.05 else None
        if timed is not None:
            seat, action = timed
        else:
            action = choose(state, seat, RULES.legal(state, seat), rng)
        step = RULES.apply(state, seat, action)
        state = step.state
        events = list(step.events)
        seen |= {type(e).__name__ for e in events}
        lines = tell(state, events)
        _check(state, events, lines)
        for kind, cid in revealed(events):
            assert kind in ("story", "event", "item", "monster") and cid
    assert RULES.outcome(state) is not None
    return state, seen


GAMES = [
    (2, "players", False, False, False, 1),
    (3, "bot", True, False, True, 2),
    (4, "players", True, True, False, 3),
    (2, "bot", False, True, True, 4),
    (3, "players", True, False, True, 5),
    (4, "bot", False, False, False, 6),
    (2, "players", True, True, True, 7),
    (3, "bot", True, True, False, 8),
]


@pytest.mark.slow
@pytest.mark.parametrize(("players", "opponents", "fate", "short", "heroic", "seed"), GAMES)
def test_whole_games_are_told_without_leaks(players: int, opponents: str, fate: bool, short: bool, heroic: bool,
                                            seed: int) -> None:
    options = {"opponents": opponents, "fate": fate, "short": short, "heroic": heroic}
    final, seen = _play(players, options, seed)
    assert {"RoundBegan", "Moved", "StoryDrawn", "StoryOutcome", "FightBegan", "InitiativeRolled",
            "CardPlayed", "Champion"} <= seen
    report = final_report(final)
    assert len(report) == players and report[0].startswith("👑")
    assert all("@" not in row for row in report)


def test_every_event_type_is_told_without_error() -> None:
    """Events the random games may not produce (and WeaponChosen, which the engine never emits)."""
    game = scripted()
    state = started(game, [("labienus", 1, "pilum"), ("jahmesz", 1, "khopesh")], names=["Ann", "Bob"])
    kinds = {t.__name__ for t in ChampionEvent.__args__}
    assert "WeaponChosen" in kinds
    lines = tell(state, [WeaponChosen(seat=0, item="pilum", armed=2), NoRoll(attacker="hero", reason="inspired"),
                         Regenerated(foe=0, life=4), Gazed(cards=1)])
    assert lines[0] == "🗡️ Labienus fights with the **Pilum** (+2 armed cards)."
    assert "without an initiative roll" in lines[1] and "life back to 4" in lines[2] and "stone" in lines[3]
    assert set(EFFECT_WORDS) == {e.effect for e in LIB.events}


# --- focused scenes ------------------------------------------------------------------------------------

def test_a_story_card_with_a_d6_outcome() -> None:
    game = scripted()
    state = started(game, [("labienus", 1, "pilum"), ("jahmesz", 1, "khopesh")], names=["Ann", "Bob"])
    calm(state)
    dest = next_to(game, "latium", "easy")
    story_on_top(state, "spring-oasis")
    ScriptedDice.script = [5]
    step = game.apply(state, 0, Caravan(to=dest))
    lines = tell(step.state, step.events, lib=game.lib)
    story = LIB.story["spring-oasis"]
    assert lines[0] == (f"🐪 Ann's **Labienus** escorts a caravan from Latium to **{LIB.province[dest].name}** "
                        "(+1 gold).")
    assert lines[1] == f"📜 Ann's **Labienus** draws an easy story card: **{story.title}**\n> {story.text}"
    assert lines[2] == f"🎲 Labienus rolls **5** — {story.outcome[1].text}"
    assert lines[3] == "↳ Labienus: +2 gold."
    assert ("story", "spring-oasis") in revealed(step.events)


def test_a_choice_card_lists_its_options() -> None:
    game = scripted()
    state = started(game, [("labienus", 1, "pilum"), ("jahmesz", 1, "khopesh")], names=["Ann", "Bob"])
    calm(state)
    story_on_top(state, "bodyguard")
    step = game.apply(state, 0, Caravan(to=next_to(game, "latium", "medium")))
    story = game.lib.story["bodyguard"]
    text = "\n".join(tell(step.state, step.events, lib=game.lib))
    if len(story.outcome) > 1:
        assert "Labienus must choose one: **1.** " + story.outcome[0].choice in text
        fights = [o for o in story.outcome if o.opponent]
        for o in fights:  # what each option risks is said, not only drawn
            assert f"fight {o.opponent[0].name}: combat {o.opponent[0].combat}, life {o.opponent[0].life}" in text


def test_a_fight_is_told_as_a_sequence_of_results() -> None:
    game = scripted()
    state = started(game, [("labienus", 1, "pilum"), ("jahmesz", 1, "khopesh")], names=["Ann", "Bob"],
                    opponents="bot")
    calm(state)
    story_on_top(state, "bodyguard")
    stack_combat(state, ["torso", "leg", "head", "torso", "hand", "hand", "inspired",
                         "hand", "hand", "torso", "torso", "head", "torso"])
    ScriptedDice.script = [2, 3, 5, 4, 3, 3, 1, 2, 6, 1, 6, 1, 6, 1, 6, 1, 6, 1]
    step = game.apply(state, 0, Caravan(to=next_to(game, "latium", "medium")))
    state = step.state
    lines = tell(state, step.events, lib=game.lib)
    if state.phase == "story":
        step = game.apply(state, 0, Choose(option="1"))
        state = step.state
        lines += tell(state, step.events, lib=game.lib)
    for _ in range(60):  # Labienus answers what Tabula's bodyguard does, always with his first legal move
        if state.phase != "combat":
            break
        legal = game.legal(state, 0)
        pick = next((a for a in legal if isinstance(a, Play)), None) or next(
            (a for a in legal if isinstance(a, (Defend, Keep))), legal[0])
        step = game.apply(state, 0, pick)
        state = step.state
        lines += tell(state, step.events, lib=game.lib)
    text = "\n".join(lines)
    assert "⚔️ Fight! Ann's **Labienus** faces the Bodyguard (combat 6 · initiative 4 · life 3)." in text
    assert "🗡️ Labienus fights with the **Pilum**" in text
    assert "🃏 Labienus draws 7 combat cards; the Bodyguard 6." in text
    assert "🏹 Labienus throws the **Pilum** at the Bodyguard: the Bodyguard loses 2 combat cards." in text
    assert "🎲 Initiative: Labienus 3+🎲2 = **5**, the Bodyguard 4+🎲3 = **7** — the Bodyguard attacks." in text
    assert re.search(r"⚔️ The Bodyguard attacks: \*\*\w+\*\* — Labienus (defends with|has no)", text)
    assert re.search(r"⚔️ Labienus attacks the Bodyguard: \*\*\w+\*\*", text)
    assert re.search(r"takes a \w+ wound: −\d life \(\d left\)", text)
    assert "💀 The Bodyguard falls (+2 XP)." in text or "☠️ Labienus is beaten" in text
    assert re.search(r"(🏆 Labienus wins the fight|☠️ Labienus is beaten) \(\+\d+ XP", text)
    for kind in CARD_TYPES:  # a hand is never listed: card names appear only where a card is played
        for line in lines:
            if line.startswith("🃏"):
                assert CARD_NAMES[kind] not in line


def test_a_market_purchase() -> None:
    game = scripted()
    state = started(game, [("labienus", 1, "pilum"), ("jahmesz", 1, "khopesh")], names=["Ann", "Bob"])
    calm(state)
    state.heroes[0].gold = 20
    step = game.apply(state, 0, Commission(reward="gold"))
    state = step.state
    lines = tell(state, step.events, lib=game.lib)
    assert lines[0] == "🔨 Ann's **Labienus** takes local commissions: +2 gold."
    offer = list(state.market)
    names = ", ".join(f"**{LIB.item[i].name}** ({LIB.item[i].price} gold)" for i in offer)
    assert lines[1] == f"🏛️ The market of **Roma** lays out {names}. Labienus may buy one or pass."
    step = game.apply(state, 0, Buy(item=offer[0]))
    lines = tell(step.state, step.events, lib=game.lib)
    item = LIB.item[offer[0]]
    assert lines[0] == f"💰 Ann's **Labienus** buys the **{item.name}** for {item.price} gold."
    assert ("item", offer[0]) in revealed(step.events)
    assert not any(item.name in line for line in lines[1:])  # told once, not again as "gains"


def test_information_and_the_province_card_keep_the_lair_secret() -> None:
    game = scripted()
    state = started(game, [("labienus", 1, "pilum"), ("jahmesz", 1, "khopesh")], names=["Ann", "Bob"])
    me = state.heroes[0]
    me.info, me.regions, me.province_card = 6, ["oriens"], "jug"
    lines = tell(state, [Information(seat=0, info=4, source="lore", region_discarded=True),
                         Information(seat=0, info=6, source="lore", region_discarded=True),
                         ProvinceCard(seat=0), MonsterTaken(seat=0, monster="medusa", chosen=True),
                         TrailLost(seat=0, info=5)], lib=game.lib)
    assert lines[0] == "📜 Ann's **Labienus** gains a piece of information (4 of 6)."
    assert lines[1].endswith("(6 of 6): the trail is complete.")
    assert "knows where the monster lairs" in lines[2]
    assert lines[3] == "🐉 Ann's **Labienus** chooses to hunt **Medusa**."
    lair = game.table.lair(me)
    assert lair is not None
    for line in lines:
        assert game.lib.province[lair].name not in line and "jug" not in line and "Oriens" not in line


def test_the_champion_and_the_final_sheets() -> None:
    game = scripted()
    state = started(game, [("labienus", 1, "pilum"), ("jahmesz", 1, "khopesh")], names=["Ann", "Bob"])
    state.heroes[1].monster = "minotaur"
    state.heroes[1].info = 6
    state.winner = 1
    state.phase = "over"
    lines = tell(state, [FightEnded(seat=1, result="won", xp=0, gold=0), Champion(seat=1, monster="minotaur")],
                 lib=game.lib)
    assert lines == ["👑 Bob's **Jahmesz** has slain **the Minotaur** and is the **Champion of the Empire**!"]
    report = final_report(state, lib=book_library())
    assert report[0].startswith("👑 **Bob** — Jahmesz: information 6/6") and "slew the Minotaur" in report[0]
    assert report[1].startswith("**Ann** — Labienus: information 0/6") and "Pilum" in report[1]
