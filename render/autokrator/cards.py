"""Autokrator's battle cards as pictures: one card (army type, troops, swords and its five battlefield values),
a realm's whole hand with the unit each card is dealt to, and a battle — the chosen battlefield and the two rows
of three cards, face down while laid and face up, clash by clash, once revealed."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from render.common import RGB, canvas, font, mix, png_bytes, wrap
from rules.autokrator.content import FIELD_NAMES, FIELDS, KIND_NAMES, UNIT_NAMES, library
from rules.autokrator.engine import unit_title
from rules.autokrator.state import BattleFought
from rules.autokrator.view import AutokratorView, BattleView

CARD_W, CARD_H = 190, 284
GAP = 14
INK: RGB = (30, 22, 14)
PAPER: RGB = (250, 244, 228)
WHITE: RGB = (255, 255, 255)
BACK: RGB = (92, 40, 30)
TABLE: RGB = (46, 64, 52)
GOLD: RGB = (240, 200, 60)
NEUTRAL_INK: RGB = (110, 100, 90)
FIXED = {"king": "♛ King's crown", "general": "♞ General's knight", "admiral": "⚓ Admiral's ship",
         "garrison": "♜ Garrison's tower"}


def _colour(owner: str) -> RGB:
    info = library().realms.get(owner)
    return tuple(info.colour) if info else NEUTRAL_INK  # type: ignore[return-value]


@lru_cache(maxsize=32)  # decoded: only the cards of the battles in play
def _card(card_id: str, field: str = "") -> Image.Image:
    c = library().cards[card_id]
    img = Image.new("RGB", (CARD_W, CARD_H), PAPER)
    draw = canvas(img)
    col = _colour(c.owner)
    draw.rectangle((0, 0, CARD_W - 1, CARD_H - 1), outline=col, width=4)
    draw.rectangle((0, 0, CARD_W, 40), fill=col)
    long = len(KIND_NAMES[c.kind]) > 9
    draw.text((CARD_W // 2 - (14 if long else 0), 21), KIND_NAMES[c.kind], font=font("bold", 20 if long else 24),
              fill=WHITE, anchor="mm")
    y = 46
    face = font("cond", 16)
    for line in wrap(c.name, face, CARD_W - 16)[:2]:
        draw.text((CARD_W // 2, y), line, font=face, fill=INK, anchor="ma")
        y += 19
    y = 88
    draw.text((12, y), f"{c.troops:,}", font=font("bold", 22), fill=INK)
    draw.text((CARD_W - 12, y), f"⚔ {c.swords}", font=font("bold", 22), fill=INK, anchor="ra")
    y = 120
    for f, value in zip(FIELDS, c.values, strict=True):
        chosen = f == field
        if chosen:
            draw.rectangle((6, y - 2, CARD_W - 6, y + 24), fill=GOLD)
        draw.text((14, y), FIELD_NAMES[f], font=font("bold" if chosen else "sans", 20), fill=INK)
        draw.text((CARD_W - 14, y), str(value), font=font("bold", 22), fill=INK, anchor="ra")
        y += 26
    if c.fixed:
        draw.text((CARD_W // 2, CARD_H - 10), FIXED[c.fixed], font=font("sans", 14), fill=col, anchor="ms")
    return img


def _back() -> Image.Image:
    img = Image.new("RGB", (CARD_W, CARD_H), BACK)
    draw = canvas(img)
    draw.rectangle((8, 8, CARD_W - 9, CARD_H - 9), outline=GOLD, width=3)
    draw.text((CARD_W // 2, CARD_H // 2), "Autokrator", font=font("serif", 22), fill=GOLD, anchor="mm")
    return img


def _slot() -> Image.Image:
    img = Image.new("RGB", (CARD_W, CARD_H), mix(TABLE, WHITE, 0.15))
    draw = canvas(img)
    draw.rectangle((4, 4, CARD_W - 5, CARD_H - 5), outline=mix(TABLE, WHITE, 0.4), width=2)
    draw.text((CARD_W // 2, CARD_H // 2), "not laid yet", font=font("sans", 18), fill=WHITE, anchor="mm")
    return img


def _encode(img: Image.Image) -> bytes:
    return png_bytes(img.quantize(colors=128, method=Image.Quantize.MEDIANCUT), compress_level=1)


def render_card(card_id: str) -> bytes:
    return _encode(_card(card_id))


def render_cards(cards: list[str], field: str = "") -> bytes:
    """A row of cards (a unit's three), the battlefield's line picked out."""
    img = Image.new("RGB", (GAP + len(cards) * (CARD_W + GAP), CARD_H + 2 * GAP), TABLE)
    for i, c in enumerate(cards):
        img.paste(_card(c, field), (GAP + i * (CARD_W + GAP), GAP))
    return _encode(img)


def render_hand(view: AutokratorView, realm: str) -> bytes:
    """A realm's twelve cards, each captioned with the unit it is dealt to this epoch (or being dealt to)."""
    lib = library()
    deck = lib.deck(realm)
    dealt: dict[str, str] = {}
    mine = view.realm(realm)
    for holder, cards in (mine.cards if mine.assigned else view.pending).items():
        for c in cards:
            dealt[c] = holder
    cols, cap_h = 4, 30
    w = GAP + cols * (CARD_W + GAP)
    h = 50 + 3 * (CARD_H + cap_h + GAP)
    img = Image.new("RGB", (w, h), TABLE)
    draw = canvas(img)
    draw.text((GAP, 25), f"Your battle cards — {lib.realms[realm].name}", font=font("bold", 26), fill=WHITE,
              anchor="lm")
    for i, c in enumerate(deck):
        x = GAP + (i % cols) * (CARD_W + GAP)
        y = 50 + (i // cols) * (CARD_H + cap_h + GAP)
        img.paste(_card(c), (x, y))
        holder = dealt.get(c, "")
        label = UNIT_NAMES[holder] if holder else "free"
        draw.text((x + CARD_W // 2, y + CARD_H + 4), label, font=font("bold", 20),
                  fill=GOLD if holder else WHITE, anchor="ma")
    return _encode(img)


def hand_alt(view: AutokratorView, realm: str) -> str:
    lib = library()
    mine = view.realm(realm)
    dealt = mine.cards if mine.assigned else view.pending
    parts = [f"{UNIT_NAMES[h]}: " + ", ".join(f"{KIND_NAMES[lib.cards[c].kind]} ({lib.cards[c].name})" for c in cards)
             for h, cards in dealt.items()]
    return ("Your twelve battle cards. " + ("; ".join(parts) if parts else "None dealt yet."))[:1000]


def _board(title: str, top: list[Image.Image], bottom: list[Image.Image], top_label: str, bottom_label: str,
           middle: list[str], footer: str) -> bytes:
    label_h, mid_h, foot_h = 40, 44, 56
    w = GAP + 3 * (CARD_W + GAP)
    h = 56 + label_h + CARD_H + mid_h + CARD_H + label_h + foot_h
    img = Image.new("RGB", (w, h), TABLE)
    draw = canvas(img)
    draw.rectangle((0, 0, w, 50), fill=(24, 34, 28))
    draw.text((w // 2, 26), title, font=font("bold", 26), fill=GOLD, anchor="mm")
    y = 56
    draw.text((GAP, y + label_h // 2), top_label, font=font("bold", 22), fill=WHITE, anchor="lm")
    y += label_h
    for i, card in enumerate(top):
        img.paste(card, (GAP + i * (CARD_W + GAP), y))
    y += CARD_H
    for i, text in enumerate(middle):
        draw.text((GAP + i * (CARD_W + GAP) + CARD_W // 2, y + mid_h // 2), text, font=font("bold", 24),
                  fill=WHITE, anchor="mm")
    y += mid_h
    for i, card in enumerate(bottom):
        img.paste(card, (GAP + i * (CARD_W + GAP), y))
    y += CARD_H
    draw.text((GAP, y + label_h // 2), bottom_label, font=font("bold", 22), fill=WHITE, anchor="lm")
    y += label_h
    draw.text((w // 2, y + foot_h // 2), footer, font=font("bold", 24), fill=GOLD, anchor="mm")
    return _encode(img)


def _marked(card: str, field: str, mark: int) -> Image.Image:
    img = _card(card, field).copy()
    if mark:
        draw = canvas(img)
        draw.ellipse((CARD_W - 36, 4, CARD_W - 4, 36), fill=(20, 120, 40) if mark > 0 else (170, 30, 30),
                     outline=WHITE, width=2)
        draw.text((CARD_W - 20, 20), f"{mark:+d}", font=font("bold", 17), fill=WHITE, anchor="mm")
    return img


def render_fought(e: BattleFought) -> bytes:
    """The battle revealed: attacker's row on top, defender's below, each clash's points between them."""
    lib = library()
    top = [_marked(c.attacker_card, e.field, c.attacker_mark) for c in e.clashes]
    bottom = [_marked(c.defender_card, e.field, c.defender_mark) for c in e.clashes]
    middle = [f"{c.attacker_points} {'>' if c.winner == 'attacker' else '<' if c.winner == 'defender' else '='} "
              f"{c.defender_points}" for c in e.clashes]
    won = "attacker wins" if e.attacker_won else "defender holds"
    footer = f"⚔ {e.swords[0]}–{e.swords[1]} · troops {e.troops[0] // 1000}k–{e.troops[1] // 1000}k · " \
             f"{e.points[0]}–{e.points[1]}, {won}"
    return _board(f"{lib.name(e.region)} · {FIELD_NAMES[e.field]}", top, bottom,
                  "Attacker: " + unit_title(e.attacker, e.attacker_unit), "Defender: " + unit_title(e.defender,
                                                                                                 e.defender_unit),
                  middle, footer)


def fought_alt(e: BattleFought) -> str:
    lib = library()
    rows = "; ".join(f"{KIND_NAMES[lib.cards[c.attacker_card].kind]} {c.attacker_points} against "
                     f"{KIND_NAMES[lib.cards[c.defender_card].kind]} {c.defender_points}" for c in e.clashes)
    return (f"Battle of {lib.name(e.region)} on the {FIELD_NAMES[e.field]}: {rows}. Swords {e.swords[0]} to "
            f"{e.swords[1]}, troops {e.troops[0]:,} to {e.troops[1]:,}; {e.points[0]}–{e.points[1]}, the "
            f"{'attacker' if e.attacker_won else 'defender'} wins.")


def render_battle(b: BattleView) -> bytes:
    """The battle before the reveal: the battlefield, and each row face down once laid."""
    back, slot = _back(), _slot()
    top = [back if b.attacker.laid else slot] * 3
    bottom = [back if b.defender.laid else slot] * 3
    field = FIELD_NAMES.get(b.field, " or ".join(FIELD_NAMES[f] for f in b.fields))
    return _board(f"{library().name(b.region)} · {field}", top, bottom,
                  "Attacker: " + unit_title(b.attacker.realm, b.attacker.holder),
                  "Defender: " + unit_title(b.defender.realm, b.defender.holder), ["vs", "vs", "vs"],
                  "Cards face down until both rows are laid")


def battle_alt(b: BattleView) -> str:
    laid = [name for name, s in (("attacker", b.attacker), ("defender", b.defender)) if s.laid]
    return (f"Battle in {library().name(b.region)} on the {FIELD_NAMES.get(b.field, 'field to be chosen')}: "
            f"{' and '.join(laid) or 'nobody'} has laid cards face down.")
