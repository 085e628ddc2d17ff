"""Autokrator told in words: each event as a line for the thread (pure text, from the public view and the events;
no secret ever reaches it — the events carry none)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rules.autokrator.board import level_after_compensation
from rules.autokrator.content import library
from rules.autokrator.i18n import (
    N_,
    OVER_FIFTH,
    _,
    _n,
    card_name,
    comma,
    epoch_text,
    epochs,
    field_word,
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
    BidsOpened,
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
    RealmChosen,
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
from rules.telling import Teller, by_event, tell_each

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


@dataclass(slots=True)
class Scene:
    """One telling: the public view after the step, the lines told so far, and each realm's income (told in one
    line at the end)."""

    view: AutokratorView
    lines: list[str] = field(default_factory=list)
    income: list[str] = field(default_factory=list)

    def add(self, line: str) -> None:
        self.lines.append(line)


def tell(view: AutokratorView, events: Sequence[object]) -> list[str]:
    """The lines everyone may read about ``events`` (``view``: the public view after them)."""
    scene = Scene(view)
    tell_each(TELLERS, scene, events)
    if scene.income:
        scene.add(_("💰 +2 gold for every realm (never above 11). Treasuries: {treasuries}.",
                    treasuries=comma(scene.income)))
    return scene.lines


# --- one function per event -------------------------------------------------------------------------


def epoch_began(scene: Scene, e: EpochBegan) -> None:
    scene.add(epoch_text(e.epoch))


def income(scene: Scene, e: Income) -> None:
    scene.income.append(_("{realm} {gold}", realm=realm_name(e.realm), gold=e.treasury))


def assigned(scene: Scene, e: Assigned) -> None:
    scene.add(_("🂠 Battle cards dealt, face down: {realm}.", realm=who(scene.view, e.realm)))


def turn_began(scene: Scene, e: TurnBegan) -> None:
    scene.add(_("🕯️ The turn of {realm}.", realm=who(scene.view, e.realm, "gen")))


def moved(scene: Scene, e: Moved) -> None:
    text = N_("{unit} sails from {frm} to {to}.") if e.unit == "admiral" else N_("{unit} marches from {frm} to {to}.")
    scene.add(cap(_(text, unit=unit_title(e.realm, e.unit), frm=place(e.frm, "acc"), to=place(e.to, "in"))))


def rested(scene: Scene, e: Rested) -> None:
    scene.add(cap(_("{unit} has done all he will this epoch.", unit=unit_title(e.realm, e.unit))))


def campaign_began(scene: Scene, e: CampaignBegan) -> None:
    scene.add(_(CAMPAIGNS[e.unit], realm=who(scene.view, e.realm, "acc"), cost=e.cost))


def spied(scene: Scene, e: Spied) -> None:
    other, holder = e.target.split(".")
    scene.add(_n("🕵️ Spies of {realm} watch {unit} ({cost} gold).", "🕵️ Spies of {realm} watch {unit} ({cost} gold).",
                 e.cost, realm=who(scene.view, e.realm, "gen"), unit=unit_title(other, holder, "acc"), cost=e.cost))


def truce_offered(scene: Scene, e: TruceOffered) -> None:
    scene.add(_("🕊️ A truce is offered by {realm} to {to}.", realm=who(scene.view, e.realm, "acc"),
                to=who(scene.view, e.to, "acc")))


def truce_answered(scene: Scene, e: TruceAnswered) -> None:
    text = N_("🕊️ The truce is accepted — neither will attack the other until the end of the next epoch by "
              "{realm}.") if e.accepted else N_("🕊️ The truce is refused by {realm}.")
    scene.add(_(text, realm=who(scene.view, e.to, "acc")))


def raid_launched(scene: Scene, e: RaidLaunched) -> None:
    scene.add(_("🐎 A Neutral General rides out of {source} and falls on {region}, held by {realm}!",
                source=place(e.source, "acc"), region=place(e.region, "in"), realm=who(scene.view, e.realm, "gen")))


def no_raid(scene: Scene, e: NoRaid) -> None:
    scene.add(_("The borders of {source} stay quiet: no realm holds a region the raiders can reach.",
                source=place(e.source, "gen")))


def battle_began(scene: Scene, e: BattleBegan) -> None:
    a_mod, d_mod = f"{e.attacker_modifier:+d}", f"{e.defender_modifier:+d}"
    scene.add(_("🛡️ {attacker} attacks {defender} in {region} (modifiers {a_mod} and {d_mod}).",
                attacker=cap(unit_title(e.attacker, e.attacker_unit)),
                defender=unit_title(e.defender, e.defender_unit, "gen"), region=place(e.region, "in"), a_mod=a_mod,
                d_mod=d_mod))


def cards_drawn(scene: Scene, e: CardsDrawn) -> None:
    scene.add(_(STACKS.get(e.stack, STACKS["neutral"]), count=e.count))


def fields_chosen(scene: Scene, e: FieldsChosen) -> None:
    scene.add(_("The attacker offers battle on the {first} or the {second}.", first=field_word(e.fields[0], "in"),
                second=field_word(e.fields[1], "in")))


def field_chosen(scene: Scene, e: FieldChosen) -> None:
    scene.add(_("The defender picks the {field}.", field=field_word(e.field, "acc")))


def cards_laid(scene: Scene, e: CardsLaid) -> None:
    scene.add(_("The attacker lays three cards face down.") if e.side == "attacker"
              else _("The defender lays three cards face down."))


def battle_fought(scene: Scene, e: BattleFought) -> None:
    scene.lines += battle_lines(e)


def life_lost(scene: Scene, e: LifeLost) -> None:
    scene.add(_n("💔 {unit} loses a life ({lives} left).", "💔 {unit} loses a life ({lives} left).", e.lives,
                 unit=cap(unit_title(e.realm, e.unit)), lives=e.lives))


def unit_removed(scene: Scene, e: UnitRemoved) -> None:
    scene.add(_("☠️ {unit} leaves the game.", unit=cap(unit_title(e.realm, e.unit))))


def retreated(scene: Scene, e: Retreated) -> None:
    scene.add(cap(_("{unit} falls back from {frm} to {to}.", unit=unit_title(e.realm, e.unit),
                    frm=place(e.frm, "acc"), to=place(e.to, "in"))))


def conquered(scene: Scene, e: Conquered) -> None:
    if not e.realm:
        scene.add(_("🏚️ The raiders leave {region} without a master: it is neutral now.",
                    region=place(e.region, "acc")))
        return
    text = N_("🏰 {region} falls to {realm}: a Garrison is set there.") if e.piece \
        else N_("🏰 {region} falls to {realm}: its own coat of arms flies there again.")
    scene.add(_(text, region=place(e.region, "gen"), realm=who(scene.view, e.realm)))


def scored(scene: Scene, e: Scored) -> None:
    scene.add(_n("⭐ {realm} +{points} for {why} ({score} point in all).",
                 "⭐ {realm} +{points} for {why} ({score} points in all).",
                 e.score, realm=cap(realm_name(e.realm)), points=e.points, why=why_text(e.why), score=e.score))


def epoch_ended(scene: Scene, e: EpochEnded) -> None:
    scene.add(_("Epoch {roman} ends.", **epochs(e.epoch)))


def realm_chosen(scene: Scene, e: RealmChosen) -> None:
    name = scene.view.names[e.seat] if 0 <= e.seat < len(scene.view.names) else "?"
    if e.last:
        text = N_("👑 {player} has the last realm left: {realm}.")
    elif e.bid:
        text = N_("👑 {player} takes {realm}.")
    else:
        text = N_("👑 {player} chooses {realm}.")
    line = _(text, player=name, realm=the_realm(e.realm, "acc"))
    if e.bid:
        line += " " + _n("The bid costs {count} point.", "The bid costs {count} points.", e.bid, count=e.bid)
    scene.add(line)


def bids_opened(scene: Scene, e: BidsOpened) -> None:
    names = scene.view.names
    bids = comma(_("{player} {points}", player=names[i], points=b) for i, b in enumerate(e.bids) if i < len(names))
    order = comma(names[i] for i in e.order if i < len(names))
    scene.add(_("⚖️ The bids are opened: {bids}. The realms are chosen in this order: {order}.", bids=bids,
                order=order))


def game_ended(scene: Scene, e: GameEnded) -> None:
    scene.add(_("📯 The war is over: {reason}.", reason=reason_text(e.reason)))


def why_won(view: AutokratorView) -> str:
    """Why the winner won, the tie-break included: a capital taken, the most points, or (level on points) the
    setting's compensation, more conquests held, more gold or a later place in the turn order — as the rules rank
    them (``_leader``)."""
    if view.reason != OVER_FIFTH:
        return reason_text(view.reason)
    won = view.realm(view.winner)
    level = [r for r in view.realms if r.key != won.key and r.score == won.score]
    if not level:
        return _("the most points ({points})", points=won.score)
    left = level_after_compensation(view.mode, view.raids, [won.key, *(r.key for r in level)])
    still = [r for r in level if r.key in left]
    if not still:  # every rival gives way on a level score in this setting
        rival = max(level, key=lambda r: (r.conquests, r.treasury, view.order.index(r.key)))
        return _("level on points ({points}) with {rival}, who gives way on a level score in this setting "
                 "(compensation, like the starting points)", points=won.score, rival=the_realm(rival.key))
    rival = max(still, key=lambda r: (r.conquests, r.treasury, view.order.index(r.key)))
    if rival.conquests != won.conquests:
        return _("level on points ({points}) with {rival}; more conquests held decide ({mine} to {theirs})",
                 points=won.score, rival=the_realm(rival.key), mine=won.conquests, theirs=rival.conquests)
    if rival.treasury != won.treasury:
        return _("level on points ({points}) and conquests held ({held}) with {rival}; more gold decides ({mine} "
                 "to {theirs})", points=won.score, held=won.conquests, rival=the_realm(rival.key),
                 mine=won.treasury, theirs=rival.treasury)
    return _("level on points ({points}), conquests held and gold with {rival}; the later place in the turn order "
             "decides", points=won.score, rival=the_realm(rival.key))


#: Every event of the game and the function that tells it.
TELLERS: dict[type, Teller[Scene]] = by_event(
    epoch_began, income, assigned, turn_began, moved, rested, campaign_began, spied, truce_offered, truce_answered,
    raid_launched, no_raid, battle_began, cards_drawn, fields_chosen, field_chosen, cards_laid, battle_fought,
    life_lost, unit_removed, retreated, conquered, scored, epoch_ended, game_ended, realm_chosen, bids_opened,
)


def standings(view: AutokratorView) -> list[str]:
    rows = []
    for r in view.realms:
        units = comma(_("{unit} in {region} ({lives}♥, {modifier})", unit=unit_word(u.unit),
                            region=place(u.region, "in"), lives=u.lives, modifier=signed(u.modifier))
                          for u in r.units) or _("no units left")
        rows.append(_("**{realm}** — points: {points}, gold: {gold}, regions: {regions}, Garrisons in hand: "
                      "{garrisons} · {units}", realm=cap(who(view, r.key)), points=r.score, gold=r.treasury,
                      regions=r.regions, garrisons=r.supply, units=units))
    return rows
