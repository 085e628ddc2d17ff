"""Autokrator told in words: each event as a line for the thread (pure text, from the public view and the events;
no secret ever reaches it — the events carry none)."""

from __future__ import annotations

from collections.abc import Sequence

from rules.autokrator.content import library
from rules.autokrator.i18n import (
    N_,
    _,
    _n,
    card_name,
    epoch_text,
    epochs,
    field_word,
    joined,
    kind_word,
    number,
    realm_name,
    reason_text,
    the_realm,
    unit_title,
    unit_word,
    why_text,
)
from rules.autokrator.i18n import place as _place
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

CAMPAIGNS = {"king": N_("💰 The King's campaign, bought by {realm} for {cost} gold: two moves before he attacks."),
             "general": N_("💰 The General's campaign, bought by {realm} for {cost} gold: a second march and attack "
                           "after a victory."),
             "admiral": N_("💰 The Admiral's campaign, bought by {realm} for {cost} gold: a voyage to a port of either "
                           "colour.")}
CLASH_RESULTS = {"attacker": N_("the attacker wins it"), "defender": N_("the defender wins it"),
                 "": N_("level, no point")}
STACKS = {"neutral": N_("Tabula draws {count} cards at random from the neutral stack."),
          "neutral-region": N_("Tabula draws {count} cards at random from the neutral region stack."),
          "neutral-general": N_("Tabula draws {count} cards at random from the neutral general stack.")}


def who(view: AutokratorView, realm: str, case: str = "nom") -> str:
    """"the Saracens (Ann)", in the case the sentence needs."""
    if realm not in view.order:
        return realm_name(realm)
    seat = view.seats.index(realm) if realm in view.seats else -1
    if 0 <= seat < len(view.names):
        return _("{realm} ({player})", realm=the_realm(realm, case), player=view.names[seat])
    return the_realm(realm, case)


def signed(value: int) -> str:
    return f"{value:+d}"


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def place(region: str, case: str = "") -> str:
    return _place(region, case)


def card_text(card: str) -> str:
    c = library().cards[card]
    return _("{kind} ({card})", kind=kind_word(c.kind), card=card_name(card))


def battle_lines(e: BattleFought) -> list[str]:
    lib = library()
    lines = [_("⚔️ **Battle of {region}** on the {field}: {attacker} against {defender}.",
               region=place(e.region, "in"), field=field_word(e.field, "in"),
               attacker=unit_title(e.attacker, e.attacker_unit),
               defender=unit_title(e.defender, e.defender_unit, "gen"))]
    for i, c in enumerate(e.clashes, 1):
        am = f" ({c.attacker_mark:+d})" if c.attacker_mark else ""
        dm = f" ({c.defender_mark:+d})" if c.defender_mark else ""
        lines.append(_("  Clash {n}: {attacker}{attacker_mark} {attacker_points} against {defender}{defender_mark} "
                       "{defender_points} — {result}.", n=i, attacker=kind_word(lib.cards[c.attacker_card].kind),
                       attacker_mark=am, attacker_points=c.attacker_points,
                       defender=kind_word(lib.cards[c.defender_card].kind), defender_mark=dm,
                       defender_points=c.defender_points, result=_(CLASH_RESULTS[c.winner])))
    lines.append(_("  Swords {a_swords} against {d_swords}; troops {a_troops} against {d_troops}.",
                   a_swords=e.swords[0], d_swords=e.swords[1], a_troops=number(e.troops[0]),
                   d_troops=number(e.troops[1])))
    level = e.points[0] == e.points[1]
    if e.attacker_won:
        result = N_("  **{a}–{d}: the attacker wins (a level score goes to the attacker).**") if level \
            else N_("  **{a}–{d}: the attacker wins.**")
    else:
        result = N_("  **{a}–{d}: the defender holds.**")
    lines.append(_(result, a=e.points[0], d=e.points[1]))
    return lines


