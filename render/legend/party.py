"""Legend of Heroes, Expanded Game: a player's Party as one picture, and its alt text.

The five Hero cards lie in the order the player laid them, read left to right and top to bottom in two rows of
three (so the picture reads at chat width): the Magic User's Spell card (or an empty dashed slot) comes just
before him, and the Leader is the last card, at the bottom right (a gold frame and a crowned LEADER banner).
Each card has a plate under it: its place in the row, the hero's name and kind.  A wounded Hero shows its
wounded side, dimmed.  The cards are drawn once per hero and side (``cards.hero_image``), shrunk once and
cached; a snapshot pastes them onto a fresh canvas with the labels and encodes it.

A party is the view's ``PartyView``: the player, their colour and letter, the heroes left to right (the last
leads) and the Magic User's spell (face up, as the book lays it).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, lru_cache

from PIL import Image, ImageDraw, ImageEnhance, ImageFont

from render.cache import encoded
from render.common import (
    RGB,
    canvas,
    cap_alt,
    ellipsize,
    fit_label,
    font,
    mix,
    outlined,
    png_bytes,
    shrink,
    supersampled,
    text_length,
    token_colours,
)
from render.legend.board import BAR, BAR_DIM, BAR_TEXT, BLACK, WHITE
from render.legend.cards import (
    CARD_H,
    CARD_W,
    CLASS_COLOURS,
    WOUND_RED,
    hero_image,
    spell_image,
)
from rules.i18n import language
from rules.legend.content import BOXES, Hero, Spell, hero_index, spell_index
from rules.legend.i18n import _, class_name, colour_name, comma, hero_name, run_on, spell_name
from rules.legend.view import PartyView

Party = PartyView

# --- layout -------------------------------------------------------------------------------------------

HERO_SCALE = 0.5
HERO_W, HERO_H = round(CARD_W * HERO_SCALE), round(CARD_H * HERO_SCALE)  # 240×340
SPELL_W, SPELL_H = round(CARD_W * 0.42), round(CARD_H * 0.42)  # 202×286
MARGIN, GAP = 20, 16
COLUMNS = 3  # two rows of three slots: five heroes and the spell
HEADER_H = 66
BANNER_H = 54  # above the second row: room for the Leader's banner
PLATE_H = 76  # below each card: its place, the hero's name and kind
ROW_GAP = 8
WIDTH = 2 * MARGIN + COLUMNS * HERO_W + (COLUMNS - 1) * GAP
ROW_TOPS = (HEADER_H + 12, HEADER_H + 12 + HERO_H + PLATE_H + ROW_GAP + BANNER_H)
HEIGHT = ROW_TOPS[1] + HERO_H + PLATE_H + 6
CARD_TOP = ROW_TOPS[1]  # the Leader's row

LEADER_GOLD: RGB = (255, 200, 30)
PANEL: RGB = mix(BAR, CLASS_COLOURS["magic"], 0.35)
DASH: RGB = (190, 176, 230)
HURT_TEXT: RGB = (255, 96, 96)  # "WOUNDED" on the dark ground


# --- cached pieces ------------------------------------------------------------------------------------

def _small_hero(hero: Hero, wounded: bool) -> Image.Image:
    """A Hero card at party size (in the current language); the wounded side also dimmed, so it stands out in
    the row."""
    return _small_hero_in(hero, wounded, language())


@lru_cache(maxsize=24)  # 326 KB each decoded: enough for the parties in play, not every hero and side
def _small_hero_in(hero: Hero, wounded: bool, lang: str) -> Image.Image:
    img = shrink(hero_image(hero, wounded), (HERO_W, HERO_H))
    if wounded:
        rgb = ImageEnhance.Brightness(img.convert("RGB")).enhance(0.8)
        rgb.putalpha(img.getchannel("A"))
        img = rgb
    return img


def _small_spell(spell: Spell) -> Image.Image:
    """A Spell card at party size, in the current language."""
    return _small_spell_in(spell, language())


@lru_cache(maxsize=8)
def _small_spell_in(spell: Spell, lang: str) -> Image.Image:
    return shrink(spell_image(spell), (SPELL_W, SPELL_H))


@lru_cache(maxsize=4)
def _dashed_slot(w: int, h: int, lines: tuple[str, ...]) -> Image.Image:
    """An empty place for a card: a dashed outline and a few words (no spell, or a hero not known)."""
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = canvas(img)
    dash, step, inset = 14, 24, 3
    for x in range(inset + 10, w - inset - 10, step):  # top and bottom edges
        for y in (inset, h - inset - 1):
            d.line((x, y, min(x + dash, w - inset - 10), y), fill=DASH, width=4)
    for y in range(inset + 10, h - inset - 10, step):  # left and right edges
        for x in (inset, w - inset - 1):
            d.line((x, y, x, min(y + dash, h - inset - 10)), fill=DASH, width=4)
    sizes = [26] + [22] * (len(lines) - 1)
    total = sum(size + 10 for size in sizes)
    ty = (h - total) / 2
    for i, (text, size) in enumerate(zip(lines, sizes, strict=True)):
        face = fit_label(text, "bold", size, w - 24, smallest=size - 8, cut=False)[0]
        d.text((w / 2, ty), ellipsize(text, face, w - 24), font=face, fill=DASH if i == 0 else WHITE,
               anchor="ma")
        ty += size + 10
    return img


@cache
def _crown() -> Image.Image:
    """A small gold crown for the Leader's banner."""
    s, w, h = 4, 40, 32
    img, d = supersampled((w, h), s)
    pts = [(2, 28), (2, 8), (11, 17), (20, 3), (29, 17), (38, 8), (38, 28)]
    d.polygon([(x * s, y * s) for x, y in pts], fill=(*LEADER_GOLD, 255), outline=(0, 0, 0, 255), width=2 * s)
    for x, y in ((2, 8), (20, 3), (38, 8)):
        d.ellipse(((x - 3) * s, (y - 3) * s, (x + 3) * s, (y + 3) * s), fill=(*WHITE, 255),
                  outline=(0, 0, 0, 255), width=s)
    d.rectangle((2 * s, 23 * s, 38 * s, 28 * s), fill=(*WOUND_RED, 255))
    return shrink(img, (w, h))


