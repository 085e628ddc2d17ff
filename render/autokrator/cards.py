"""Autokrator's battle cards as pictures: one card (army type, troops, swords and its five battlefield values),
a realm's whole hand with the unit each card is dealt to, and a battle — the chosen battlefield and the two rows
of three cards, face down while laid and face up, clash by clash, once revealed."""

from __future__ import annotations

from PIL import Image

from render.cache import recent
from render.common import RGB, canvas, font, label, mix, note, png_bytes, text_length, wrap
from rules.autokrator.content import FIELDS, library
from rules.autokrator.i18n import (
    N_,
    _,
    card_name,
    comma,
    field_word,
    kind_word,
    number,
    place,
    realm_name,
    semicolon,
    unit_title,
    unit_word,
)
from rules.autokrator.state import BattleFought
from rules.autokrator.view import AutokratorView, BattleView
from rules.i18n import language

CARD_W, CARD_H = 190, 284
GAP = 14
INK: RGB = (30, 22, 14)
PAPER: RGB = (250, 244, 228)
WHITE: RGB = (255, 255, 255)
BACK: RGB = (92, 40, 30)
TABLE: RGB = (46, 64, 52)
GOLD: RGB = (240, 200, 60)
NEUTRAL_INK: RGB = (110, 100, 90)
FIXED = {"king": N_("♛ King's crown"), "general": N_("♞ General's knight"), "admiral": N_("⚓ Admiral's ship"),
         "garrison": N_("♜ Garrison's tower")}


def _colour(owner: str) -> RGB:
    info = library().realms.get(owner)
    return tuple(info.colour) if info else NEUTRAL_INK  # type: ignore[return-value]


def _card(card_id: str, field: str = "") -> Image.Image:
    return _drawn_card(card_id, field, language())


