"""Small tools for Champion of the Empire tests: scripted dice, the book's fixture cards, stacked decks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rules.champion.combat import card_type
from rules.champion.content import Library, Opponent, Outcome, Story, library
from rules.champion.game import ChampionOfTheEmpire
from rules.champion.state import Pass, Pick, State
from rules.core import Rng, SeatInfo


class ScriptedDice(Rng):
    """Dice that roll what the test says (then the seeded generator); shuffles keep order; lots pick the first."""

    script: ClassVar[list[int]] = []

    def die(self, sides: int) -> int:
        if ScriptedDice.script:
            return ScriptedDice.script.pop(0)
        return super().die(sides)

    def below(self, n: int) -> int:
        return 0

    def shuffle(self, items: Sequence[Any]) -> list[Any]:
        return list(items)


def _fixture_stories() -> list[Story]:
    """The book's example cards, with the book's numbers, for any the data files do not hold (yet)."""
    return [
        Story(id="greek-scholars", deck="medium", title="Greek Scholars", text="Roll a d6.", roll=True, outcome=(
            Outcome(rolls=(1, 2), text="Nothing happens."),
            Outcome(rolls=(3, 6), text="Gain 1 information.", info=1),
        )),
        Story(id="servants-of-mars", deck="medium", title="Servants of the God Mars", text="", outcome=(
            Outcome(text="Raise your maximum life by 1.", max_life=1),
        )),
        Story(id="tax-collector", deck="hard", title="The Tax Collector", text="", outcome=(
            Outcome(text="Fight!", rounds=1, opponent=(
                Opponent(name="Tax collector", combat=2, initiative=2, life=1, xp=1),
                Opponent(name="First guard", combat=2, initiative=2, life=1, xp=1),
                Opponent(name="Second guard", combat=2, initiative=2, life=1, xp=1),
            )),
        )),
        Story(id="bodyguard", deck="medium", title="The Bodyguard", text="", outcome=(
            Outcome(text="Fight!", opponent=(Opponent(name="Bodyguard", combat=6, initiative=4, life=3, xp=2),)),
        )),
    ]


def book_library() -> Library:
    """The game's data plus the book's fixture cards that the data does not have under those ids."""
    base = library()
    extra = tuple(s for s in _fixture_stories() if s.id not in base.story)
    return Library(map_data=base.map, heroes=base.heroes, items=base.items, events=base.events,
                   monsters=base.monsters, stories=base.stories + extra, combat=base.combat)


def scripted(rolls: Sequence[int] = ()) -> ChampionOfTheEmpire:
    ScriptedDice.script = list(rolls)
    return ChampionOfTheEmpire(book_library(), dice=ScriptedDice)


def started(game: ChampionOfTheEmpire, picks: Sequence[tuple[str, int, str]], names: Sequence[str] = (),
            **options: Any) -> State:
    """Seat players (seat 0 starts), pick their heroes, pass the item offers: round 1 begins."""
    names = list(names) or [f"P{i}" for i in range(len(picks))]
    seats = [SeatInfo(index=i, name=n) for i, n in enumerate(names)]
    state: State = game.setup(seats, options, seed=1).state
    for seat, (hero, side, weapon) in enumerate(picks):
        state = game.apply(state, seat, Pick(hero=hero, side=side, weapon=weapon)).state
    for seat in range(len(picks)):
        state = game.apply(state, seat, Pass()).state
    return state


def story_on_top(state: State, card: str) -> None:
    """Put a story card on top of its deck (the test builds the situation the book describes)."""
    lib = book_library()
    deck = lib.story[card].deck
    for pile in (state.stories[deck], state.story_discard[deck]):
        if card in pile:
            pile.remove(card)
    state.stories[deck].insert(0, card)


def stack_combat(state: State, types: Sequence[str]) -> None:
    """Put combat cards of these types, in this order, on top of the combat deck."""
    top: list[str] = []
    for kind in types:
        card = next(c for c in state.combat_deck if card_type(c) == kind and c not in top)
        top.append(card)
    rest = [c for c in state.combat_deck if c not in top]
    state.combat_deck = top + rest


def next_to(game: ChampionOfTheEmpire, here: str, deck: str) -> str:
    """A neighbour of ``here`` whose icon draws from ``deck``."""
    lib = game.lib
    return next(p for p in lib.near[here] if lib.deck_of(p) == deck)


def calm(state: State) -> None:
    """Make the round's event one without effect, so a test sees only the rule it checks."""
    state.event = next(e.id for e in book_library().events if e.effect == "none")
