"""Autokrator told in words: each event as a line for the thread (pure text, from the public view and the events;
no secret ever reaches it — the events carry none)."""

from __future__ import annotations

from collections.abc import Sequence

from rules.autokrator.content import FIELD_NAMES, KIND_NAMES, UNIT_NAMES, library
from rules.autokrator.engine import realm_name, unit_title
from rules.autokrator.state import (
    Assigned,
    BattleBegan,
    BattleFought,
    CampaignBegan,
    CardsDrawn,
    CardsLaid,
    Conquered,
    EpochBegan,
    EpochEnded,
    FieldChosen,
    FieldsChosen,
    GameEnded,
    Income,
    LifeLost,
    Moved,
    NoRaid,
    RaidLaunched,
    Rested,
    Retreated,
    Scored,
    Spied,
    TruceAnswered,
    TruceOffered,
    TurnBegan,
    UnitRemoved,
)
from rules.autokrator.view import AutokratorView

ROMAN = ("", "I", "II", "III", "IV", "V")
CAMPAIGNS = {"king": "two moves before he attacks", "general": "a second march and attack after a victory",
             "admiral": "a voyage to a port of either colour"}


def who(view: AutokratorView, realm: str) -> str:
    """"the Saracens (Ann)"."""
    if realm not in view.order:
        return realm_name(realm)
    seat = view.seats.index(realm) if realm in view.seats else -1
    player = f" ({view.names[seat]})" if 0 <= seat < len(view.names) else ""
    return f"the {realm_name(realm)}{player}"


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def place(region: str) -> str:
    return library().name(region)


def card_text(card: str) -> str:
    c = library().cards[card]
    return f"{KIND_NAMES[c.kind]} ({c.name})"


def epoch_text(number: int) -> str:
    e = library().epochs[number - 1]
    return f"📜 **Epoch {ROMAN[number]} ({e.years}): {e.title}**\n{e.report}\n*In force:* {e.condition}"


def battle_lines(e: BattleFought) -> list[str]:
    lib = library()
    a, d = unit_title(e.attacker, e.attacker_unit), unit_title(e.defender, e.defender_unit)
    lines = [f"⚔️ **Battle of {lib.name(e.region)}** on the {FIELD_NAMES[e.field]}: {a} against {d}."]
    for i, c in enumerate(e.clashes, 1):
        am = f" ({c.attacker_mark:+d})" if c.attacker_mark else ""
        dm = f" ({c.defender_mark:+d})" if c.defender_mark else ""
        res = {"attacker": "the attacker wins it", "defender": "the defender wins it", "": "level, no point"}
        lines.append(f"  Clash {i}: {KIND_NAMES[lib.cards[c.attacker_card].kind]}{am} {c.attacker_points} against "
                     f"{KIND_NAMES[lib.cards[c.defender_card].kind]}{dm} {c.defender_points} — {res[c.winner]}.")
    lines.append(f"  Swords {e.swords[0]} against {e.swords[1]}; troops {e.troops[0]:,} against {e.troops[1]:,}.")
    outcome = "the attacker wins" if e.attacker_won else "the defender holds"
    level = " (a level score goes to the attacker)" if e.points[0] == e.points[1] else ""
    lines.append(f"  **{e.points[0]}–{e.points[1]}: {outcome}{level}.**")
    return lines


