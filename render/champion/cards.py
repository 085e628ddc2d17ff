"""Champion of the Empire: story, event, item, combat cards and monster sheets as PNG, with alt texts.

Every card is a parchment panel in a coloured frame with a gold meander (Greek key) border; the colour
tells the kind (story decks green, amber and red like the map's icons; events purple; items bronze; combat
cards steel).  Cards are drawn once per card and cached; their PNGs use an adaptive palette.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import msgspec
from PIL import Image, ImageDraw, ImageFont

from render import common
from render.cache import encoded, recent
from render.champion import glyphs
from render.champion.texts import event_effect_line, item_name
from rules.champion.content import DECK_OF_ICON, EventCard, Item, Monster, Opponent, Outcome, Story
from rules.champion.i18n import N_, _, _n, _p, language, semicolon

INK: common.RGB = (36, 26, 16)
PARCHMENT: common.RGB = (250, 242, 220)
PARCHMENT_DARK: common.RGB = (236, 222, 188)
WHITE: common.RGB = (255, 255, 255)
BLACK: common.RGB = (0, 0, 0)
GOLD: common.RGB = (226, 178, 52)
MARK_GOLD: common.RGB = (255, 200, 0)  # the outcome rolled or chosen
CLOSED_GREY: common.RGB = (150, 146, 140)  # an option the hero cannot take
EVENT_COLOUR: common.RGB = (92, 44, 120)
ITEM_COLOUR: common.RGB = (132, 84, 36)
COMBAT_COLOUR: common.RGB = (120, 40, 36)
ARMED_COLOUR: common.RGB = (62, 76, 96)
MONSTER_COLOUR: common.RGB = (40, 40, 44)
LOSS: common.RGB = (170, 24, 24)
GAIN: common.RGB = (30, 110, 40)

STORY_W, STORY_H = 600, 860
CARD_W, CARD_H = 480, 680
COMBAT_W, COMBAT_H = 300, 420
SHEET_W, SHEET_H = 960, 640

Source = Mapping[str, Any]


# --- frames --------------------------------------------------------------------------------------------

def _meander(draw: ImageDraw.ImageDraw, box: common.Box, colour: common.RGB, horizontal: bool) -> None:
    """A running Greek key along a band: hooks rising from a base line, each a square spiral's first turn."""
    x0, y0, x1, y1 = box
    if horizontal:
        h = y1 - y0
        s = h / 5
        w = max(1, round(s * 0.9))
        draw.line((x0, y1 - w / 2, x1, y1 - w / 2), fill=colour, width=w)
        draw.line((x0, y0 + w / 2, x1, y0 + w / 2), fill=colour, width=w)
        x = x0 + s
        while x + 5 * s <= x1:
            pts = [(x, y1 - s * 0.5), (x, y0 + s * 1.5), (x + 4 * s, y0 + s * 1.5), (x + 4 * s, y1 - s * 1.8),
                   (x + 2 * s, y1 - s * 1.8), (x + 2 * s, y0 + s * 2.8)]
            draw.line(pts, fill=colour, width=w, joint="curve")
            x += 5.5 * s
    else:
        wdt = x1 - x0
        s = wdt / 5
        w = max(1, round(s * 0.9))
        draw.line((x0 + w / 2, y0, x0 + w / 2, y1), fill=colour, width=w)
        draw.line((x1 - w / 2, y0, x1 - w / 2, y1), fill=colour, width=w)
        y = y0 + s
        while y + 5 * s <= y1:
            pts = [(x0 + s * 0.5, y), (x1 - s * 1.5, y), (x1 - s * 1.5, y + 4 * s), (x0 + s * 1.8, y + 4 * s),
                   (x0 + s * 1.8, y + 2 * s), (x1 - s * 2.8, y + 2 * s)]
            draw.line(pts, fill=colour, width=w, joint="curve")
            y += 5.5 * s