@cache
def _player_token(colour: str, letter: str) -> Image.Image:
    """The player's token as on the board: a disc in their colour with their letter."""
    fill, ink = token_colours(colour)
    size, s = 48, 4
    img, d = supersampled((size, size), s)
    d.ellipse((0, 0, size * s - 1, size * s - 1), fill=(*BLACK, 255))
    d.ellipse((2 * s, 2 * s, (size - 2) * s, (size - 2) * s), fill=(*WHITE, 255))
    d.ellipse((5 * s, 5 * s, (size - 5) * s, (size - 5) * s), fill=(*fill, 255))
    img = shrink(img, (size, size))
    canvas(img).text((size / 2, size / 2 + 1), letter[:1].upper(), font=font("bold", 27), fill=ink,
                             anchor="mm")
    return img


# --- reading the party --------------------------------------------------------------------------------

class _Slot:
    __slots__ = ("hero", "id", "wounded")

    def __init__(self, hero_id: str, hero: Hero | None, wounded: bool) -> None:
        self.id, self.hero, self.wounded = hero_id, hero, wounded

    @property
    def name(self) -> str:
        return hero_name(self.hero.name) if self.hero else self.id


def _slots(party: Party, heroes: Mapping[str, Hero]) -> list[_Slot]:
    out = []
    for entry in party.heroes[:5]:
        out.append(_Slot(entry.id, heroes.get(entry.id), entry.wounded))
    return out


Point = tuple[int, int]


def positions(kinds: list[str | None]) -> tuple[list[Point], Point | None]:
    """The top-left corner of each hero's card (``kinds`` left to right) and of the spell slot, which comes
    just before the first Magic User.  Slots run left to right, top to bottom, in rows of three, filled from
    the end so that the Leader always lies at the bottom right."""
    magic = next((i for i, k in enumerate(kinds) if k == "magic"), None)
    order: list[int | None] = []  # hero indices, None for the spell
    for i in range(len(kinds)):
        if i == magic:
            order.append(None)
        order.append(i)
    slots = 2 * COLUMNS
    order = order[-slots:]
    start = slots - len(order)
    xs: list[Point] = [(0, 0)] * len(kinds)
    spell: Point | None = None
    for n, item in enumerate(order):
        row, col = divmod(start + n, COLUMNS)
        at = (MARGIN + col * (HERO_W + GAP), ROW_TOPS[row])
        if item is None:
            spell = at
        else:
            xs[item] = at
    return xs, spell


def _spell_of(party: Party, spells: Mapping[str, Spell]) -> tuple[str | None, Spell | None]:
    sid = party.spell
    return (sid, spells.get(sid)) if sid else (None, None)


# --- the picture --------------------------------------------------------------------------------------

