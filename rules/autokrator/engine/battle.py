"""The battle as printed: two battlefields offered, one chosen, three clashes card against card with the modifier
markers, then a point for more swords and a point for more troops; a level score goes to the attacker."""

from __future__ import annotations

from functools import cache
from itertools import combinations, permutations

from rules.autokrator.content import FIELDS, library
from rules.autokrator.state import Clash, Side

MAX_POINTS = 6  # a positive marker may lift a 5 to 6


def field_total(cards: list[str], field: str) -> int:
    lib = library()
    return sum(lib.cards[c].points(field) for c in cards)


def best_fields(cards: list[str], n: int, among: list[str] | None = None) -> list[str]:
    """The ``n`` battlefields where these cards score most (ties in the book's order of battlefields)."""
    pool = list(among or FIELDS)
    ranked = sorted(pool, key=lambda f: (-field_total(cards, f), FIELDS.index(f)))
    return sorted(ranked[:n], key=FIELDS.index)


def lineups(side: Side) -> list[tuple[tuple[str, str, str], tuple[int, ...]]]:
    """Every way to lay the three cards in a row with the side's markers on distinct cards."""
    marks = min(abs(side.modifier), 3)
    out = []
    for order in permutations(side.cards):
        for placed in combinations(range(3), marks):
            out.append(((order[0], order[1], order[2]), placed))
    return out


def card_points(card: str, field: str, marked: bool, sign: int) -> tuple[int, int]:
    base = library().cards[card].points(field)
    mark = sign if marked else 0
    return max(0, min(MAX_POINTS, base + mark)), mark


def fight(field: str, attacker: Side, defender: Side) -> tuple[list[Clash], tuple[int, int], tuple[int, int],
                                                               tuple[int, int], bool]:
    """Clashes, swords, troops and points (attacker, defender), and whether the attacker won."""
    lib = library()
    a_sign = 1 if attacker.modifier > 0 else -1
    d_sign = 1 if defender.modifier > 0 else -1
    clashes = []
    a_pts = d_pts = 0
    for i in range(3):
        ac, dc = attacker.lineup[i], defender.lineup[i]
        av, am = card_points(ac, field, i in attacker.marks, a_sign)
        dv, dm = card_points(dc, field, i in defender.marks, d_sign)
        winner = "attacker" if av > dv else "defender" if dv > av else ""
        a_pts += winner == "attacker"
        d_pts += winner == "defender"
        clashes.append(Clash(attacker_card=ac, defender_card=dc, attacker_points=av, defender_points=dv,
                             attacker_mark=am, defender_mark=dm, winner=winner))
    swords = (sum(lib.cards[c].swords for c in attacker.lineup), sum(lib.cards[c].swords for c in defender.lineup))
    troops = (sum(lib.cards[c].troops for c in attacker.lineup), sum(lib.cards[c].troops for c in defender.lineup))
    a_pts += swords[0] > swords[1]
    d_pts += swords[1] > swords[0]
    a_pts += troops[0] > troops[1]
    d_pts += troops[1] > troops[0]
    return clashes, swords, troops, (a_pts, d_pts), a_pts >= d_pts


@cache
def _completable(fixed: tuple[str, ...], free: tuple[str, ...]) -> bool:
    if not fixed:
        return True
    first, rest = fixed[0], fixed[1:]
    for i, j in combinations(range(len(free)), 2):
        a, b = free[i], free[j]
        if len({first, a, b}) == 3:
            left = tuple(k for n, k in enumerate(free) if n not in (i, j))
            if _completable(rest, left):
                return True
    return False


@cache
def dealable(kind: str, free: tuple[str, ...], rest: tuple[str, ...]) -> tuple[tuple[int, int], ...]:
    """Which pairs of the free cards (by position; ``free`` gives their army types) a holder whose fixed card is
    of army ``kind`` may take, so that the holders still to come (``rest``: their fixed cards' types) can be
    dealt too."""
    out = []
    for i, j in combinations(range(len(free)), 2):
        if len({kind, free[i], free[j]}) == 3:
            left = tuple(sorted(k for n, k in enumerate(free) if n not in (i, j)))
            if _completable(rest, left):
                out.append((i, j))
    return tuple(out)