#: 2 MB decoded, ~0.1 MB kept: only drawing needs it, and drawn cards are kept as PNG.  A game uses a dozen
#: (a whole seeded game: 12 kinds of card; with 4 kept it drew 38 blanks, with 16 it draws each once).
@recent(keep=16)
def _blank(size: tuple[int, int], colour: common.RGB, label: str, band: int = 24, head: int = 50) -> Image.Image:
    """A card: rounded frame in ``colour`` with a gold meander round it, ``label`` in its head band and a
    parchment panel inside; transparent outside the rounded corners."""
    w, h = size
    s = 2
    big = Image.new("RGBA", (w * s, h * s), (0, 0, 0, 0))
    d = common.canvas(big)
    d.rounded_rectangle((0, 0, w * s - 1, h * s - 1), radius=22 * s, fill=BLACK)
    d.rounded_rectangle((3 * s, 3 * s, (w - 3) * s - 1, (h - 3) * s - 1), radius=19 * s, fill=colour)
    gold = common.mix(GOLD, colour, 0.15)
    m = 8 * s
    bw = (band - 10) * s
    _meander(d, (m + bw, m + (head - band) * s, w * s - m - bw, m + (head - band) * s + bw), gold, True)
    _meander(d, (m + bw, h * s - m - bw, w * s - m - bw, h * s - m), gold, True)
    _meander(d, (m, m + (head - band) * s + bw, m + bw, h * s - m - bw), gold, False)
    _meander(d, (w * s - m - bw, m + (head - band) * s + bw, w * s - m, h * s - m - bw), gold, False)
    inner = (band * s, head * s, (w - band) * s - 1, (h - band) * s - 1)
    d.rounded_rectangle(inner, radius=8 * s, fill=PARCHMENT, outline=common.mix(colour, BLACK, 0.45), width=2 * s)
    img = big.resize((w, h), Image.Resampling.LANCZOS)
    draw = common.canvas(img)
    face, text = common.fit_label(common.capitals(label), "bold", 19, w - 2 * (band + 70), smallest=9)
    draw.text((w / 2, (head - band) / 2 + 7), text, font=face, fill=WHITE, anchor="mm",
              stroke_width=2, stroke_fill=common.mix(colour, BLACK, 0.6))
    return img


def _frame(size: tuple[int, int], colour: common.RGB, label: str, band: int = 24,
           head: int = 50) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = _blank(size, colour, label, band, head)  # a fresh copy each call
    return img, common.canvas(img)


def _card_bytes(img: Image.Image) -> bytes:
    """Cards are drawn once and cached: an adaptive 256-colour palette keeps them small."""
    return common.png_bytes(img.quantize(256, method=Image.Quantize.FASTOCTREE), compress_level=6)


def _title(draw: ImageDraw.ImageDraw, text: str, box: common.Box, largest: int = 34) -> int:
    x0, y0, x1, _y1 = box
    face, lines = common.fit_text(text, "serif", x1 - x0, 84, largest=largest, smallest=20, spacing=1.08)
    bottom = common.draw_lines(draw, lines, (x0, y0, x1, y0 + 90), face, INK, align="center", spacing=1.08)
    mid = (x0 + x1) // 2
    draw.line((mid - 120, bottom + 6, mid - 12, bottom + 6), fill=common.mix(INK, PARCHMENT, 0.55), width=2)
    draw.line((mid + 12, bottom + 6, mid + 120, bottom + 6), fill=common.mix(INK, PARCHMENT, 0.55), width=2)
    draw.regular_polygon((mid, bottom + 6, 5), 4, fill=common.mix(INK, PARCHMENT, 0.35))
    return bottom + 16


# --- stat chips ---------------------------------------------------------------------------------------

def _chip(img: Image.Image, x: float, y: float, glyph: Image.Image, text: str, face: ImageFont.FreeTypeFont,
          colour: common.RGB = INK) -> float:
    """A small glyph followed by a number or word; returns the x after it."""
    img.alpha_composite(glyph, (round(x), round(y - glyph.height / 2)))
    draw = common.canvas(img)
    x += glyph.width + 3
    draw.text((x, y), text, font=face, fill=colour, anchor="lm")
    return x + common.text_length(text, face) + 12


def _stat_glyph(stat: str, size: int) -> Image.Image:
    return {"combat": glyphs.swords, "initiative": glyphs.bolt, "life": glyphs.heart, "xp": glyphs.star,
            "gold": glyphs.coin, "info": glyphs.eye}[stat](size)


def _opponent_line(img: Image.Image, x0: float, x1: float, y: float, foe: Opponent, size: int) -> float:
    """One opponent: name, then combat value, initiative, life and XP as glyph chips on a light band."""
    draw = common.canvas(img)
    h = size + 12
    draw.rounded_rectangle((x0, y, x1, y + h), radius=6, fill=PARCHMENT_DARK, outline=common.mix(INK, PARCHMENT, 0.5))
    face = common.font("bold", size)
    chips = [("combat", str(foe.combat)), ("initiative", str(foe.initiative)), ("life", str(foe.life)),
             ("xp", _("{xp} XP", xp=foe.xp))]
    if foe.weapon:
        chips.append(("combat", item_name(foe.weapon)))
    gsize = size + 2
    chips_w = sum(gsize + 3 + common.text_length(t, face) + 12 for _, t in chips) - 12
    name = common.ellipsize(foe.name, face, max(60.0, x1 - x0 - 16 - chips_w - 10))
    draw.text((x0 + 8, y + h / 2), name, font=face, fill=INK, anchor="lm")
    cx = x1 - 8 - chips_w
    for stat, text in chips:
        cx = _chip(img, cx, y + h / 2, _stat_glyph(stat, gsize), text, face)
    return y + h + 4


# --- story cards -------------------------------------------------------------------------------------

