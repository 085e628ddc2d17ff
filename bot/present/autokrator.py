"""Autokrator, shown to people: the story of each move, the map after every turn, the battle rows as they are
laid and revealed, and the controls for whoever must act.

Public controls carry what everyone may see (marches, voyages, attacks, retreats, truces); what is secret — the
cards a realm deals to its units, the battlefields an attacker offers, the row of cards laid face down — sits
behind **Your hand**, the private view ``hand`` that only the person who presses it sees."""

from __future__ import annotations

from functools import partial

from bot.present.base import Button, Choice, Menu, Moment, Picture, Prompt, Telling, game_title, seats_acting
from render import autokrator as art
from rules.autokrator.content import library
from rules.autokrator.i18n import (
    N_,
    _,
    _n,
    card_name,
    comma,
    epochs,
    field_word,
    groups,
    sentences,
    the_realm,
    unit_title,
    unit_word,
)
from rules.autokrator.state import BattleFought, Conquered, EpochBegan, GameEnded, Moved, Retreated, TurnBegan
from rules.autokrator.telling import cap, place, standings, tell
from rules.autokrator.view import AutokratorView

AutokratorMoment = Moment[AutokratorView]
UNITS = ("king", "general", "admiral", "garrison")
CAPTIONS = {"realms": N_("Before the war: the players choose their realms."),
            "assign": N_("Epoch {n} ({years}, {title}): the realms deal their battle cards."),
            "battle": N_("Epoch {n} ({years}, {title}): a battle is being fought."),
            "retreat": N_("Epoch {n} ({years}, {title}): a beaten unit falls back."),
            "truce": N_("Epoch {n} ({years}, {title}): a truce is asked for."),
            "over": N_("Epoch {n} ({years}, {title}): the war is over.")}
ASKS = {"fields": N_("you attack: offer two battlefields — press **Your hand** (only you see it)."),
        "field": N_("you defend: choose the battlefield — press **Your hand** (only you see it)."),
        "lineup": N_("lay your three battle cards face down, with your markers — press **Your hand** (only you see "
                     "it).")}
MAP_EVENTS = (Moved, Conquered, Retreated, TurnBegan, EpochBegan, GameEnded)


def changed(events: list[object]) -> tuple[str, ...]:
    """The regions a move changed, in the order it did: where a unit marched, sailed or fell back to, where a
    battle was fought, what was conquered."""
    out: list[str] = []
    for e in events:
        if isinstance(e, (Moved, Retreated)):
            out.append(e.to)
        elif isinstance(e, (BattleFought, Conquered)):
            out.append(e.region)
    return tuple(dict.fromkeys(r for r in out if r))


def _hand_button(label: str = N_("Your hand")) -> Button:
    return Button(_(label), view="hand", style="primary")


