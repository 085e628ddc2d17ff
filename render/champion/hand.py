"""Champion of the Empire: combat cards as pictures — a hand (one card per kind, with how many are held) for the
private view, and the cards played in a step, each captioned with who played it and how, for the thread.

Cards come from ``cards.render_combat_card`` (cached), scaled to a size that still reads at chat width."""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Sequence

from PIL import Image

from render.cache import recent
from render.champion.basemap import BAR, BAR_TEXT, BLACK, INK, PANEL, PANEL_RIM, WHITE
from render.champion.cards import COMBAT_H, COMBAT_W, render_combat_card
from render.common import canvas, draw_lines, fit_label, fit_text, font, png_bytes
from rules.champion.content import CARD_TYPES
from rules.champion.i18n import N_, _, _n, comma, language, semicolon

CARD_W = 240
CARD_H = round(COMBAT_H * CARD_W / COMBAT_W)
GAP = 16
HEAD_H = 56
NAMES = {"torso": N_("Torso"), "head": N_("Head"), "hand": N_("Hand"), "leg": N_("Leg"), "inspired": N_("Inspired")}


def _name(kind: str) -> str:
    return _(NAMES[kind]) if kind in NAMES else kind


def parse_card(card: str) -> tuple[str, bool]:
    """``torso-3`` → ("torso", False); ``armed-leg-2`` → ("leg", True); a bare type → (type, False)."""
    parts = card.split("-")
    if parts[0] == "armed" and len(parts) >= 2:
        return parts[1], True
    return (parts[-2] if len(parts) >= 2 else parts[0]), False


def _card(kind: str, armed: bool) -> Image.Image:
    return _card_in(kind, armed, language())


@recent(keep=16)  # scaled cards, 0.26 MB decoded and a tenth of that kept
def _card_in(kind: str, armed: bool, lang: str) -> Image.Image:
    png = render_combat_card(kind, armed, kind == "inspired")
    return Image.open(io.BytesIO(png)).convert("RGBA").resize((CARD_W, CARD_H), Image.Resampling.LANCZOS)


def _badge(img: Image.Image, xy: tuple[int, int], text: str) -> None:
    draw = canvas(img)
    x, y = xy
    face = font("bold", 40)
    draw.ellipse((x - 36, y - 36, x + 36, y + 36), fill=BLACK)
    draw.ellipse((x - 32, y - 32, x + 32, y + 32), fill=WHITE)
    draw.text((x, y + 2), text, font=face, fill=INK, anchor="mm")


def _sheet(width: int, height: int, title: str) -> Image.Image:
    img = Image.new("RGB", (width, height), PANEL)
    draw = canvas(img)
    draw.rectangle((0, 0, width - 1, height - 1), outline=PANEL_RIM, width=4)
    draw.rectangle((0, 0, width - 1, HEAD_H), fill=BAR)
    face, title = fit_label(title, "bold", 30, width - 36, smallest=16)
    draw.text((18, HEAD_H // 2), title, font=face, fill=BAR_TEXT, anchor="lm")
    return img


def hand_groups(cards: Sequence[str]) -> list[tuple[str, bool, int]]:
    """A hand as (type, armed, how many), in the glossary order, armed cards beside their plain kind."""
    counts = Counter(parse_card(c) for c in cards)
    order = {t: i for i, t in enumerate(CARD_TYPES)}
    return [(k, a, n) for (k, a), n in sorted(counts.items(), key=lambda kv: (order.get(kv[0][0], 9), kv[0][1]))]


def render_hand(cards: Sequence[str], *, title: str | None = None) -> bytes:
    """PNG of a hand of combat cards: one card per kind (armed ones in steel), with ×N when several are held."""
    groups = hand_groups(cards)
    n = max(1, len(groups))
    head = _n("{title} — {n} card", "{title} — {n} cards", len(cards), title=title or _("Your hand"))
    img = _sheet(GAP + n * (CARD_W + GAP), HEAD_H + CARD_H + 2 * GAP, head)
    for i, (kind, armed, count) in enumerate(groups):
        x = GAP + i * (CARD_W + GAP)
        card = _card(kind, armed)
        img.paste(card, (x, HEAD_H + GAP), card)
        if count > 1:
            _badge(img, (x + CARD_W - 40, HEAD_H + GAP + CARD_H - 44), f"×{count}")
    if not groups:
        face, none = fit_label(_("no cards"), "bold", 34, img.width - 2 * GAP, smallest=9)
        canvas(img).text((img.width // 2, HEAD_H + GAP + CARD_H // 2), none, font=face, fill=INK, anchor="mm")
    return png_bytes(img.quantize(colors=255, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE))


def hand_alt_text(cards: Sequence[str], *, title: str | None = None) -> str:
    parts = [_("{n} {card} (armed)", n=n, card=_name(k)) if a else _("{n} {card}", n=n, card=_name(k))
             for k, a, n in hand_groups(cards)]
    return _("{title}: {cards}.", title=title or _("Your hand"), cards=comma(parts) if parts else _("no cards"))


def render_played(plays: Sequence[tuple[str, str]], *, title: str | None = None) -> bytes:
    """PNG of the cards a step turned over, each ``(type, caption)``: "Labienus attacks", "Bodyguard defends"."""
    n = max(1, len(plays))
    cap_h = 84
    img = _sheet(GAP + n * (CARD_W + GAP), HEAD_H + CARD_H + cap_h + 2 * GAP, title or _("Cards played"))
    draw = canvas(img)
    for i, (kind, caption) in enumerate(plays):
        x = GAP + i * (CARD_W + GAP)
        card = _card(kind, False)
        img.paste(card, (x, HEAD_H + GAP), card)
        face, lines = fit_text(caption, "bold", CARD_W, cap_h - 6, largest=28, smallest=20, spacing=1.05)
        draw_lines(draw, lines, (x, HEAD_H + GAP + CARD_H + 4, x + CARD_W, HEAD_H + GAP + CARD_H + cap_h), face,
                   INK, align="center", spacing=1.05)
    return png_bytes(img.quantize(colors=255, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE))


def played_alt_text(plays: Sequence[tuple[str, str]]) -> str:
    return _("Cards played: {cards}.", cards=semicolon(_("{head}: {text}", head=caption, text=_name(k))
                                                           for k, caption in plays))