def _as(kind: type[Any], value: Any) -> Any:
    return value if isinstance(value, kind) else msgspec.convert(dict(value), kind)


def _range_label(o: Outcome) -> str:
    if not o.rolls:
        return ""
    low, high = o.rolls[0], o.rolls[-1]
    return str(low) if low == high else f"{low}–{high}"


def _outcome_footer(o: Outcome) -> str:
    bits = []
    if o.opponent and o.rounds:
        bits.append(_n("at most {n} combat round", "at most {n} combat rounds", o.rounds))
    if o.win_gold:
        bits.append(_n("win: +{gold} gold", "win: +{gold} gold", o.win_gold, gold=o.win_gold))
    return " · ".join(bits)


@dataclass
class _Row:
    outcome: Outcome
    lines: list[str]
    footer: str
    height: int


def _wrap_clear(text: str, face: ImageFont.FreeTypeFont, width: float, first: float) -> list[str]:
    """``text`` wrapped to ``width``, its first line to ``first`` only (a tag sits at that line's right end)."""
    lines = common.wrap(text, face, first)
    head = lines[0] if lines else ""
    if not head or not text.startswith(head):  # (a word split with a hyphen) narrow throughout
        return lines
    rest = text[len(head):].lstrip(" ")
    rest = rest[1:] if rest.startswith("\n") else rest
    return [head, *(common.wrap(rest, face, width) if rest else [])]


def _rows(story: Story, face: ImageFont.FreeTypeFont, width: float, foe_size: int, spacing: float,
          clear: tuple[int, float] = (-1, 0)) -> list[_Row]:
    """Each outcome's box: its lines and height.  ``clear``: the marked outcome and the width of its tag, which
    straddles the box's top edge at the right: that box's first line stays left of it."""
    rows = []
    step = common.line_height(face, spacing)
    for index, o in enumerate(story.outcome):
        text_w = width - (70 if o.rolls else 0) - 40
        if index == clear[0] and not o.choice:
            first = min(text_w, width - clear[1] - 12 - (70 if o.rolls else 6))
            lines = _wrap_clear(o.text, face, text_w, first)
        else:
            lines = common.wrap(o.text, face, text_w)
        h = len(lines) * step + 10
        if o.choice:
            h += step + 4
        h += len(o.opponent) * (foe_size + 16)
        footer = _outcome_footer(o)
        if footer:
            h += step
        rows.append(_Row(o, lines, footer, max(h, 52 if o.rolls else 40)))
    return rows


#: Each story deck's name in the card's head band.
DECK_LABELS = {"easy": N_("easy story"), "medium": N_("medium story"), "hard": N_("hard story")}
#: Each story deck's name at the head of a card's alt text.
DECK_ALT = {"easy": N_("Easy story card: {title}. {text}"), "medium": N_("Medium story card: {title}. {text}"),
            "hard": N_("Hard story card: {title}. {text}")}


