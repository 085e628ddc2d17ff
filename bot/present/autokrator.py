"""Autokrator, shown to people: the story of each move, the map after every turn, the battle rows as they are
laid and revealed, and the controls for whoever must act.

Public controls carry what everyone may see (marches, voyages, attacks, retreats, truces); what is secret — the
cards a realm deals to its units, the battlefields an attacker offers, the row of cards laid face down — sits
behind **Your hand**, the private view ``hand`` that only the person who presses it sees."""

from __future__ import annotations

from bot.present.base import Button, Choice, Menu, Moment, Picture, Prompt, Telling, game_title
from render import autokrator as art
from rules.autokrator.content import FIELD_NAMES, UNIT_NAMES, library
from rules.autokrator.engine import realm_name, unit_title
from rules.autokrator.state import BattleFought, Conquered, EpochBegan, GameEnded, Moved, Retreated, TurnBegan
from rules.autokrator.telling import cap, place, standings, tell
from rules.autokrator.view import AutokratorView

AutokratorMoment = Moment[AutokratorView]
MAP_EVENTS = (Moved, Conquered, Retreated, TurnBegan, EpochBegan, GameEnded)


def _hand_button(label: str = "Your hand") -> Button:
    return Button(label, view="hand", style="primary")


class AutokratorPresenter:
    key = "autokrator"

    # --- pictures ------------------------------------------------------------------------------------

    def board(self, moment: AutokratorMoment) -> Picture:
        view = moment.view()
        return Picture("map.png", art.render_map(view, title=game_title(moment)), art.map_alt(view)[:1000])

    def warm(self) -> int:
        return art.warm()

    # --- the message after a move --------------------------------------------------------------------

    def telling(self, moment: AutokratorMoment) -> Telling:
        view = moment.view()
        events = list(moment.events)
        lines = tell(view, events)
        if moment.by_tabula and not moment.auto_seat and moment.actor is not None:
            lines.insert(0, f"⏳ {moment.name_of(moment.actor)} did not answer within the game's time limit, so "
                            "Tabula plays their realm for now — it is theirs again as soon as they act.")
        pictures: list[Picture] = []
        for e in events:
            if isinstance(e, BattleFought):
                pictures.append(Picture("battle.png", art.render_fought(e), art.fought_alt(e)[:1000]))
        if view.battle is not None and view.battle.stage == "lineup" and not pictures:
            pictures.append(Picture("battle.png", art.render_battle(view.battle), art.battle_alt(view.battle)))
        if moment.outcome is not None:
            lines.append("**The realms at the end**\n" + "\n".join(standings(view)))
            lines.append(f"🏆 {moment.outcome.summary}")
        if moment.actor is None or any(isinstance(e, MAP_EVENTS) for e in events):
            pictures.append(self.board(moment))
        if not lines and moment.actor is not None:
            command = moment.command
            unit = UNIT_NAMES.get(command.get("unit"), "") if command is not None else ""
            lines.append(f"🂠 {moment.name_of(moment.actor)} deals two cards to the {unit}, face down." if unit
                         else f"{moment.name_of(moment.actor)} chooses in secret.")
        return Telling(text="\n".join(lines), pictures=pictures[:10], prompt=self.prompt(moment))

    def status(self, moment: AutokratorMoment) -> Telling:
        view = moment.view()
        head = "This game was abandoned." if moment.status == "abandoned" else self._caption(view)
        text = f"**{game_title(moment)}** — {head}\n" + "\n".join(standings(view))
        return Telling(text=text, pictures=[self.board(moment)], prompt=self.prompt(moment))

    def _caption(self, view: AutokratorView) -> str:
        epoch = library().epochs[view.epoch - 1]
        where = {"assign": "the realms deal their battle cards", "battle": "a battle is being fought",
                 "retreat": "a beaten unit falls back", "truce": "a truce is asked for",
                 "over": "the war is over"}.get(view.phase, f"the turn of the {realm_name(view.acting)}")
        return f"Epoch {view.epoch} ({epoch.years}, {epoch.title}): {where}."

    # --- private views -------------------------------------------------------------------------------

    def private(self, name: str, moment: AutokratorMoment, seat: int) -> Telling | None:
        if name != "hand":
            return None
        view = moment.view(seat)
        if not view.me:
            return None
        lib = library()
        acting = moment.status == "active" and seat in moment.to_act
        choices = moment.choices(seat) if acting else []
        if view.phase == "assign" and acting:
            holder = next((c.command.get("unit") for c in choices if c.command.get("unit") != "same"), "")
            done = ", ".join(f"{UNIT_NAMES[h]}: " + ", ".join(lib.cards[c].name for c in cards)
                             for h, cards in view.pending.items())
            text = (f"Deal your battle cards for this epoch. Each unit holds its fixed card and two more, never two "
                    f"of the same army. Now choose the two cards for your **{UNIT_NAMES.get(holder, holder)}**."
                    + (f"\nSo far — {done}." if done else ""))
            png = art.render_hand(view, view.me)
            return Telling(text=text, pictures=[Picture("hand.png", png, art.hand_alt(view, view.me))],
                           prompt=Prompt(users=[], text="", menus=[self._menu(choices, "Two cards for the "
                                                                              + UNIT_NAMES.get(holder, holder))]))
        if view.battle is not None and acting:
            return self._battle_private(moment, view, choices)
        realm = view.realm(view.me)
        lines = [f"**Your realm: the {realm_name(view.me)}** — {realm.treasury} gold, {realm.score} points."]
        for h, cards in realm.cards.items():
            lines.append(f"{UNIT_NAMES[h]}: " + ", ".join(f"{lib.cards[c].name}" for c in cards))
        for r in view.realms:
            if r.key != view.me:
                for h, cards in r.cards.items():
                    lines.append(f"🕵️ {cap(unit_title(r.key, h))} holds: " + ", ".join(lib.cards[c].name for c in cards))
        png = art.render_hand(view, view.me)
        return Telling(text="\n".join(lines), pictures=[Picture("hand.png", png, art.hand_alt(view, view.me))])

    def _battle_private(self, moment: AutokratorMoment, view: AutokratorView, choices: list[Choice]) -> Telling:
        b = view.battle
        assert b is not None
        mine = b.attacker if b.attacker.realm == view.me else b.defender
        lib = library()
        cards = ", ".join(f"{lib.cards[c].name} ({'-'.join(map(str, lib.cards[c].values))})" for c in mine.cards)
        if b.stage == "fields":
            text = (f"You attack in {place(b.region)} with {cards} (battle points on Plain-Hill-Forest-City-Ambush). "
                    "Offer two battlefields; the defender picks one.")
            menu = self._menu(choices, "Two battlefields…")
        elif b.stage == "field":
            offered = " or the ".join(FIELD_NAMES[f] for f in b.fields)
            text = f"You defend {place(b.region)} with {cards}. The attacker offers the {offered}: choose one."
            menu = self._menu(choices, "The battlefield…")
        else:
            sign = "+1" if mine.modifier > 0 else "−1"
            marks = (f" Your {abs(mine.modifier)} modifier marker(s) ({sign} each) go on different cards (marked *)."
                     if mine.modifier else " You have no modifier markers.")
            text = (f"Battle on the **{FIELD_NAMES[b.field]}** in {place(b.region)}. Lay your three cards face down "
                    f"in order: card 1 meets the enemy's card 1, and so on.{marks}")
            menu = self._menu(choices, "Your row, left to right…")
        pic = Picture("my-cards.png", art.render_cards(list(mine.cards), b.field), f"Your three cards: {cards}.")
        return Telling(text=text, pictures=[pic], prompt=Prompt(users=[], text="", menus=[menu]))

    @staticmethod
    def _menu(choices: list[Choice], placeholder: str) -> Menu:
        return Menu([(c.label, c.command) for c in choices][:25], placeholder=placeholder)

    # --- who must act, and the controls they get -----------------------------------------------------

    def prompt(self, moment: AutokratorMoment) -> Prompt | None:
        if moment.status != "active":
            return None
        view = moment.view()
        acting = sorted(moment.to_act)
        if view.phase == "over" or not acting:
            return None
        users = [moment.user_of(s) for s in acting]
        if view.phase == "assign":
            return Prompt(users=users, text="deal your battle cards to your King, General, Admiral and Garrison — "
                                            "press **Your hand** (only you see it; everyone deals at once).",
                          buttons=[_hand_button()])
        if view.phase == "battle" and view.battle is not None:
            b = view.battle
            asks = {"fields": "you attack: offer two battlefields", "field": "you defend: choose the battlefield",
                    "lineup": "lay your three battle cards face down, with your markers"}
            return Prompt(users=users, text=asks[b.stage] + " — press **Your hand** (only you see it).",
                          buttons=[_hand_button()])
        seat = acting[0]
        choices = moment.choices(seat)
        if view.phase == "retreat" and view.retreat is not None:
            r = view.retreat
            return Prompt(users=users, text=f"{unit_title(r.realm, r.unit)} is beaten: choose where he falls back.",
                          buttons=[Button(c.label, command=c.command, style="primary") for c in choices][:20])
        if view.phase == "truce":
            return Prompt(users=users, text=f"the {realm_name(view.offer[0])} offer you a truce until the end of the "
                                            "next epoch.",
                          buttons=[Button(c.label, command=c.command, style="success" if "yes" in c.command.encode()
                                          else "danger") for c in choices])
        return self._turn_prompt(view, choices, users)

    def _turn_prompt(self, view: AutokratorView, choices: list[Choice], users: list[int]) -> Prompt:
        menus: list[Menu] = []
        for unit in ("king", "general", "admiral"):
            moves = [c for c in choices if c.command.verb in ("move", "voyage") and
                     (c.command.get("unit") or "admiral") == unit]
            if moves:
                menus.append(self._menu(moves, f"{UNIT_NAMES[unit]}: " + ("sail to…" if unit == "admiral"
                                                                          else "march to…")))
        gold = [c for c in choices if c.command.verb in ("campaign", "spy", "truce")]
        if gold:
            menus.append(self._menu(gold, "Gold and diplomacy: campaigns, spies, truces…"))
        attacks = [Button(c.label, command=c.command, style="danger") for c in choices if c.command.verb == "attack"]
        rests = [c for c in choices if c.command.verb == "pass"]
        ends = [Button(c.label, command=c.command, style="primary") for c in rests if c.command.get("unit") == "turn"]
        rest = [Button(c.label, command=c.command) for c in rests if c.command.get("unit") != "turn"]
        room = 25 - 5 * len(menus) - 1  # one place kept for the player's own cards
        buttons = [*[*attacks, *ends, *rest][:room], _hand_button("Your cards")]
        current = f" ({UNIT_NAMES[view.current]} is acting)" if view.current else ""
        text = f"your turn with the {realm_name(view.acting)}{current}: march, sail, attack or rest."
        return Prompt(users=users, text=text, menus=menus, buttons=buttons)


PRESENTER = AutokratorPresenter()