def compose_party(party: Party, *, heroes: Mapping[str, Hero] | None = None,
                  spells: Mapping[str, Spell] | None = None) -> Image.Image:
    """The Party as an RGB image (``render_party`` encodes it).  ``heroes`` and ``spells`` default to the
    game's cards."""
    heroes = hero_index() if heroes is None else heroes
    spells = spell_index() if spells is None else spells
    slots = _slots(party, heroes)
    spell_id, spell = _spell_of(party, spells)
    magic = next((i for i, s in enumerate(slots) if s.hero and s.hero.kind == "magic"), None)

    img = Image.new("RGB", (WIDTH, HEIGHT), BAR)
    draw = canvas(img)
    colour = party.colour
    letter = party.letter or colour[:1] or "?"
    fill = token_colours(colour)[0]
    draw.rectangle((0, 0, WIDTH, HEADER_H - 8), fill=mix(fill, BAR, 0.55))
    draw.rectangle((0, HEADER_H - 12, WIDTH, HEADER_H - 8), fill=fill)
    token = _player_token(colour, letter)
    img.paste(token, (MARGIN, (HEADER_H - 8 - token.height) // 2), token)
    player = party.player or _("Someone")
    title = (_("{player}'s party ({colour})", player=player, colour=colour_name(colour)) if colour else
             _("{player}'s party", player=player))
    outlined(draw, (MARGIN + 62, (HEADER_H - 8) / 2), ellipsize(title, font("serif", 30), WIDTH - MARGIN - 72),
             font("serif", 30), fill=WHITE, outline=BLACK, width=2, anchor="lm")

    xs, spell_at = positions([slot.hero.kind if slot.hero else None for slot in slots])
    plate_face, kind_face = font("bold", 30), font("bold", 21)
    if spell_at is not None and magic is not None:
        sx, sy = spell_at
        owner = slots[magic].name
        draw.rounded_rectangle((sx - 8, sy - 8, sx + HERO_W + 8, sy + HERO_H + PLATE_H - 2), radius=14, fill=PANEL,
                               outline=mix(PANEL, WHITE, 0.35), width=2)
        left, top = sx + (HERO_W - SPELL_W) // 2, sy + (HERO_H - SPELL_H) // 2
        if spell is not None:
            card = _small_spell(spell)
            img.paste(card, (left, top), card)
            label, sub = spell_name(spell.name), _("spell · roll {n}+", n=spell.roll)
        else:
            words = ((_("no spell"), "/study", _("to learn one")) if spell_id is None else
                     (spell_id, _("unknown spell")))
            empty = _dashed_slot(SPELL_W, SPELL_H, words)
            img.paste(empty, (left, top), empty)
            label, sub = _("no spell"), _("{hero} can /study", hero=owner)
        _plate(draw, (sx, sy + HERO_H + 8, sx + HERO_W, sy + HERO_H + PLATE_H - 10), label, sub, DASH,
               font("bold", 26), kind_face)
    for i, slot in enumerate(slots):
        x, y = xs[i]
        leader = i == len(slots) - 1
        if slot.hero is not None:
            card = _small_hero(slot.hero, slot.wounded)
        else:
            card = _dashed_slot(HERO_W, HERO_H, (slot.id, _("unknown hero")))
        if leader:
            draw.rounded_rectangle((x - 7, y - 7, x + HERO_W + 6, y + HERO_H + 6), radius=20,
                                   fill=LEADER_GOLD, outline=BLACK, width=2)
            _banner(img, draw, x, y)
        img.paste(card, (x, y), card)
        tint = CLASS_COLOURS.get(slot.hero.kind, BAR_DIM) if slot.hero else BAR_DIM
        kind = class_name(slot.hero.kind) if slot.hero else "?"
        if leader:
            sub = _("Leader · {kind} · WOUNDED", kind=kind) if slot.wounded else _("Leader · {kind}", kind=kind)
        else:
            sub = (_("#{n} · {kind} · WOUNDED", n=i + 1, kind=kind) if slot.wounded else
                   _("#{n} · {kind}", n=i + 1, kind=kind))
        _plate(draw, (x, y + HERO_H + 8, x + HERO_W, y + HERO_H + PLATE_H - 10), slot.name, sub,
               WOUND_RED if slot.wounded else tint, plate_face, kind_face, hurt=slot.wounded)
    return img


def _plate(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], name: str, sub: str, tint: RGB,
           face: ImageFont.FreeTypeFont, small: ImageFont.FreeTypeFont, *, hurt: bool = False) -> None:
    """A name under a card, with a colour bar on its left and a second line (kind, wounded) below."""
    x0, y0, x1, y1 = box
    draw.rectangle((x0, y0, x0 + 6, y1), fill=tint)
    if sub:
        draw.text((x0 + 14, y0 + 1), ellipsize(name, face, x1 - x0 - 16), font=face, fill=BAR_TEXT)
        line = fit_label(sub, "bold", int(small.size), x1 - x0 - 16,
                         smallest=14, cut=False)[0]  # shrink, never cut, the kind
        draw.text((x0 + 14, y1 - 1), ellipsize(sub, line, x1 - x0 - 16), font=line,
                  fill=HURT_TEXT if hurt else BAR_DIM, anchor="ls")
    else:
        draw.text((x0 + 14, (y0 + y1) / 2), name, font=face, fill=BAR_DIM, anchor="lm")


def _banner(img: Image.Image, draw: ImageDraw.ImageDraw, x: int, card_top: int) -> None:
    """The Leader's banner over his card: a gold ribbon reading LEADER, with a crown."""
    top, bottom = card_top - BANNER_H + 4, card_top - 12
    x0, x1 = x + 6, x + HERO_W - 6
    notch = 12
    ribbon = [(x0 - 10, top), (x1 + 10, top), (x1 + 10 - notch, (top + bottom) / 2), (x1 + 10, bottom),
              (x0 - 10, bottom), (x0 - 10 + notch, (top + bottom) / 2)]
    draw.polygon(ribbon, fill=LEADER_GOLD, outline=BLACK, width=2)
    crown = _crown()
    cx = x + HERO_W // 2
    word = _("LEADER")
    face = fit_label(word, "bold", 26, x1 - x0 - 2 * notch - crown.width - 8, smallest=14, cut=False)[0]
    text_w = text_length(word, face)
    left = round(cx - (crown.width + 8 + text_w) / 2)
    img.paste(crown, (left, (top + bottom - crown.height) // 2), crown)
    draw.text((left + crown.width + 8, (top + bottom) / 2 + 1), word, font=face, fill=BLACK, anchor="lm")


def _palette_bytes(img: Image.Image) -> bytes:
    """An adaptive 256-colour palette (the cards carry many tints) at PNG level 1: small and quick."""
    return png_bytes(img.quantize(256, method=Image.Quantize.FASTOCTREE), compress_level=1)


@encoded
def _party_png(party: Party, lang: str) -> bytes:
    return _palette_bytes(compose_party(party))


def render_party(party: Party, *, heroes: Mapping[str, Hero] | None = None,
                 spells: Mapping[str, Spell] | None = None) -> bytes:
    """PNG of a player's Party: the five Hero cards in order (Leader at the right end, crowned), wounded
    ones on their wounded side, the Magic User's spell beside him, the player's colour and letter.
    With the game's own cards (no ``heroes``/``spells`` given) the PNG of an unchanged party is cached."""
    if heroes is None and spells is None:
        return _party_png(party, language())
    return _palette_bytes(compose_party(party, heroes=heroes, spells=spells))


# --- alt text -----------------------------------------------------------------------------------------

def _who(slot: _Slot) -> str:
    kind = class_name(slot.hero.kind) if slot.hero else _("unknown hero")
    if slot.wounded:
        return _("{hero} ({kind}, wounded)", hero=slot.name, kind=kind)
    return _("{hero} ({kind})", hero=slot.name, kind=kind)


def party_alt_text(party: Party, *, heroes: Mapping[str, Hero] | None = None,
                   spells: Mapping[str, Spell] | None = None) -> str:
    """Who leads, the order left to right, who is wounded, and which spell the Magic User holds."""
    heroes = hero_index() if heroes is None else heroes
    spells = spell_index() if spells is None else spells
    slots = _slots(party, heroes)
    colour = party.colour
    player = party.player or _("Someone")
    owner = (_("{player}'s party ({colour})", player=player, colour=colour_name(colour)) if colour else
             _("{player}'s party", player=player))
    if not slots:
        return cap_alt(_("{party}: no heroes.", party=owner))
    lead = slots[-1]
    lead_kind = class_name(lead.hero.kind) if lead.hero else _("unknown hero")
    text = _("{party}, led by {hero} the {kind} at the right end. Left to right: {heroes}.", party=owner,
             hero=lead.name, kind=lead_kind, heroes=comma(_who(s) for s in slots))
    hurt = [s.name for s in slots if s.wounded]
    text = run_on(text, _("Wounded: {heroes}.", heroes=comma(hurt)) if hurt
                  else _("No one is wounded."))
    mage = next((s for s in slots if s.hero and s.hero.kind == "magic"), None)
    spell_id, spell = _spell_of(party, spells)
    who = mage.name if mage else _("The party")
    if spell is not None:
        immune = [b for b, ok in zip(BOXES, spell.works, strict=False) if not ok]
        if immune:
            said = _("{hero} holds the {spell} spell (roll {n} or more; no effect under box {boxes}).", hero=who,
                     spell=spell_name(spell.name), n=spell.roll, boxes=comma(immune))
        else:
            said = _("{hero} holds the {spell} spell (roll {n} or more; works on every Monster).", hero=who,
                     spell=spell_name(spell.name), n=spell.roll)
    elif spell_id:
        said = _("{hero} holds an unknown spell, {spell}.", hero=who, spell=spell_id)
    else:
        said = _("{hero} has no spell.", hero=who)
    return cap_alt(run_on(text, said))
