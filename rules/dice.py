"""Dice expressions for `/roll`: ``d20``, ``2d6+3``, ``3d6-1d4+2``, rolled with a game's own generator.

Rolling with the game's ``Rng`` keeps every roll in the game's log and makes a replay roll the same dice.
"""

from __future__ import annotations

import re

from rules.core import IllegalAction, Rng
from rules.i18n import N_, _, _p

MAX_DICE = 50  # dice in one expression
MAX_SIDES = 1000
MAX_TERMS = 10
_TERM = re.compile(r"([+-])?\s*(?:(\d{0,6})\s*[dD]\s*(\d{1,6})|(\d{1,6}))\s*")
HELP = N_("Write dice like `d20`, `2d6+3` or `3d6-1d4` (at most 50 dice, up to 1000 sides).")


def _helped(refusal: str) -> str:
    """A refusal followed by how dice are written, joined the way the language joins two sentences."""
    # TRANSLATORS: two sentences in a row (Japanese: no space after 。)
    return _p("sentences", "{first} {second}", first=refusal, second=_(HELP))


def parse(expr: str) -> list[tuple[int, int, int]]:
    """``[(sign, count, sides)]``; a constant is ``(sign, value, 0)``.  Refuses anything else politely."""
    text = expr.strip()
    if not text:
        raise IllegalAction(_helped(_("Tell me what to roll.")))
    terms: list[tuple[int, int, int]] = []
    pos = 0
    while pos < len(text):
        m = _TERM.match(text, pos)
        if m is None or m.end() == pos or (terms and m.group(1) is None):
            raise IllegalAction(_helped(_("I can't read **{text}** as dice.", text=text[:40])))
        sign = -1 if m.group(1) == "-" else 1
        if m.group(3) is not None:
            count = int(m.group(2) or 1)
            sides = int(m.group(3))
            if count < 1 or not 2 <= sides <= MAX_SIDES:
                raise IllegalAction(_helped(_("Dice need 2 to {most} sides and at least one die.", most=MAX_SIDES)))
            terms.append((sign, count, sides))
        else:
            value = int(m.group(4))
            if value > 10_000:
                raise IllegalAction(_("Keep added numbers under 10,000."))
            terms.append((sign, value, 0))
        pos = m.end()
    if len(terms) > MAX_TERMS:
        raise IllegalAction(_("That is too many parts for one roll (at most {most}).", most=MAX_TERMS))
    if sum(count for _s, count, sides in terms if sides) > MAX_DICE:
        raise IllegalAction(_helped(_("That is too many dice for one roll.")))
    if not any(sides for _s, _c, sides in terms):
        raise IllegalAction(_helped(_("There are no dice in **{text}**.", text=text[:40])))
    return terms


def normalise(terms: list[tuple[int, int, int]]) -> str:
    out = ""
    for sign, count, sides in terms:
        part = (f"{count if count > 1 else ''}d{sides}") if sides else str(count)
        out += ("-" if sign < 0 else ("+" if out else "")) + part
    return out


def roll(terms: list[tuple[int, int, int]], rng: Rng) -> tuple[list[list[int]], int]:
    """Each term's dice (``[]`` for a constant) and the total."""
    dice: list[list[int]] = []
    total = 0
    for sign, count, sides in terms:
        if sides:
            rolled = [rng.die(sides) for _ in range(count)]
            dice.append(rolled)
            total += sign * sum(rolled)
        else:
            dice.append([])
            total += sign * count
    return dice, total