def tell(view: AutokratorView, events: Sequence[object]) -> list[str]:
    lines: list[str] = []
    income: list[str] = []
    for e in events:
        if isinstance(e, EpochBegan):
            lines.append(epoch_text(e.epoch))
        elif isinstance(e, Income):
            income.append(f"{realm_name(e.realm)} {e.treasury}")
        elif isinstance(e, Assigned):
            lines.append(f"🂠 Battle cards dealt, face down: {who(view, e.realm)}.")
        elif isinstance(e, TurnBegan):
            lines.append(f"🕯️ The turn of {who(view, e.realm)}.")
        elif isinstance(e, Moved):
            verb = "sails" if e.unit == "admiral" else "marches"
            lines.append(f"{cap(unit_title(e.realm, e.unit))} {verb} from {place(e.frm)} to {place(e.to)}.")
        elif isinstance(e, Rested):
            lines.append(f"{cap(unit_title(e.realm, e.unit))} has done all he will this epoch.")
        elif isinstance(e, CampaignBegan):
            lines.append(f"💰 The {UNIT_NAMES[e.unit]}'s campaign, bought by {who(view, e.realm)} for {e.cost} gold: "
                         f"{CAMPAIGNS[e.unit]}.")
        elif isinstance(e, Spied):
            other, holder = e.target.split(".")
            lines.append(f"🕵️ Spies of {who(view, e.realm)} watch {unit_title(other, holder)} ({e.cost} gold).")
        elif isinstance(e, TruceOffered):
            lines.append(f"🕊️ A truce is offered by {who(view, e.realm)} to {who(view, e.to)}.")
        elif isinstance(e, TruceAnswered):
            word = "accepted — neither will attack the other until the end of the next epoch" if e.accepted \
                else "refused"
            lines.append(f"🕊️ The truce is {word} by {who(view, e.to)}.")
        elif isinstance(e, RaidLaunched):
            lines.append(f"🐎 A Neutral General rides out of {place(e.source)} and falls on {place(e.region)}, "
                         f"held by {who(view, e.realm)}!")
        elif isinstance(e, NoRaid):
            lines.append(f"The borders of {place(e.source)} stay quiet: no realm holds a region the raiders can "
                         "reach.")
        elif isinstance(e, BattleBegan):
            foe = unit_title(e.defender, e.defender_unit)
            lines.append(f"🛡️ {cap(unit_title(e.attacker, e.attacker_unit))} attacks {foe}"
                         f" in {place(e.region)} (modifiers {e.attacker_modifier:+d} and {e.defender_modifier:+d}).")
        elif isinstance(e, CardsDrawn):
            lines.append(f"Tabula draws {e.count} cards at random from the {e.stack.replace('-', ' ')} stack.")
        elif isinstance(e, FieldsChosen):
            names = " or the ".join(FIELD_NAMES[f] for f in e.fields)
            lines.append(f"The attacker offers battle on the {names}.")
        elif isinstance(e, FieldChosen):
            lines.append(f"The defender picks the {FIELD_NAMES[e.field]}.")
        elif isinstance(e, CardsLaid):
            lines.append(f"The {e.side} lays three cards face down.")
        elif isinstance(e, BattleFought):
            lines += battle_lines(e)
        elif isinstance(e, LifeLost):
            lines.append(f"💔 {cap(unit_title(e.realm, e.unit))} loses a life ({e.lives} left).")
        elif isinstance(e, UnitRemoved):
            lines.append(f"☠️ {cap(unit_title(e.realm, e.unit))} leaves the game.")
        elif isinstance(e, Retreated):
            lines.append(f"{cap(unit_title(e.realm, e.unit))} falls back from {place(e.frm)} to {place(e.to)}.")
        elif isinstance(e, Conquered):
            if not e.realm:
                lines.append(f"🏚️ The raiders leave {place(e.region)} without a master: it is neutral now.")
            else:
                piece = "a Garrison is set there" if e.piece else "its own coat of arms flies there again"
                lines.append(f"🏰 {place(e.region)} falls to {who(view, e.realm)}: {piece}.")
        elif isinstance(e, Scored):
            lines.append(f"⭐ {cap(realm_name(e.realm))} +{e.points} for {e.why} ({e.score} points).")
        elif isinstance(e, EpochEnded):
            lines.append(f"The {ROMAN[e.epoch]} epoch ends.")
        elif isinstance(e, GameEnded):
            lines.append(f"📯 The war is over: {e.reason}.")
    if income:
        lines.append("💰 +2 gold for every realm (never above 11). Treasuries: " + ", ".join(income) + ".")
    return lines


def standings(view: AutokratorView) -> list[str]:
    rows = []
    for r in view.realms:
        units = ", ".join(f"{UNIT_NAMES[u.unit]} in {place(u.region)} ({u.lives}♥, {u.modifier:+d})"
                          for u in r.units) or "no units left"
        rows.append(f"**{cap(who(view, r.key))}** — {r.score} points, {r.treasury} gold, {r.regions} regions, "
                    f"{r.supply} Garrisons in hand · {units}")
    return rows