class AutokratorPresenter:
    key = "autokrator"

    # --- pictures ------------------------------------------------------------------------------------

    def board(self, moment: AutokratorMoment, changed: tuple[str, ...] = ()) -> Picture:
        view = moment.view()
        alt = art.board_alt_text(view)
        if changed:
            alt = _("{map} Changed this move: {places}.", map=alt, places=comma(place(r) for r in changed))
        return Picture("map.png", partial(art.render_board, view, title=game_title(moment), changed=changed),
                       alt[:1000])

    def warm(self) -> int:
        return art.warm()

    # --- the message after a move --------------------------------------------------------------------

    def telling(self, moment: AutokratorMoment) -> Telling:
        view = moment.view()
        events = list(moment.events)
        lines = tell(view, events)
        if moment.timed_out and moment.actor is not None:
            lines.insert(0, _("⏳ {player} did not answer within the game's time limit, so Tabula plays their "
                              "realm for now — it is theirs again as soon as they act.",
                              player=moment.name_of(moment.actor)))
        pictures: list[Picture] = []
        for e in events:
            if isinstance(e, BattleFought):
                pictures.append(Picture("battle.png", partial(art.render_fought, e), art.fought_alt(e)[:1000]))
        if view.battle is not None and view.battle.stage == "lineup" and not pictures:
            pictures.append(Picture("battle.png", partial(art.render_battle, view.battle), art.battle_alt(view.battle)))
        if moment.outcome is not None:
            lines.append(_("**The realms at the end**\n{standings}", standings="\n".join(standings(view))))
            lines.append(f"🏆 {moment.outcome.summary}")
        if moment.actor is None or any(isinstance(e, MAP_EVENTS) for e in events):
            pictures.append(self.board(moment, changed(events)))
        if not lines and moment.actor is not None:
            command = moment.command
            unit = command.get("unit") if command is not None else ""
            player = moment.name_of(moment.actor)
            lines.append(_("🂠 {player} deals two cards to the {unit}, face down.", player=player,
                           unit=unit_word(unit, "acc")) if unit in UNITS
                         else _("{player} chooses in secret.", player=player))
        return Telling(text="\n".join(lines), pictures=pictures[:10], prompt=self.prompt(moment))

    def status(self, moment: AutokratorMoment) -> Telling:
        view = moment.view()
        head = _("This game was abandoned.") if moment.status == "abandoned" else self._caption(view)
        text = _("**{title}** — {caption}", title=game_title(moment), caption=head) + "\n" + "\n".join(
            standings(view))
        if moment.outcome is not None:  # after the end, who won (as the thread said)
            text += f"\n🏆 {moment.outcome.summary}"
        return Telling(text=text, pictures=[self.board(moment)], prompt=self.prompt(moment))

    def _caption(self, view: AutokratorView) -> str:
        epoch = library().epochs[view.epoch - 1]
        where = CAPTIONS.get(view.phase)
        if where is None:
            return _("Epoch {n} ({years}, {title}): the turn of {realm}.", **epochs(view.epoch), years=epoch.years,
                     title=_(epoch.title), realm=the_realm(view.acting, "gen"))
        return _(where, **epochs(view.epoch), years=epoch.years, title=_(epoch.title))

    # --- private views -------------------------------------------------------------------------------

    def private(self, name: str, moment: AutokratorMoment, seat: int) -> Telling | None:
        if name != "hand":
            return None
        view = moment.view(seat)
        if view.phase == "realms":
            return self._realms_private(moment, view, seat)
        if not view.me:
            return None
        acting = moment.status == "active" and seat in moment.to_act
        choices = moment.choices(seat) if acting else []
        if view.phase == "assign" and acting:
            holder = next((c.command.get("unit") for c in choices if c.command.get("unit") != "same"), "")
            done = groups(_("{unit}: {cards}", unit=unit_word(h), cards=comma(card_name(c) for c in cards))
                             for h, cards in view.pending.items())
            text = _("Deal your battle cards for this epoch. Each unit holds its fixed card and two more, never two "
                     "of the same army. Now choose the two cards for your **{unit}**.", unit=unit_word(holder, "acc"))
            if done:
                text += _("\nSo far — {dealt}.", dealt=done)
            png = partial(art.render_hand, view, view.me)
            menu = self._menu(choices, _("Two cards for the {unit}", unit=unit_word(holder, "acc")))
            return Telling(text=text, pictures=[Picture("hand.png", png, art.hand_alt(view, view.me))],
                           prompt=Prompt(users=[], text="", menus=[menu]))
        if view.battle is not None and acting:
            return self._battle_private(moment, view, choices)
        realm = view.realm(view.me)
        lines = [_("**Your realm: {realm}** — {gold} gold, {points} points.", realm=the_realm(view.me),
                   gold=realm.treasury, points=realm.score)]
        for h, cards in realm.cards.items():
            lines.append(_("{unit}: {cards}", unit=unit_word(h), cards=comma(card_name(c) for c in cards)))
        for r in view.realms:
            if r.key != view.me:
                for h, cards in r.cards.items():
                    lines.append(_("🕵️ {unit} holds: {cards}", unit=cap(unit_title(r.key, h)),
                                   cards=comma(card_name(c) for c in cards)))
        png = partial(art.render_hand, view, view.me)
        return Telling(text="\n".join(lines), pictures=[Picture("hand.png", png, art.hand_alt(view, view.me))])

    def _realms_private(self, moment: AutokratorMoment, view: AutokratorView, seat: int) -> Telling:
        """Before the war: a secret bid (``realms:auction``), or where this seat stands in the choosing."""
        acting = moment.status == "active" and seat in moment.to_act
        choices = moment.choices(seat) if acting else []
        if acting and any(c.command.verb == "bid" for c in choices):
            text = _("Bid for your realm in secret: the highest bids choose their realms first, and each pays its "
                     "bid in points (level bids are drawn).")
            return Telling(text=text, pictures=[],
                           prompt=Prompt(users=[], text="", menus=[self._menu(choices, _("Your bid…"))]))
        if view.bid >= 0 and not view.bids:
            return Telling(text=_n("You bid {count} point. The bids open when everyone has bid.",
                                   "You bid {count} points. The bids open when everyone has bid.", view.bid,
                                   count=view.bid), pictures=[])
        return Telling(text=_("The realms are being chosen; the buttons in the thread show whose choice it is."),
                       pictures=[])

    def _battle_private(self, moment: AutokratorMoment, view: AutokratorView, choices: list[Choice]) -> Telling:
        b = view.battle
        assert b is not None
        mine = b.attacker if b.attacker.realm == view.me else b.defender
        lib = library()
        cards = comma(_("{card} ({values})", card=card_name(c), values="-".join(map(str, lib.cards[c].values)))
                          for c in mine.cards)
        if b.stage == "fields":
            text = _("You attack in {region} with {cards} (battle points on Plain-Hill-Forest-City-Ambush). Offer "
                     "two battlefields; the defender picks one.", region=place(b.region, "in"), cards=cards)
            menu = self._menu(choices, _("Two battlefields…"))
        elif b.stage == "field":
            text = _("You defend {region} with {cards}. The attacker offers the {first} or the {second}: choose "
                     "one.", region=place(b.region, "acc"), cards=cards, first=field_word(b.fields[0], "acc"),
                     second=field_word(b.fields[1], "acc"))
            menu = self._menu(choices, _("The battlefield…"))
        else:
            marks = _n("Your {count} modifier marker(s) ({sign} each) go on different cards (marked *).",
                       "Your {count} modifier marker(s) ({sign} each) go on different cards (marked *).",
                       abs(mine.modifier), count=abs(mine.modifier), sign="+1" if mine.modifier > 0 else "−1") \
                if mine.modifier else _("You have no modifier markers.")
            order = _("Battle on the **{field}** in {region}. Lay your three cards face down in order: card 1 meets "
                      "the enemy's card 1, and so on.", field=field_word(b.field), region=place(b.region, "in"))
            text = sentences([order, marks])
            menu = self._menu(choices, _("Your row, left to right…"))
        pic = Picture("my-cards.png", partial(art.render_cards, list(mine.cards), b.field),
                      _("Your three cards: {cards}.", cards=cards))
        return Telling(text=text, pictures=[pic], prompt=Prompt(users=[], text="", menus=[menu]))

    @staticmethod
    def _menu(choices: list[Choice], placeholder: str) -> Menu:
        return Menu([(c.label, c.command) for c in choices][:25], placeholder=placeholder)

    # --- who must act, and the controls they get -----------------------------------------------------

    def prompt(self, moment: AutokratorMoment) -> Prompt | None:
        acting, users = seats_acting(moment)  # nobody once the game is over
        if not acting:
            return None
        view = moment.view()
        if view.phase == "realms":
            choices = moment.choices(acting[0])
            if any(c.command.verb == "bid" for c in choices):  # the bids are secret: behind Your hand
                return Prompt(users=users, text=_("bid for your realm in secret — press **Your hand** (only you see "
                                                  "it; everyone bids at once)."), buttons=[_hand_button()])
            return Prompt(users=users, text=_("choose your realm."),
                          buttons=[Button(c.label, command=c.command, style="primary") for c in choices])
        if view.phase == "assign":
            return Prompt(users=users, text=_("deal your battle cards to your King, General, Admiral and Garrison "
                                              "— press **Your hand** (only you see it; everyone deals at once)."),
                          buttons=[_hand_button()])
        if view.phase == "battle" and view.battle is not None:
            b = view.battle
            return Prompt(users=users, text=_(ASKS[b.stage]), buttons=[_hand_button()])
        seat = acting[0]
        choices = moment.choices(seat)
        if view.phase == "retreat" and view.retreat is not None:
            r = view.retreat
            return Prompt(users=users, text=_("{unit} is beaten: choose where he falls back.",
                                              unit=unit_title(r.realm, r.unit)),
                          buttons=[Button(c.label, command=c.command, style="primary") for c in choices][:20])
        if view.phase == "truce":
            return Prompt(users=users, text=_("{realm} offer you a truce until the end of the next epoch.",
                                              realm=the_realm(view.offer[0], "acc")),
                          buttons=[Button(c.label, command=c.command, style="success" if "yes" in c.command.encode()
                                          else "danger") for c in choices])
        return self._turn_prompt(view, choices, users)

    def _turn_prompt(self, view: AutokratorView, choices: list[Choice], users: list[int]) -> Prompt:
        menus: list[Menu] = []
        for unit in ("king", "general", "admiral"):
            moves = [c for c in choices if c.command.verb in ("move", "voyage") and
                     (c.command.get("unit") or "admiral") == unit]
            if moves:
                menus.append(self._menu(moves, _("Admiral: sail to…") if unit == "admiral"
                                        else _("{unit}: march to…", unit=unit_word(unit))))
        gold = [c for c in choices if c.command.verb in ("campaign", "spy", "truce")]
        if gold:
            menus.append(self._menu(gold, _("Gold and diplomacy: campaigns, spies, truces…")))
        attacks = [Button(c.label, command=c.command, style="danger") for c in choices if c.command.verb == "attack"]
        rests = [c for c in choices if c.command.verb == "pass"]
        ends = [Button(c.label, command=c.command, style="primary") for c in rests if c.command.get("unit") == "turn"]
        rest = [Button(c.label, command=c.command) for c in rests if c.command.get("unit") != "turn"]
        room = 25 - 5 * len(menus) - 1  # one place kept for the player's own cards
        buttons = [*[*attacks, *ends, *rest][:room], _hand_button(N_("Your cards"))]
        forced = self._forced(view, choices)
        if forced:
            text = forced
        elif view.current:
            text = _("your turn with {realm} ({unit} is acting): march, sail, attack or rest.",
                     realm=the_realm(view.acting, "acc"), unit=unit_word(view.current, "nom"))
        else:
            text = _("your turn with {realm}: march, sail, attack or rest.", realm=the_realm(view.acting, "acc"))
        return Prompt(users=users, text=text, menus=menus, buttons=buttons)


    @staticmethod
    def _forced(view: AutokratorView, choices: list[Choice]) -> str:
        """The prompt when a rule leaves one kind of move: a unit standing on hostile ground (after a march or a
        voyage into it) must attack before anything else, so only its attacks are offered — say so, and why."""
        if not view.current or not choices or any(c.command.verb != "attack" for c in choices):
            return ""
        unit = next((u for u in view.realm(view.acting).units if u.unit == view.current), None)
        if unit is None:
            return ""
        return _("your turn with {realm}: your {unit} stands on hostile ground in {region}, so the rules make him "
                 "attack it now — no march, voyage or rest until he has.", realm=the_realm(view.acting, "acc"),
                 unit=unit_word(view.current, "nom"), region=place(unit.region, "in"))


PRESENTER = AutokratorPresenter()