@recent(keep=8)  # the cards of the battle being drawn: 160 KB each decoded, kept compressed
def _drawn_card(card_id: str, field: str, lang: str) -> Image.Image:
    c = library().cards[card_id]
    img = Image.new("RGB", (CARD_W, CARD_H), PAPER)
    draw = canvas(img)
    col = _colour(c.owner)
    draw.rectangle((0, 0, CARD_W - 1, CARD_H - 1), outline=col, width=4)
    draw.rectangle((0, 0, CARD_W, 40), fill=col)
    kind = kind_word(c.kind)
    long = len(kind) > 9  # a long word leaves the corner free for a modifier marker
    # a long word is centred left of the marker's corner (x from CARD_W - 36) and keeps 4 px clear of it
    label(draw, (CARD_W // 2 - (14 if long else 0), 21), kind, "bold", 20 if long else 24,
          2 * (CARD_W - 40 - (CARD_W // 2 - 14)) if long else CARD_W - 16, fill=WHITE, anchor="mm")
    y = 46
    name = card_name(card_id)
    for size in range(16, 11, -1):  # the name in two lines at most
        face = font("cond", size)
        lines = wrap(name, face, CARD_W - 16)
        if len(lines) <= 2:
            break
    for line in lines[:2]:
        note(line, line, CARD_W - 16, text_length(line, face), size)
        draw.text((CARD_W // 2, y), line, font=face, fill=INK, anchor="ma")
        y += 19
    if len(lines) > 2:
        note(name, " ".join(lines[:2]), CARD_W - 16, text_length(name, face), size)
    y = 88
    draw.text((12, y), number(c.troops), font=font("bold", 22), fill=INK)
    draw.text((CARD_W - 12, y), f"⚔ {c.swords}", font=font("bold", 22), fill=INK, anchor="ra")
    y = 120
    for f, value in zip(FIELDS, c.values, strict=True):
        chosen = f == field
        if chosen:
            draw.rectangle((6, y - 2, CARD_W - 6, y + 24), fill=GOLD)
        label(draw, (14, y), field_word(f), "bold" if chosen else "sans", 20, CARD_W - 60, fill=INK)
        draw.text((CARD_W - 14, y), str(value), font=font("bold", 22), fill=INK, anchor="ra")
        y += 26
    if c.fixed:
        label(draw, (CARD_W // 2, CARD_H - 10), _(FIXED[c.fixed]), "sans", 14, CARD_W - 12, fill=col, anchor="ms")
    return img


def _back() -> Image.Image:
    img = Image.new("RGB", (CARD_W, CARD_H), BACK)
    draw = canvas(img)
    draw.rectangle((8, 8, CARD_W - 9, CARD_H - 9), outline=GOLD, width=3)
    label(draw, (CARD_W // 2, CARD_H // 2), _("Autokrator"), "serif", 22, CARD_W - 30, fill=GOLD, anchor="mm")
    return img


def _slot() -> Image.Image:
    img = Image.new("RGB", (CARD_W, CARD_H), mix(TABLE, WHITE, 0.15))
    draw = canvas(img)
    draw.rectangle((4, 4, CARD_W - 5, CARD_H - 5), outline=mix(TABLE, WHITE, 0.4), width=2)
    label(draw, (CARD_W // 2, CARD_H // 2), _("not laid yet"), "sans", 18, CARD_W - 16, fill=WHITE, anchor="mm")
    return img


def _encode(img: Image.Image) -> bytes:
    """128 colours chosen for the picture (fast octree: 4 ms for a battle, where median cut took 29 ms for files
    of about the same size and no difference to see; no pixel off by more than 14 of 255)."""
    return png_bytes(img.quantize(colors=128, method=Image.Quantize.FASTOCTREE), compress_level=1)


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
    label(draw, (GAP, 25), _("Your battle cards — {realm}", realm=realm_name(realm)), "bold", 26, w - 2 * GAP,
          fill=WHITE, anchor="lm")
    for i, c in enumerate(deck):
        x = GAP + (i % cols) * (CARD_W + GAP)
        y = 50 + (i // cols) * (CARD_H + cap_h + GAP)
        img.paste(_card(c), (x, y))
        holder = dealt.get(c, "")
        caption = unit_word(holder) if holder else _("free")
        label(draw, (x + CARD_W // 2, y + CARD_H + 4), caption, "bold", 20, CARD_W, fill=GOLD if holder else WHITE,
              anchor="ma")
    return _encode(img)


def hand_alt(view: AutokratorView, realm: str) -> str:
    lib = library()
    mine = view.realm(realm)
    dealt = mine.cards if mine.assigned else view.pending
    parts = [_("{unit}: {cards}", unit=unit_word(h), cards=comma(
        _("{kind} ({card})", kind=kind_word(lib.cards[c].kind), card=card_name(c)) for c in cards))
        for h, cards in dealt.items()]
    text = _("Your twelve battle cards. {dealt}", dealt=semicolon(parts)) if parts \
        else _("Your twelve battle cards. None dealt yet.")
    return text[:1000]


def _board(title: str, top: list[Image.Image], bottom: list[Image.Image], top_label: str, bottom_label: str,
           middle: list[str], footer: str) -> bytes:
    label_h, mid_h, foot_h = 40, 44, 56
    w = GAP + 3 * (CARD_W + GAP)
    h = 56 + label_h + CARD_H + mid_h + CARD_H + label_h + foot_h
    img = Image.new("RGB", (w, h), TABLE)
    draw = canvas(img)
    draw.rectangle((0, 0, w, 50), fill=(24, 34, 28))
    label(draw, (w // 2, 26), title, "bold", 26, w - 2 * GAP, fill=GOLD, anchor="mm")
    y = 56
    label(draw, (GAP, y + label_h // 2), top_label, "bold", 22, w - 2 * GAP, fill=WHITE, anchor="lm")
    y += label_h
    for i, card in enumerate(top):
        img.paste(card, (GAP + i * (CARD_W + GAP), y))
    y += CARD_H
    for i, text in enumerate(middle):
        label(draw, (GAP + i * (CARD_W + GAP) + CARD_W // 2, y + mid_h // 2), text, "bold", 24, CARD_W,
              fill=WHITE, anchor="mm")
    y += mid_h
    for i, card in enumerate(bottom):
        img.paste(card, (GAP + i * (CARD_W + GAP), y))
    y += CARD_H
    label(draw, (GAP, y + label_h // 2), bottom_label, "bold", 22, w - 2 * GAP, fill=WHITE, anchor="lm")
    y += label_h
    label(draw, (w // 2, y + foot_h // 2), footer, "bold", 24, w - 2 * GAP, fill=GOLD, anchor="mm")
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
    top = [_marked(c.attacker_card, e.field, c.attacker_mark) for c in e.clashes]
    bottom = [_marked(c.defender_card, e.field, c.defender_mark) for c in e.clashes]
    middle = [f"{c.attacker_points} {'>' if c.winner == 'attacker' else '<' if c.winner == 'defender' else '='} "
              f"{c.defender_points}" for c in e.clashes]
    text = N_("⚔ {a_swords}–{d_swords} · troops {a_troops}k–{d_troops}k · {a}–{d}, attacker wins") if e.attacker_won \
        else N_("⚔ {a_swords}–{d_swords} · troops {a_troops}k–{d_troops}k · {a}–{d}, defender holds")
    footer = _(text, a_swords=e.swords[0], d_swords=e.swords[1], a_troops=e.troops[0] // 1000,
               d_troops=e.troops[1] // 1000, a=e.points[0], d=e.points[1])
    return _board(_("{region} · {field}", region=place(e.region), field=field_word(e.field)), top, bottom,
                  _("Attacker: {unit}", unit=unit_title(e.attacker, e.attacker_unit)),
                  _("Defender: {unit}", unit=unit_title(e.defender, e.defender_unit)), middle, footer)


def fought_alt(e: BattleFought) -> str:
    lib = library()
    rows = semicolon([_("{attacker} {attacker_points} against {defender} {defender_points}",
                       attacker=kind_word(lib.cards[c.attacker_card].kind), attacker_points=c.attacker_points,
                       defender=kind_word(lib.cards[c.defender_card].kind), defender_points=c.defender_points)
                     for c in e.clashes])
    text = N_("Battle of {region} on the {field}: {rows}. Swords {a_swords} to {d_swords}, troops {a_troops} to "
              "{d_troops}; {a}–{d}, the attacker wins.") if e.attacker_won else \
        N_("Battle of {region} on the {field}: {rows}. Swords {a_swords} to {d_swords}, troops {a_troops} to "
           "{d_troops}; {a}–{d}, the defender wins.")
    return _(text, region=place(e.region, "in"), field=field_word(e.field, "in"), rows=rows, a_swords=e.swords[0],
             d_swords=e.swords[1], a_troops=number(e.troops[0]), d_troops=number(e.troops[1]), a=e.points[0],
             d=e.points[1])


def render_battle(b: BattleView) -> bytes:
    """The battle before the reveal: the battlefield, and each row face down once laid."""
    back, slot = _back(), _slot()
    top = [back if b.attacker.laid else slot] * 3
    bottom = [back if b.defender.laid else slot] * 3
    field = field_word(b.field) if b.field else _("{first} or {second}", first=field_word(b.fields[0]),
                                                  second=field_word(b.fields[1])) if len(b.fields) == 2 else ""
    vs = _("vs")
    return _board(_("{region} · {field}", region=place(b.region), field=field), top, bottom,
                  _("Attacker: {unit}", unit=unit_title(b.attacker.realm, b.attacker.holder)),
                  _("Defender: {unit}", unit=unit_title(b.defender.realm, b.defender.holder)), [vs, vs, vs],
                  _("Cards face down until both rows are laid"))


def battle_alt(b: BattleView) -> str:
    sides = (b.attacker.laid, b.defender.laid)
    text = {(True, True): N_("Battle in {region} on the {field}: attacker and defender have laid cards face down."),
            (True, False): N_("Battle in {region} on the {field}: attacker has laid cards face down."),
            (False, True): N_("Battle in {region} on the {field}: defender has laid cards face down."),
            (False, False): N_("Battle in {region} on the {field}: nobody has laid cards face down.")}[sides]
    field = field_word(b.field, "in") if b.field else _("field to be chosen")
    return _(text, region=place(b.region, "in"), field=field)
