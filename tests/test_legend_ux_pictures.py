"""Legend of Heroes pictures as players asked for them: a player panel on the board (who is which token, gold,
wounds, the one to act), the standings on the final board, and titles that never break inside a word."""

from __future__ import annotations

import io
import itertools

import pytest
from PIL import Image

from bot.present.base import SeatName
from bot.present.legend import PRESENTER
from bot.service.moment import moment_for
from render import legend
from render.common import text_length
from render.legend import board as board_layer
from render.legend import cards as card_layer
from render.legend.text import FLOOR, fit_words
from rules.legend.content import CLASSES, card_index, dungeon, fighter_index, fighters, hero_index, heroes, spells
from rules.legend.ruleset import LegendRuleset
from rules.legend.state import FightRoll, HeroRoll, State
from rules.legend.view import FighterView, LegendView
from tests.legend_helpers import play_moves

RULES = LegendRuleset()


def _open(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img.convert("RGBA").convert("RGB")


def _count(img: Image.Image, box: tuple[float, float, float, float], colour: tuple[int, int, int]) -> int:
    crop = img.crop(tuple(round(v) for v in box))  # type: ignore[arg-type]
    return sum(n for n, c in crop.getcolors(maxcolors=1 << 20) or [] if c == colour)


def _fighter(seat: int, name: str, colour: str, gold: int = 0, **extra: object) -> FighterView:
    return FighterView(seat=seat, player=name, colour=colour, letter=colour[0].upper(), fighter="Brand",
                       fighter_id="brand", doorway=f"D{seat + 1}", gold=gold, **extra)  # type: ignore[arg-type]


def test_the_panel_lies_between_the_plan_and_the_caption() -> None:
    width, height = board_layer._size(dungeon())
    top = board_layer._panel_top(dungeon())
    assert top + board_layer.PANEL_H + board_layer.CAPTION_H == height and width <= 1600 and height <= 1200
    cells = board_layer.panel_cells(LegendView(fighters=tuple(_fighter(i, f"P{i}", c) for i, c in
                                                              enumerate(("red", "blue", "green", "orange", "white")))))
    assert len(cells) == 5
    for (_f, box), (_g, after) in itertools.pairwise(cells):
        assert box[2] < after[0]  # side by side, never overlapping
    assert all(top <= c[1][1] and c[1][3] <= top + board_layer.PANEL_H and c[1][2] <= width for c in cells)
    assert all(c[1][2] - c[1][0] >= 240 for c in cells)  # room for a name and "1000 gold" even with five


def test_each_cell_shows_its_players_colour_and_only_the_one_to_act_is_framed_in_gold() -> None:
    fighters = (_fighter(0, "Ann", "red", 30), _fighter(1, "Bob", "blue", 150), _fighter(2, "Cy", "green", 5))
    view = LegendView(fighters=fighters, to_move=1, to_act=(1,), phase="move")
    img = _open(legend.render_board(view))
    cells = board_layer.panel_cells(view)
    assert [f.seat for f, _ in cells] == [0, 1, 2]
    for f, box in cells:
        fill = board_layer.TOKENS[f.colour][0]
        assert _count(img, box, fill) > 300, f.player  # the colour bar and the token
        rings = _count(img, box, board_layer.TURN_RING)
        if f.seat == 1:
            assert rings > 2000  # the gold frame and the TO MOVE strip
        else:
            assert rings < 50
    assert board_layer._roles(view) == {1: "TO MOVE"}


def test_while_a_player_narrates_the_narrator_is_lit_and_the_explorer_tagged() -> None:
    for state, _events in play_moves(RULES, ["Ann", "Bob", "Cy"], 200, seed=4, narration="players"):
        view = RULES.view(state, None)
        if view.phase == "explore" and view.narrator is not None and view.narrator in view.to_act:
            break
    else:
        raise AssertionError("nobody narrated")
    assert view.to_move is not None and view.narrator is not None
    roles = board_layer._roles(view)
    assert roles[view.narrator] == "NARRATING" and roles[view.to_move] == "EXPLORING"
    lit = [f.seat for f in view.fighters if board_layer.panel_lit(view, f)]
    assert lit == [view.narrator]


@pytest.mark.parametrize("mode", ["solo", "expanded"])
def test_solo_shows_the_wounds_of_eight_as_pips(mode: str) -> None:
    def red_in_panel(wounds: int) -> int:
        f = _fighter(0, "Ann", "blue", 40, wounds=wounds)
        view = LegendView(mode=mode, fighters=(f,), to_move=0, to_act=(0,), phase="move")  # type: ignore[arg-type]
        img = _open(legend.render_board(view))
        (_f, box), = board_layer.panel_cells(view)
        return _count(img, box, board_layer.WOUND_RED)

    none, three, six = red_in_panel(0), red_in_panel(3), red_in_panel(6)
    assert none == 0 and three > 300 and abs(six - 2 * three) < three * 0.1
    f = _fighter(0, "Ann", "blue", 40, wounds=3)
    alt = legend.board_alt_text(LegendView(mode=mode, fighters=(f,)))  # type: ignore[arg-type]
    assert "wounds 3 of 8" in alt and "gold: Ann 40" in alt


def test_the_final_board_shows_the_standings_richest_first_with_the_winner_marked() -> None:
    fighters = (_fighter(0, "Ann", "red", 30), _fighter(1, "Bob", "blue", 150), _fighter(2, "Cy", "green", 60))
    view = LegendView(fighters=fighters, phase="over", to_move=None, caption="Bob wins with 150 gold pieces.")
    cells = board_layer.panel_cells(view)
    assert [f.player for f, _ in cells] == ["Bob", "Cy", "Ann"]
    assert board_layer._roles(view) == {1: "WINNER", 2: "2nd", 0: "3rd"}
    img = _open(legend.render_board(view))
    rings = [_count(img, box, board_layer.TURN_RING) for _f, box in cells]
    assert rings[0] > 2000 and rings[1] < 50 and rings[2] < 50
    alt = legend.board_alt_text(view)
    assert "gold: Bob 150, Cy 60, Ann 30" in alt
    tie = LegendView(fighters=(_fighter(0, "Ann", "red", 60), _fighter(1, "Bob", "blue", 60)), phase="over")
    assert board_layer._roles(tie) == {0: "WINNER", 1: "WINNER"}


def test_the_panel_of_every_mode_draws_for_a_real_game() -> None:
    for names, options in ((["Ann", "Bob", "Cy", "Di", "Eve"], {"mode": "expanded"}), (["Ann"], {"mode": "solo"}),
                           (["Ann", "Bob"], {})):
        game = play_moves(RULES, names, 3000, seed=2, **options)
        for state, _events in [*game[:: max(1, len(game) // 5)], game[-1]]:
            view = RULES.view(state, None)
            img = _open(legend.render_board(view))
            assert img.size == board_layer._size(dungeon())
            for f, box in board_layer.panel_cells(view):
                assert _count(img, box, board_layer.TOKENS[f.colour][0]) > 300
        assert game[-1][0].phase == "over"


# --- titles never break inside a word -----------------------------------------------------------------

def _whole_words(text: str, lines: list[str]) -> bool:
    return " ".join(lines).split() == text.split() and not any(line.endswith(("-", "…")) for line in lines)


def test_no_card_title_breaks_inside_a_word() -> None:
    titles = {c.title for c in card_index().values()} | {h.name for h in heroes()} | {s.name for s in spells()}
    titles |= {f.name for f in fighters()} | {"Chamber of the Sleeping Hydra", "Quartermaster's Storeroom"}
    for title in sorted(titles):
        face, lines = card_layer.title_lines(title)
        assert _whole_words(title, lines), (title, lines)
        assert 1 <= len(lines) <= 2 and face.size >= 22, (title, face.size)


def test_no_room_name_on_the_board_breaks_inside_a_word() -> None:
    names = sorted({c.title for c in card_index().values() if c.kind == "room"} | {"explored"})
    checked = 0
    for room in dungeon().room:
        for name in names:
            for status in ("partly", "explored"):
                for tokens in range(4):
                    _slots, _mark, text, box = board_layer.room_layout(room, status, name, tokens)
                    if text is None:
                        continue
                    face, lines = board_layer.room_name_lines(text, box)
                    assert _whole_words(text, lines), (room.id, name, status, tokens, lines)
                    assert face.size >= 12, (room.id, name, status, tokens, face.size)
                    checked += 1
    assert checked > 500


def test_a_word_too_long_for_any_size_is_cut_not_split() -> None:
    face, lines = fit_words("Unpronounceablewordofgreatlength here", "bold", 60, 40, largest=21, smallest=13)
    assert face.size == FLOOR and lines[0].endswith("…") and not any("-" in line for line in lines)
    assert all(text_length(line, face) <= 60 for line in lines)


# --- what happened, on the card -----------------------------------------------------------------------

def _mark_pixels(img: Image.Image, box: tuple[int, int, int, int]) -> int:
    x0, y0, _x1, y1 = box
    left_side = (x0 - 3, y0 + 8, x0 + 2, y1 - 8)  # where the ring runs down the box's left edge, nowhere else
    return _count(img, left_side, card_layer.MARK)


def test_the_starter_games_cards_show_the_fighter_row_alone() -> None:
    troll = next(c for c in card_index().values() if c.kind == "monster" and c.party)
    alone = _open(legend.render_card(troll, fighter_only=True))
    every = _open(legend.render_card(troll))
    assert alone.size == every.size == (card_layer.CARD_W, card_layer.CARD_H) and alone != every
    assert _open(legend.render_card(card_layer.fighter_row_only(troll))) == alone
    starter = PRESENTER.card(troll.id, "starter")
    solo = PRESENTER.card(troll.id, "solo")
    expanded = PRESENTER.card(troll.id, "expanded")
    assert starter.png == solo.png != expanded.png
    assert "Rogue" not in starter.alt and "Rogue" in expanded.alt
    assert "box A" in starter.alt or "box" in starter.alt


def _fight(mode: str, names: list[str]) -> tuple[State, LegendView, tuple[object, ...], str]:
    for seed in range(20):
        for state, events in play_moves(RULES, names, 600, seed=seed, mode=mode):
            rolls = [e for e in events if isinstance(e, (FightRoll, HeroRoll)) and e.who in ("fighter", "hero")]
            if rolls:
                return state, RULES.view(state, None), events, rolls[0].card
    raise AssertionError("no fight")


@pytest.mark.parametrize("mode", ["starter", "expanded"])
def test_a_fought_card_rings_the_box_that_applied_and_lists_the_rolls(mode: str) -> None:
    state, view, events, card_id = _fight(mode, ["Ann", "Bob"])
    picture = PRESENTER.fought(view, card_id, events)
    img = _open(picture.png)
    assert img.width == card_layer.CARD_W and img.height > card_layer.CARD_H  # the strip of rolls below
    card = card_index()[card_id]
    drawn = card if mode == "expanded" else card_layer.fighter_row_only(card)
    rolls = [e for e in events if isinstance(e, (FightRoll, HeroRoll)) and e.card == card_id]
    ringed = set()
    for e in rolls:
        if isinstance(e, FightRoll) and e.who == "fighter":
            f = fighter_index()[view.fighters[e.seat].fighter_id]
            ringed.add(("fighter", f.dot))
        elif isinstance(e, HeroRoll) and e.who == "hero":
            hero = hero_index()[e.hero]
            ringed.add((hero.kind, hero.dot))
    assert ringed
    for row, box in ringed:
        assert _mark_pixels(img, card_layer.box_rect(drawn, row, box)) > 40, (row, box)
    unringed = [(row, b) for row in (["fighter"] if mode != "expanded" else list(CLASSES)) for b in range(5)
                if (row, b) not in ringed]
    assert all(_mark_pixels(img, card_layer.box_rect(drawn, row, b)) == 0 for row, b in unringed)
    for e in rolls:
        assert f"{e.roll} (needs {e.need})" in picture.alt
    telling = PRESENTER.telling(moment_for(RULES, state, _seats(["Ann", "Bob"]), events=events))
    assert any(p.filename == f"card-{card_id}-fought.png" for p in telling.pictures)


def _seats(names: list[str]) -> list[SeatName]:
    return [SeatName(seat=i, user_id=100 + i, name=n) for i, n in enumerate(names)]


# --- card art: a few pictures per kind ------------------------------------------------------------------

def test_monsters_rooms_and_features_carry_several_pictures() -> None:
    deck = card_index()
    assert set(card_layer.CARD_ART) <= set(deck)  # no picture is assigned to a card that does not exist
    assert set(card_layer.CARD_ART.values()) <= set(card_layer.FAMILY_EMBLEMS)
    for kind, least in (("monster", 6), ("room", 5), ("feature", 5), ("hazard", 4)):
        arts = {card_layer.art_of(c) for c in deck.values() if c.kind == kind}
        assert len(arts) >= least, (kind, arts)
    by_family: dict[str, set[str]] = {}
    for c in deck.values():
        if c.kind == "monster":
            by_family.setdefault(card_layer.art_of(c), set()).add(c.id)
    assert {"skeleton", "ghoul", "wraith"} <= by_family["skull"] and {"troll", "orc"} <= by_family["monster"]


def test_every_picture_is_drawn_and_no_two_alike() -> None:
    names = ["monster", "room", "feature", "hazard", "treasure", *card_layer.FAMILY_EMBLEMS]
    drawn = {}
    for name in names:
        img = card_layer._emblem(name, (120, 120), card_layer.KIND_COLOURS["monster"])
        histogram = img.getchannel("A").histogram()
        inked = sum(histogram[129:])
        assert 1500 < inked < 120 * 120 - 1000, (name, inked)  # a picture, neither empty nor a filled square
        drawn[name] = img.convert("RGBA").tobytes()
    assert len(set(drawn.values())) == len(names)


@pytest.mark.slow
def test_every_card_renders_with_its_picture() -> None:
    seen: dict[str, bytes] = {}
    for card in card_index().values():
        for fighter_only in (False, True):
            img = _open(legend.render_card(card, fighter_only=fighter_only))
            assert img.size == (card_layer.CARD_W, card_layer.CARD_H), card.id
        seen.setdefault(card_layer.art_of(card), legend.render_card(card))
    assert len(seen) >= 5 + 3 * 3


def test_a_solo_game_ends_with_the_gold_carried_out_not_a_win() -> None:
    for options in ({"mode": "solo"}, {"mode": "expanded"}):
        game = play_moves(RULES, ["Ann"], 3000, seed=2, **options)
        state = game[-1][0]
        assert state.phase == "over"
        view = RULES.view(state, None)
        assert view.outcome is not None and "leaves the dungeon with" in view.outcome and "wins" not in view.outcome
        assert board_layer._roles(view) == {0: "FINAL SCORE"}
        assert all(board_layer.panel_lit(view, f) for f in view.fighters)
