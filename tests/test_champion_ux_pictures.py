"""Champion pictures at chat size: the heroes' panel under the map (the one to act marked by a gold band, an
arrow and TO ACT, not by colour alone), the standings on the final picture, and the inset around the hero."""

from __future__ import annotations

import io

import msgspec
import pytest
from PIL import Image

from render.champion import board
from render.champion.basemap import TURN_RING
from render.champion.map import compose_map
from rules.champion import RULESET
from rules.champion.state import State
from rules.champion.view import ChampionView
from rules.core import Rng, SeatInfo
from tests.champion_helpers import midgame


def _bands(img: Image.Image, map_height: int) -> int:
    """How many rows of the panel carry the gold band at their left edge."""
    rgb = img.convert("RGB")
    runs, inside = 0, False
    for y in range(map_height, img.height):
        gold = rgb.getpixel((26, y)) == TURN_RING
        runs += gold and not inside
        inside = gold
    return runs


def _finished(seed: int = 4) -> ChampionView:
    state: State = RULESET.setup([SeatInfo(i, n) for i, n in enumerate(["Ann", "Bálint", "Cy"])],
                                 {"opponents": "bot"}, seed).state
    rng = Rng(seed)
    while state.phase != "over":
        seat = sorted(RULESET.to_act(state))[0]
        action = RULESET.policy(state, seat, rng)
        assert action is not None
        state = RULESET.apply(state, seat, action).state
    return RULESET.view(state, None)


def test_the_panel_marks_only_the_hero_to_act() -> None:
    _state, view = midgame()
    rgb, _ = compose_map(view)
    img = board.compose_board(view)
    assert img.size == (rgb.width, rgb.height + board.STRIP_H)
    assert _bands(img, rgb.height) == 1
    alt = board.board_alt_text(view)
    acting = next(h for h in view.heroes if h.to_act)
    assert f"to act: {acting.player}" in alt and f"Life {acting.life}/{acting.max_life}" in alt
    nobody = msgspec.structs.replace(view, heroes=tuple(msgspec.structs.replace(h, to_act=False)
                                                        for h in view.heroes))
    assert _bands(board.compose_board(nobody), rgb.height) == 0
    png = board.render_board(view)
    assert Image.open(io.BytesIO(png)).size == img.size and len(png) < 1_500_000


def test_the_final_picture_shows_the_standings() -> None:
    view = _finished()
    rows = board.standings(view)
    assert rows[0].seat == view.winner
    assert [h.info for h in rows[1:]] == sorted((h.info for h in rows[1:]), reverse=True)
    img = board.compose_board(view)
    assert _bands(img, img.height - board.STRIP_H) == 1  # the champion's row
    alt = board.board_alt_text(view)
    assert alt.startswith("Standings — 1. ") and "2. " in alt and "3. " in alt


def test_the_inset_shows_the_acting_heros_surroundings() -> None:
    _state, view = midgame()
    hero = board._focus(view)
    assert hero is not None and hero.seat == view.current
    with_inset = board.compose_board(view)
    without = board.compose_board(msgspec.structs.replace(view, phase="over", winner=None))
    right = (with_inset.width - board.INSET_W, with_inset.height - board.STRIP_H + 60, with_inset.width - 20,
             with_inset.height - 20)
    assert with_inset.crop(right).tobytes() != without.crop(right).tobytes()


def test_hands_and_played_cards_are_shown_as_card_pictures() -> None:
    from bot.present.base import SeatName
    from bot.present.champion import PRESENTER
    from bot.service.moment import moment_for
    from rules.champion.state import CardPlayed
    from tests.test_champion_ux_fights import _games

    seats = [SeatName(i, 100 + i, f"P{i}") for i in range(3)]
    hands = played = 0
    for before, seat, action, step in _games(range(3)):
        state = step.state
        moment = moment_for(RULESET, state, seats, events=step.events, actor=seat, action=action, _before=before)
        cards = [e for e in step.events if isinstance(e, CardPlayed)]
        if cards and played < 5:
            telling = PRESENTER.telling(moment)
            picture = next(p for p in telling.pictures if p.filename == "played.png")
            assert Image.open(io.BytesIO(picture.png)).width >= 240 * min(len(cards), 8)
            assert all(e.card.capitalize() in picture.alt or e.card == "inspired" for e in cards[-8:])
            played += 1
        if state.phase == "combat" and hands < 5:
            for s in sorted(RULESET.to_act(state)):
                look = PRESENTER.private("hand", moment, s)
                assert look is not None
                names = [p.filename for p in look.pictures]
                view = RULESET.view(state, s)
                assert view.secret is not None
                assert ("hand.png" in names) == bool(view.secret.hand)
                assert len([n for n in names if n.startswith("hand-")]) == len(view.secret.foe_hands)
                hands += 1
    assert played == 5 and hands == 5


@pytest.mark.slow
def test_story_cards_mark_the_roll_or_choice_and_grey_what_cannot_be_paid() -> None:
    from bot.present.base import SeatName
    from bot.present.champion import PRESENTER
    from bot.service.moment import moment_for
    from rules.champion.state import StoryDrawn, StoryOutcome
    from tests.test_champion_ux_fights import _games

    lib = RULESET.engine.lib
    seats = [SeatName(i, 100 + i, f"P{i}") for i in range(3)]
    rolled = chosen = closed = 0
    for before, seat, action, step in _games(range(3)):
        if rolled >= 3 and chosen >= 3 and closed >= 1:
            break
        outcome = next((e for e in step.events if isinstance(e, StoryOutcome)), None)
        drawn = next((e for e in step.events if isinstance(e, StoryDrawn)), None)
        state = step.state
        wanted = outcome is not None or (state.phase == "story" and drawn is not None)
        if not wanted:
            continue
        moment = moment_for(RULESET, state, seats, events=step.events, actor=seat, action=action, _before=before)
        pictures = {p.filename: p for p in PRESENTER.telling(moment).pictures}
        if outcome is not None:
            picture = pictures[f"story-{outcome.card}.png"]
            story = lib.story[outcome.card]
            if outcome.roll:
                assert picture.alt.startswith(f"Rolled {outcome.roll}: ")
                rolled += 1
            elif outcome.outcome >= 0 and story.outcome[outcome.outcome].choice:
                assert picture.alt.startswith(f"Chosen: {story.outcome[outcome.outcome].choice}")
                chosen += 1
            plain = PRESENTER.card("story", outcome.card).png  # type: ignore[union-attr]
            if len(story.outcome) > 1 or outcome.roll:
                assert picture.png != plain
            else:  # the only outcome: nobody chose it, and the card is not framed as chosen (issue 22)
                assert picture.png == plain
        elif drawn is not None and state.draw is not None:
            story = lib.story[state.draw.cards[0]]
            gold = state.heroes[state.order[state.turn]].gold
            dear = [o for o in story.outcome if o.gold < 0 and -o.gold > gold]
            picture = pictures[f"story-{story.id}.png"]
            if dear and len(dear) < len(story.outcome):
                assert f"needs {-dear[0].gold} gold — you have {gold}" in picture.alt
                closed += 1
    assert rolled >= 3 and chosen >= 3 and closed >= 1