def tell(view: AutokratorView, events: Sequence[object]) -> list[str]:
    lines: list[str] = []
    income: list[str] = []
    for e in events:
        if isinstance(e, EpochBegan):
            lines.append(epoch_text(e.epoch))
        elif isinstance(e, Income):
            income.append(_("{realm} {gold}", realm=realm_name(e.realm), gold=e.treasury))
        elif isinstance(e, Assigned):
            lines.append(_("🂠 Battle cards dealt, face down: {realm}.", realm=who(view, e.realm)))
        elif isinstance(e, TurnBegan):
            lines.append(_("🕯️ The turn of {realm}.", realm=who(view, e.realm, "gen")))
        elif isinstance(e, Moved):
            text = N_("{unit} sails from {frm} to {to}.") if e.unit == "admiral" \
                else N_("{unit} marches from {frm} to {to}.")
            lines.append(cap(_(text, unit=unit_title(e.realm, e.unit), frm=place(e.frm, "acc"),
                               to=place(e.to, "in"))))
        elif isinstance(e, Rested):
            lines.append(cap(_("{unit} has done all he will this epoch.", unit=unit_title(e.realm, e.unit))))
        elif isinstance(e, CampaignBegan):
            lines.append(_(CAMPAIGNS[e.unit], realm=who(view, e.realm, "acc"), cost=e.cost))
        elif isinstance(e, Spied):
            other, holder = e.target.split(".")
            lines.append(_n("🕵️ Spies of {realm} watch {unit} ({cost} gold).",
                            "🕵️ Spies of {realm} watch {unit} ({cost} gold).", e.cost,
                            realm=who(view, e.realm, "gen"), unit=unit_title(other, holder, "acc"), cost=e.cost))
        elif isinstance(e, TruceOffered):
            lines.append(_("🕊️ A truce is offered by {realm} to {to}.", realm=who(view, e.realm, "acc"),
                           to=who(view, e.to, "acc")))
        elif isinstance(e, TruceAnswered):
            text = N_("🕊️ The truce is accepted — neither will attack the other until the end of the next epoch "
                      "by {realm}.") if e.accepted else N_("🕊️ The truce is refused by {realm}.")
            lines.append(_(text, realm=who(view, e.to, "acc")))
        elif isinstance(e, RaidLaunched):
            lines.append(_("🐎 A Neutral General rides out of {source} and falls on {region}, held by {realm}!",
                           source=place(e.source, "acc"), region=place(e.region, "in"),
                           realm=who(view, e.realm, "gen")))
        elif isinstance(e, NoRaid):
            lines.append(_("The borders of {source} stay quiet: no realm holds a region the raiders can reach.",
                           source=place(e.source, "gen")))
        elif isinstance(e, BattleBegan):
            a_mod, d_mod = f"{e.attacker_modifier:+d}", f"{e.defender_modifier:+d}"
            lines.append(_("🛡️ {attacker} attacks {defender} in {region} (modifiers {a_mod} and {d_mod}).",
                           attacker=cap(unit_title(e.attacker, e.attacker_unit)),
                           defender=unit_title(e.defender, e.defender_unit, "gen"),
                           region=place(e.region, "in"), a_mod=a_mod, d_mod=d_mod))
        elif isinstance(e, CardsDrawn):
            lines.append(_(STACKS.get(e.stack, STACKS["neutral"]), count=e.count))
        elif isinstance(e, FieldsChosen):
            lines.append(_("The attacker offers battle on the {first} or the {second}.",
                           first=field_word(e.fields[0], "in"), second=field_word(e.fields[1], "in")))
        elif isinstance(e, FieldChosen):
            lines.append(_("The defender picks the {field}.", field=field_word(e.field, "acc")))
        elif isinstance(e, CardsLaid):
            lines.append(_("The attacker lays three cards face down.") if e.side == "attacker"
                         else _("The defender lays three cards face down."))
        elif isinstance(e, BattleFought):
            lines += battle_lines(e)
        elif isinstance(e, LifeLost):
            lines.append(_n("💔 {unit} loses a life ({lives} left).", "💔 {unit} loses a life ({lives} left).",
                            e.lives, unit=cap(unit_title(e.realm, e.unit)), lives=e.lives))
        elif isinstance(e, UnitRemoved):
            lines.append(_("☠️ {unit} leaves the game.", unit=cap(unit_title(e.realm, e.unit))))
        elif isinstance(e, Retreated):
            lines.append(cap(_("{unit} falls back from {frm} to {to}.", unit=unit_title(e.realm, e.unit),
                               frm=place(e.frm, "acc"), to=place(e.to, "in"))))
        elif isinstance(e, Conquered):
            if not e.realm:
                lines.append(_("🏚️ The raiders leave {region} without a master: it is neutral now.",
                               region=place(e.region, "acc")))
            else:
                text = N_("🏰 {region} falls to {realm}: a Garrison is set there.") if e.piece \
                    else N_("🏰 {region} falls to {realm}: its own coat of arms flies there again.")
                lines.append(_(text, region=place(e.region, "gen"), realm=who(view, e.realm)))
        elif isinstance(e, Scored):
            lines.append(_n("⭐ {realm} +{points} for {why} ({score} points).",
                            "⭐ {realm} +{points} for {why} ({score} points).", e.score,
                            realm=cap(realm_name(e.realm)), points=e.points, why=why_text(e.why), score=e.score))
        elif isinstance(e, EpochEnded):
            lines.append(_("The {roman} epoch ends.", **epochs(e.epoch)))
        elif isinstance(e, GameEnded):
            lines.append(_("📯 The war is over: {reason}.", reason=reason_text(e.reason)))
    if income:
        lines.append(_("💰 +2 gold for every realm (never above 11). Treasuries: {treasuries}.",
                       treasuries=joined(income)))
    return lines


def standings(view: AutokratorView) -> list[str]:
    rows = []
    for r in view.realms:
        units = joined(_("{unit} in {region} ({lives}♥, {modifier})", unit=unit_word(u.unit),
                            region=place(u.region, "in"), lives=u.lives, modifier=signed(u.modifier))
                          for u in r.units) or _("no units left")
        rows.append(_("**{realm}** — {points} points, {gold} gold, {regions} regions, {garrisons} Garrisons in "
                      "hand · {units}", realm=cap(who(view, r.key)), points=r.score, gold=r.treasury,
                      regions=r.regions, garrisons=r.supply, units=units))
    return rows