@encoded
def _story_png(story: Story, mark: int = -1, mark_text: str = "", closed: tuple[tuple[int, str], ...] = (),
               lang: str = "en") -> bytes:
    colour = glyphs.DECK_COLOURS.get(story.deck, INK)
    label = _(DECK_LABELS[story.deck]) if story.deck in DECK_LABELS else f"{story.deck} story"
    img, draw = _frame((STORY_W, STORY_H), colour, label)
    # the deck's icons in the head band, either side of the label
    icons = [i for i, d in DECK_OF_ICON.items() if d == story.deck]
    for k, name in enumerate(icons):
        badge = glyphs.badge(name, story.deck, 30)
        img.alpha_composite(badge, (30 + k * 32, 6))
        img.alpha_composite(badge, (STORY_W - 30 - 30 - k * 32, 6))
    left, right = 42, STORY_W - 42
    top = _title(draw, story.title, (left, 62, right, 150))
    bottom = STORY_H - 40
    width = right - left
    # the tag of the row rolled or chosen, which the row's first line keeps clear of
    tag_face, mark_text = common.fit_label(mark_text, "bold", 18, width + 12 - 60, smallest=9)
    tag_w = round(common.text_length(mark_text, tag_face)) + 18 if mark >= 0 else 0
    # find the largest text size at which the story and its outcome table fit (a short card reads larger,
    # rather than leaving its lower half empty)
    for size in range(26, 12, -1):
        spacing = 1.22
        face = common.font("sans", size)
        body = common.wrap(story.text, face, width)
        step = common.line_height(face, spacing)
        small = common.font("sans", size - 1)
        rows = _rows(story, small, width, size - 3, 1.18, (mark, tag_w))
        need = len(body) * step + 16 + sum(r.height + 10 for r in rows)
        if need <= bottom - top:
            break
    y = common.draw_lines(draw, body, (left, top, right, top), face, INK, spacing=spacing) + 10
    slack = max(0, (bottom - y) - sum(r.height + 10 for r in rows))
    y += min(slack // 2, 60)
    row_step = common.line_height(small, 1.18)
    for row in rows:
        o = row.outcome
        box = (left - 6, y, right + 6, y + row.height)
        draw.rounded_rectangle(box, radius=8, fill=WHITE, outline=common.mix(colour, BLACK, 0.3), width=2)
        tx = left + 6
        if o.rolls:
            draw.rounded_rectangle((left, y + 6, left + 60, y + 46), radius=6, fill=common.mix(colour, BLACK, 0.25))
            draw.text((left + 30, y + 26), _range_label(o), font=common.font("bold", 22), fill=WHITE, anchor="mm")
            tx = left + 70
        ty = y + 6
        index = story.outcome.index(o)
        if o.choice:
            end = min(right - 36, right - tag_w - 12) if index == mark else right - 36
            cface, choice = common.fit_label(f"▸ {o.choice}", "bold", round(small.size), end - tx, smallest=9)
            draw.text((tx, ty), choice, font=cface, fill=common.mix(colour, BLACK, 0.35))
            ty += row_step + 4
        ty = common.draw_lines(draw, row.lines, (tx, ty, right - 36, ty), small, INK, spacing=1.18)
        for foe in o.opponent:
            ty = round(_opponent_line(img, tx, right - 4, ty + 2, foe, round(small.size) - 2))
        if row.footer:
            fface, footer = common.fit_label(row.footer, "bold", round(small.size) - 1, right - 4 - tx, smallest=9)
            draw.text((tx, ty + 1), footer, font=fface, fill=LOSS)
        if o.fate:
            fate = glyphs.laurel(28) if o.fate == "laurel" else glyphs.skull(28)
            img.alpha_composite(fate, (right - 30, y + (16 if index == mark else 6)))  # (below the tag)
        reason = dict(closed).get(index)
        if reason is not None:  # an option the hero cannot take: greyed, with the reason
            veil = Image.new("RGBA", (box[2] - box[0] + 1, box[3] - box[1] + 1), (*CLOSED_GREY, 185))
            img.alpha_composite(veil, (box[0], box[1]))
            draw = common.canvas(img)
            face = common.font("bold", 17)
            text = common.ellipsize(reason, face, box[2] - box[0] - 24)
            tw = round(common.text_length(text, face)) + 16
            draw.rounded_rectangle((box[2] - tw - 8, box[3] - 28, box[2] - 8, box[3] - 4), radius=6, fill=INK)
            draw.text((box[2] - 8 - tw / 2, box[3] - 16), text, font=face, fill=WHITE, anchor="mm")
        if index == mark:  # the row rolled or chosen: a thick gold frame and its tag
            draw = common.canvas(img)
            draw.rounded_rectangle((box[0] - 4, box[1] - 4, box[2] + 4, box[3] + 4), radius=10, outline=BLACK,
                                   width=8)
            draw.rounded_rectangle((box[0] - 2, box[1] - 2, box[2] + 2, box[3] + 2), radius=9, outline=MARK_GOLD,
                                   width=4)
            face, tw = tag_face, tag_w
            tag = (box[2] - tw - 10, box[1] - 14, box[2] - 10, box[1] + 14)
            draw.rounded_rectangle(tag, radius=7, fill=MARK_GOLD, outline=BLACK, width=2)
            draw.text(((tag[0] + tag[2]) / 2, (tag[1] + tag[3]) / 2 + 1), mark_text, font=face, fill=INK,
                      anchor="mm")
        y += row.height + 10
    if story.keep:
        kface, keep = common.fit_label(_("Keep this card in front of you"), "bold", 14, STORY_W - 2 * 60, smallest=9)
        draw.text((STORY_W / 2, STORY_H - 36), keep, font=kface, fill=common.mix(colour, BLACK, 0.4), anchor="mb")
    return _card_bytes(img)


def render_story(card: Story | Source, *, chosen: int = -1, roll: int = 0,
                 closed: Mapping[int, str] | None = None) -> bytes:
    """PNG (600×860) of a story card: deck, title, text and the outcome table (d6 ranges or choices, fate
    marks, opponents' combat value, initiative, life and XP, round limits); cached per card.

    ``chosen`` marks the outcome that happened (with ``roll``, the d6 row rolled; a card with one outcome is
    never marked, since nobody chose it); ``closed`` greys out the options the hero cannot take, each with its
    reason."""
    story = _as(Story, card)
    if len(story.outcome) == 1 and not roll:
        chosen = -1  # the only outcome: nobody chose it, and no frame says so
    tag = (_("ROLLED {roll}", roll=roll) if roll else _("CHOSEN")) if chosen >= 0 else ""
    return _story_png(story, chosen, tag, tuple(sorted((closed or {}).items())), language())


def _effect_words(o: Outcome) -> str:
    bits = []
    if o.fate:
        bits.append(_("laurel") if o.fate == "laurel" else _("skull"))
    for foe in o.opponent:
        bits.append(_("fight {foe}: combat {combat}, initiative {initiative}, life {life}, {xp} XP", foe=foe.name,
                      combat=foe.combat, initiative=foe.initiative, life=foe.life, xp=foe.xp))
    if o.opponent and o.rounds:
        bits.append(_("at most {rounds} rounds", rounds=o.rounds))
    return semicolon(bits)


def story_alt_text(card: Story | Source) -> str:
    s: Story = _as(Story, card)
    parts = [_(DECK_ALT[s.deck], title=s.title, text=s.text) if s.deck in DECK_ALT
             else f"{s.deck.title()} story card: {s.title}. {s.text}"]
    for o in s.outcome:
        head = _range_label(o) if o.rolls else o.choice
        extra = _effect_words(o)
        text = _("{text} ({extra})", text=o.text, extra=extra) if extra else o.text
        parts.append(_("{head}: {text}", head=head, text=text) if head else text)
    return common.cap_alt(" ".join(parts))


# --- event cards -------------------------------------------------------------------------------------

@encoded
def _event_png(event: EventCard, lang: str = "en") -> bytes:
    img, draw = _frame((CARD_W, CARD_H), EVENT_COLOUR, _("Event · this round"))
    left, right = 42, CARD_W - 42
    top = _title(draw, event.name, (left, 64, right, 150))
    effect = event_effect_line(event.effect)
    eface, elines = common.fit_text(effect, "bold", right - left - 24, 96, largest=22, smallest=15, spacing=1.15)
    ebox_h = len(elines) * common.line_height(eface, 1.15) + 26
    bottom = CARD_H - 40 - ebox_h - 16
    face, lines = common.fit_text(event.text, "sans", right - left, bottom - top, largest=23, smallest=14, spacing=1.28)
    common.draw_lines(draw, lines, (left, top, right, bottom), face, INK, align="center", valign="middle", spacing=1.28)
    ebox = (left - 4, CARD_H - 40 - ebox_h, right + 4, CARD_H - 40)
    draw.rounded_rectangle(ebox, radius=8, fill=common.mix(EVENT_COLOUR, WHITE, 0.85), outline=EVENT_COLOUR, width=3)
    common.draw_lines(draw, elines, (ebox[0] + 12, ebox[1], ebox[2] - 12, ebox[3]), eface,
                      common.mix(EVENT_COLOUR, BLACK, 0.3), align="center", valign="middle", spacing=1.15)
    return _card_bytes(img)


def render_event(event: EventCard | Source) -> bytes:
    """PNG (480×680) of an event card: name, text and its effect for the round; cached."""
    return _event_png(_as(EventCard, event), language())


def event_alt_text(event: EventCard | Source) -> str:
    e: EventCard = _as(EventCard, event)
    return common.cap_alt(_("Event card: {name}. {text} Effect: {effect}", name=e.name, text=e.text,
                            effect=event_effect_line(e.effect)))


# --- item cards --------------------------------------------------------------------------------------

def _item_marks(it: Item) -> list[str]:
    """The item's rules in short marks, the same words as the glossary."""
    marks = []
    if it.hands:
        marks.append(_("two-handed") if it.hands == 2 else _("one-handed"))
    if it.ranged:
        if it.ranged_discard and it.ranged_wound:
            marks.append(_("ranged: opponent discards {discard} or opponent loses {wound} life",
                           discard=it.ranged_discard, wound=it.ranged_wound))
        elif it.ranged_discard:
            marks.append(_("ranged: opponent discards {discard}", discard=it.ranged_discard))
        elif it.ranged_wound:
            marks.append(_("ranged: opponent loses {wound} life", wound=it.ranged_wound))
        else:
            marks.append(_("ranged: once before melee"))
    if it.armed and it.armed_count:
        card = _p("card", it.armed)
        card = card.title() if language() == "en" else card[:1].upper() + card[1:]
        marks.append(_n("+{n} {card} card", "+{n} {card} cards", it.armed_count, card=card))
    if it.shield:
        marks.append(_("shield: turns aside any wound") if it.shield == "any"
                     else _("shield: turns aside a {card} wound", card=_p("card", it.shield)))
    if it.armour:
        marks.append(_n("armour: absorbs {n} wound per fight", "armour: absorbs {n} wounds per fight", it.armour))
    if it.heal:
        marks.append(_("restores {life} life, then discard", life=it.heal))
    if it.move:
        marks.append(_("+{n} province when exploring", n=it.move))
    return marks


def _kind_emblem(it: Item, size: int) -> Image.Image:
    """A picture for the item's kind, drawn with the province icons' pen where one fits."""
    if it.kind == "weapon":
        if it.ranged:
            return glyphs.icon("bow", size) if it.hands == 2 else glyphs.spear(size)
        return glyphs.icon("sword", size)
    if it.kind == "healing":
        return glyphs.heart(size)
    if it.kind == "horse":
        return glyphs.horse(size)
    if it.kind == "tool":
        return glyphs.icon("scroll", size)
    if it.kind == "shield":
        return glyphs.shield(size)
    return glyphs.helmet(size)


#: Each item kind as the card's head band names it.
KIND_NAMES = {"weapon": N_("weapon"), "shield": N_("shield"), "armour": N_("armour"), "healing": N_("healing"),
              "horse": N_("horse"), "tool": N_("tool")}


def _kind(it: Item) -> str:
    return _(KIND_NAMES[it.kind]) if it.kind in KIND_NAMES else it.kind


@encoded
def _item_png(it: Item, lang: str = "en") -> bytes:
    label = _("starting weapon") if it.starting else _kind(it)
    img, draw = _frame((CARD_W, CARD_H), ITEM_COLOUR, label)
    left, right = 42, CARD_W - 42
    top = _title(draw, it.name, (left + 40, 64, right - 40, 150), largest=32)
    # price coin at the top right, or the people for a starting weapon
    if it.starting:
        said = _("{people} starting weapon", people=it.people) if it.people else _("starting weapon")
        pface, people = common.fit_label(said, "bold", 16, right - left, smallest=9)
        draw.text((CARD_W / 2, top + 2), people, font=pface, fill=common.mix(ITEM_COLOUR, BLACK, 0.3), anchor="ma")
        top += 26
    else:
        coin = glyphs.coin(58)
        img.alpha_composite(coin, (right - 50, 58))
        draw.text((right - 21, 87), str(it.price), font=common.font("serif", 26), fill=INK, anchor="mm",
                  stroke_width=2, stroke_fill=glyphs.GOLD)
    pic = 150
    img.alpha_composite(_kind_emblem(it, pic), ((CARD_W - pic) // 2, top + 4))
    if it.ranged:  # the book's ranged mark: a target, struck through
        tx, ty = CARD_W // 2 + pic // 2 + 10, top + 20
        draw.ellipse((tx, ty, tx + 40, ty + 40), fill=WHITE, outline=LOSS, width=4)
        draw.ellipse((tx + 11, ty + 11, tx + 29, ty + 29), outline=LOSS, width=4)
        draw.line((tx + 2, ty + 38, tx + 38, ty + 2), fill=INK, width=4)
    if it.hands:
        hx, hy = CARD_W // 2 - pic // 2 - 60, top + 20
        draw.rounded_rectangle((hx, hy, hx + 50, hy + 40), radius=6, fill=common.mix(ITEM_COLOUR, WHITE, 0.8),
                               outline=ITEM_COLOUR, width=3)
        draw.text((hx + 25, hy + 13), str(it.hands), font=common.font("bold", 20), fill=INK, anchor="mm")
        hface, hands = common.fit_label(_("hands") if it.hands > 1 else _("hand"), "bold", 11, 46, smallest=9)
        draw.text((hx + 25, hy + 31), hands, font=hface, fill=INK, anchor="mm")
    y = top + pic + 14
    marks = _item_marks(it)
    mface = common.font("bold", 17)
    for mark in marks:
        lines = common.wrap(mark, mface, right - left - 24)
        h = len(lines) * common.line_height(mface, 1.1) + 10
        draw.rounded_rectangle((left, y, right, y + h), radius=6, fill=common.mix(ITEM_COLOUR, WHITE, 0.82))
        common.draw_lines(draw, lines, (left + 12, y + 5, right - 12, y + h), mface, INK, spacing=1.1)
        y += h + 6
    face, lines = common.fit_text(it.text, "sans", right - left, CARD_H - 44 - y - 8, largest=20, smallest=13,
                                  spacing=1.25)
    common.draw_lines(draw, lines, (left, y + 8, right, CARD_H - 44), face, INK, align="center", valign="middle",
                      spacing=1.25)
    return _card_bytes(img)


def render_item(item: Item | Source) -> bytes:
    """PNG (480×680) of an item card: name, price, kind picture, hands and ranged marks, its effects; cached."""
    return _item_png(_as(Item, item), language())


def item_alt_text(item: Item | Source) -> str:
    it: Item = _as(Item, item)
    if it.starting:
        price = _("starting weapon of the {people}", people=it.people) if it.people else _("starting weapon")
    else:
        price = _n("price {price} gold", "price {price} gold", it.price, price=it.price)
    marks = semicolon(_item_marks(it))
    return common.cap_alt(_("Item card: {name} ({kind}, {price}). {marks}{text}", name=it.name, kind=_kind(it),
                            price=price, marks=marks + _p("sentences", ". ") if marks else '', text=it.text))


# --- combat cards -------------------------------------------------------------------------------------

COMBAT_NAMES = {"torso": N_("Torso"), "head": N_("Head"), "hand": N_("Hand"), "leg": N_("Leg"),
                "inspired": N_("Inspired combat")}


def _combat_name(kind: str) -> str:
    return _(COMBAT_NAMES[kind]) if kind in COMBAT_NAMES else kind.title()


def _figure(draw: ImageDraw.ImageDraw, box: common.Box, part: str, colour: common.RGB) -> None:
    """A standing figure with the struck body part in ``colour`` (all of it glowing for inspired)."""
    x0, y0, x1, y1 = box
    cx = (x0 + x1) / 2
    u = (y1 - y0) / 20
    base = common.mix(INK, PARCHMENT, 0.55)
    every = part == "inspired"

    def fill(p: str) -> common.RGB:
        return colour if every or p == part else base

    draw.ellipse((cx - 2 * u, y0, cx + 2 * u, y0 + 4 * u), fill=fill("head"), outline=INK, width=2)
    draw.rounded_rectangle((cx - 3 * u, y0 + 4.6 * u, cx + 3 * u, y0 + 11.5 * u), radius=u, fill=fill("torso"),
                           outline=INK, width=2)
    for sx in (-1, 1):
        arm = [(cx + sx * 3.2 * u, y0 + 5 * u), (cx + sx * 4.6 * u, y0 + 5.4 * u), (cx + sx * 5.2 * u, y0 + 10.5 * u),
               (cx + sx * 4.0 * u, y0 + 10.5 * u)]
        draw.polygon(arm, fill=fill("hand"), outline=INK, width=2)
        draw.ellipse((cx + sx * 4.6 * u - 1.1 * u, y0 + 10.4 * u, cx + sx * 4.6 * u + 1.1 * u, y0 + 12.6 * u),
                     fill=fill("hand"), outline=INK, width=2)
        leg = [(cx + sx * 0.3 * u, y0 + 11.8 * u), (cx + sx * 2.9 * u, y0 + 11.8 * u), (cx + sx * 2.6 * u, y1),
                (cx + sx * 0.8 * u, y1)]
        draw.polygon(leg, fill=fill("leg"), outline=INK, width=2)
    if every:
        for k in range(12):
            a = math.radians(k * 30)
            r0, r1 = 7.5 * u, 9.5 * u
            my = y0 + 9 * u
            draw.line((cx + r0 * math.cos(a), my + r0 * math.sin(a), cx + r1 * math.cos(a), my + r1 * math.sin(a)),
                      fill=glyphs.GOLD, width=3)


@encoded
def _combat_png(kind: str, armed: bool, initiative_text: bool, lang: str = "en") -> bytes:
    colour = ARMED_COLOUR if armed else COMBAT_COLOUR
    img, draw = _frame((COMBAT_W, COMBAT_H), colour, _("Armed combat") if armed else _("Combat"), band=18, head=44)
    name = _combat_name(kind)
    title = name if kind == "inspired" else f"{name}"
    face, lines = common.fit_text(title, "serif", COMBAT_W - 60, 64, largest=30, smallest=18, spacing=1.05)
    y = common.draw_lines(draw, lines, (30, 52, COMBAT_W - 30, 120), face, INK, align="center", spacing=1.05)
    if kind != "inspired":
        aface, attack = common.fit_label(_("attack / defence"), "bold", 15, COMBAT_W - 60, smallest=9)
        draw.text((COMBAT_W / 2, y), attack, font=aface, fill=common.mix(INK, PARCHMENT, 0.3), anchor="ma")
        y += 22
    fig_bottom = COMBAT_H - (112 if initiative_text else 36)
    _figure(draw, (COMBAT_W // 2 - 60, y + 6, COMBAT_W // 2 + 60, fig_bottom), kind, LOSS)
    if armed:
        img.alpha_composite(glyphs.swords(44), (COMBAT_W - 74, y))
    if initiative_text:
        text = _("Ward off an attack with this card and the next attack is yours, without a roll.")
        tface, tlines = common.fit_text(text, "bold", COMBAT_W - 64, 70, largest=15, smallest=12, spacing=1.15)
        box = (28, COMBAT_H - 104, COMBAT_W - 28, COMBAT_H - 30)
        draw.rounded_rectangle(box, radius=6, fill=common.mix(glyphs.GOLD, WHITE, 0.6),
                               outline=common.mix(glyphs.GOLD, INK, 0.4), width=2)
        common.draw_lines(draw, tlines, (box[0] + 6, box[1], box[2] - 6, box[3]), tface, INK, align="center",
                          valign="middle", spacing=1.15)
    return _card_bytes(img)


def render_combat_card(kind: str, armed: bool, initiative_text: bool) -> bytes:
    """PNG (300×420) of a combat card: torso, head, hand, leg or inspired; armed cards in steel with crossed
    swords; ``initiative_text`` adds the line that a ward with it seizes the next attack; cached."""
    return _combat_png(kind, armed, initiative_text, language())


def combat_card_alt_text(kind: str, armed: bool, initiative_text: bool) -> str:
    name = _combat_name(kind)
    if kind == "inspired":
        text = _("Armed combat card: {name}.", name=name) if armed else _("Combat card: {name}.", name=name)
    else:
        text = (_("Armed combat card: {name} attack or defence.", name=name) if armed
                else _("Combat card: {name} attack or defence.", name=name))
    if initiative_text:
        text += " " + _("Ward off an attack with it and the next attack is yours without a roll.")
    return text


# --- monster sheets -----------------------------------------------------------------------------------

def _track(img: Image.Image, draw: ImageDraw.ImageDraw, x0: int, y: int, stat: str, label: str, value: int,
           top: int = 12, label_w: int = 150, right: int = 0) -> None:
    """A track of numbered stones 0..top with the value's stone marked; the stat's glyph and ``label`` (in a
    column ``label_w`` wide) before it; the stones close up to end before ``right`` (when given)."""
    img.alpha_composite(_stat_glyph(stat, 30), (x0, y - 15))
    lface, label = common.fit_label(label, "bold", 17, label_w - 38 - 4, smallest=9)
    draw.text((x0 + 38, y), label, font=lface, fill=INK, anchor="lm")
    sx = x0 + label_w
    step = min(44, (right - 18 - sx) // max(1, top)) if right else 44
    face = common.font("bold", 17)
    for n in range(top + 1):
        cx = sx + n * step
        on = n == value
        r = 18 if on else 15
        draw.ellipse((cx - r, y - r, cx + r, y + r), fill=LOSS if on else PARCHMENT_DARK,
                     outline=INK, width=3 if on else 1)
        draw.text((cx, y), str(n), font=face, fill=WHITE if on else INK, anchor="mm")


@encoded
def _monster_png(m: Monster, lang: str = "en") -> bytes:
    img, draw = _frame((SHEET_W, SHEET_H), MONSTER_COLOUR, _("Mythological monster"), band=24, head=50)
    left, right = 44, SHEET_W - 44
    nface, name = common.fit_label(m.name, "serif", 40, right - left - (300 if m.heads > 1 else 0), smallest=9)
    draw.text((left, 64), name, font=nface, fill=INK)
    if m.heads > 1:
        hface, heads = common.fit_label(_("{n} heads: {n} opponents", n=m.heads), "bold", 19, 280, smallest=9)
        draw.text((right, 78), heads, font=hface, fill=LOSS, anchor="ra")
    tracks_top = SHEET_H - 40 - 3 * 52
    col = right - left
    face, lines = common.fit_text(m.text, "sans", col, 150, largest=19, smallest=13, spacing=1.22)
    y = common.draw_lines(draw, lines, (left, 118, right, 270), face, INK, spacing=1.22) + 8
    aface = common.font("bold", 16)
    for key, text in zip(m.abilities, m.ability_text, strict=False):
        del key
        alines = common.wrap(text, aface, col - 40)
        h = len(alines) * common.line_height(aface, 1.15) + 10
        if y + h > tracks_top - 10:
            break
        draw.rounded_rectangle((left, y, right, y + h), radius=6, fill=common.mix(LOSS, WHITE, 0.86), outline=LOSS,
                               width=2)
        img.alpha_composite(glyphs.skull(24), (left + 8, y + 5))
        common.draw_lines(draw, alines, (left + 40, y + 5, right - 8, y + h), aface, INK, spacing=1.15)
        y += h + 6
    tracks = (("combat", _p("track", "Combat"), m.combat), ("initiative", _("Initiative"), m.initiative),
              ("life", _("Life"), m.life))
    # the label column as wide as the longest label needs (the Hungarian "Kezdeményezés"), within reason
    label_face = common.font("bold", 17)
    label_w = max(150, min(240, 38 + 24 + max(round(common.text_length(t[1], label_face)) for t in tracks)))
    for i, (stat, label, value) in enumerate(tracks):
        _track(img, draw, left, tracks_top + 26 + i * 52, stat, label, value, top=max(15, value), label_w=label_w,
               right=right)
    return _card_bytes(img)


def render_monster(monster: Monster | Source) -> bytes:
    """PNG (960×640) of a monster sheet: name, legend, abilities and the three tracks; cached."""
    return _monster_png(_as(Monster, monster), language())


def monster_alt_text(monster: Monster | Source) -> str:
    m: Monster = _as(Monster, monster)
    heads = " " + _("It has {n} heads, each a separate opponent.", n=m.heads) if m.heads > 1 else ""
    abilities = " ".join(m.ability_text)
    return common.cap_alt(_("Monster sheet: {name}. Combat value {combat}, initiative {initiative}, life {life}.",
                            name=m.name, combat=m.combat, initiative=m.initiative, life=m.life)
                          + f"{heads} {abilities} {m.text}")
