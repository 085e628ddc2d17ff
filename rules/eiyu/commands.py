"""The game's words: every button, menu entry, autocomplete value and typed command is one of these.

``/city city:8`` · ``/program slot:2 order:red`` · ``/program row:act,red,act,blue,wait,act`` (``lock:yes`` locks
it in too) · ``/lock`` · ``/choose option:gold+fame@north`` (a hunt's rewards) · ``/choose option:dummy-fame`` ·
``/choose option:show-13`` or ``show-none`` (a show of strength)."""

from __future__ import annotations

from rules.core import IllegalAction
from rules.eiyu.auto import Preview, preview
from rules.eiyu.content import ACT, WAIT, library
from rules.eiyu.engine.scores import TRACKS
from rules.eiyu.i18n import (
    CATALOGUE,
    N_,
    N_p,
    _,
    _n,
    _p,
    a_soldier,
    city_name,
    comma,
    order_name,
    place,
    soldier_name,
    track,
)
from rules.eiyu.state import (
    AutoRow,
    ChooseCity,
    EiyuAction,
    Lock,
    RaiseDummy,
    Reveal,
    SetOrder,
    SetRow,
    State,
    TakeRewards,
)
from rules.spec import Command, number

ALIASES = {"green": ACT, "■": ACT, "hunt": ACT, "recruit": ACT, "x": WAIT, "×": WAIT, "pass": WAIT,
           "light-blue": "lightblue", "light_blue": "lightblue", "cyan": "lightblue", "lb": "lightblue",
           # the same orders typed in Japanese (the book's words: 行動 ■, 待機 ×, the road colours)
           "行動": ACT, "徴兵": ACT, "討伐": ACT, "待機": WAIT, "赤": "red", "黄": "yellow", "黄色": "yellow",
           "青": "blue", "水色": "lightblue", "紫": "purple"}


def order_of(word: str) -> str:
    w = word.strip().lower()
    w = ALIASES.get(w, w)
    lib = library()
    if w not in lib.orders:
        colours = comma([_p("value", c) for c in lib.colours])  # as the reader may type them
        raise IllegalAction(_("An order is `act` (■: recruit or hunt where you stand), `wait` (×), or a road "
                              "colour: {colours}.", colours=colours))
    return w


#: What a previewed order came to where it stood, when it was neither a move, a recruit nor a hunt.
DID = {"wait": N_("waits in {city}"), "no_road": N_("no such road from {city}: waits"),
       "acted": N_("already acted in {city}: waits"), "nothing": N_("nothing to do in {city}: waits"),
       "troops": N_("lacks the troops in {city}: waits"), "titan": N_("fights the titan in {city}")}


def did_text(step: Preview) -> str:
    """A previewed order in a few words: "→ 8 Yamabe", "recruits an archer", "hunts the Kappa"."""
    lib = library()
    did, city = step.did, step.city
    if did == "move":
        return _("→ {city}", city=city_name(city))
    if did.startswith("recruit"):
        return _("recruits {soldier} in {city}", soldier=a_soldier(int(did.split()[1])), city=city_name(city))
    if did.startswith("hunt"):
        return _("hunts the {monster} in {city}", monster=_(lib.chip(int(did.split()[1])).monster),
                 city=city_name(city))
    return _(DID[did], city=city_name(city)) if did in DID else did


class EiyuCodec:
    def parse(self, state: State, seat: int, command: Command) -> EiyuAction:
        verb = command.verb
        lib = library()
        if verb == "city":
            return self._city(command.get("city"))
        if verb == "program":
            if command.get("auto").strip().lower() in ("yes", "true", "1"):
                return AutoRow()
            row = command.get("row").strip()
            if row:
                words = [w for w in row.replace(" ", ",").split(",") if w]
                lock = command.get("lock").strip().lower() in ("yes", "true", "1", "lock")
                return SetRow(orders=tuple(order_of(w) for w in words), lock=lock)
            slot = number(command.get("slot"))
            if slot is None or not command.get("order").strip():
                raise IllegalAction(_("Set one slot with `/program slot:2 order:red` (slots 1 to {last}), or the "
                                      "whole row with `/program row:act,red,act,blue,wait,act`.", last=lib.slots))
            return SetOrder(slot=slot - 1, order=order_of(command.get("order")))
        if verb == "lock":
            return Lock()
        if verb == "choose":
            option = command.get("option").strip().lower()
            if option.startswith("dummy-"):
                return RaiseDummy(track=option.removeprefix("dummy-"))
            if option.startswith("show-"):
                types = option.removeprefix("show-")
                return Reveal(types="" if types == "none" else types)
            pair, _at, area = option.partition("@")
            first, _plus, second = pair.partition("+")
            if not first or not second:
                raise IllegalAction(_("Choose two rewards, e.g. `/choose option:gold+fame@north`, a dummy track "
                                      "(`dummy-gold`), or what to show (`show-13`, `show-none`)."))
            order = ("building", "gold", "fame")
            a, b = sorted((first, second), key=lambda x: order.index(x) if x in order else 9)
            return TakeRewards(first=a, second=b, area=area)
        raise IllegalAction(_("This game's commands: `/city`, `/program`, `/lock`, `/choose` and `/hand`."))

    @staticmethod
    def _city(typed: str) -> ChooseCity:
        """A city by its number (``8``, ``8 Yamabe``) or by its name in any language the game speaks."""
        lib = library()
        found = number(typed.strip().split(" ")[0])
        if found is not None:
            return ChooseCity(city=found)
        names = {c.name.lower(): c.id for c in lib.cities}
        for lang in CATALOGUE.languages():  # a city's name in any language the game speaks
            names.update({(CATALOGUE.lookup(lang, c.name, "place") or c.name).lower(): c.id for c in lib.cities})
        if typed.strip().lower() in names:
            return ChooseCity(city=names[typed.strip().lower()])
        raise IllegalAction(_("Name a city by its number, 1 to {last}: `/city city:8`.", last=len(lib.cities)))

    def encode(self, state: State, seat: int, action: EiyuAction) -> Command:
        if isinstance(action, ChooseCity):
            return Command.of("city", city=action.city)
        if isinstance(action, SetOrder):
            return Command.of("program", slot=action.slot + 1, order=action.order)
        if isinstance(action, SetRow):
            return Command.of("program", row=",".join(action.orders), lock="yes" if action.lock else None)
        if isinstance(action, Lock):
            return Command("lock")
        if isinstance(action, AutoRow):
            return Command.of("program", auto="yes")
        if isinstance(action, TakeRewards):
            return Command.of("choose", option=f"{action.first}+{action.second}"
                              + (f"@{action.area}" if action.area else ""))
        if isinstance(action, RaiseDummy):
            return Command.of("choose", option=f"dummy-{action.track}")
        return Command.of("choose", option=f"show-{action.types or 'none'}")

    def label(self, state: State, seat: int, command: Command, arg: str | None = None) -> str:
        return self._label(state, seat, command, arg)[:100]

    def _label(self, state: State, seat: int, command: Command, arg: str | None) -> str:
        lib = library()
        try:
            action = self.parse(state, seat, command)
        except IllegalAction:
            return command.typed()
        if isinstance(action, ChooseCity):
            c = lib.city(action.city)
            roads = "/".join(row_mark(col) for col in lib.colours if lib.road(c.id, col) is not None)
            return _("City {number} · {name} ({kind}; roads {roads})", number=c.id, name=place(c.name),
                     kind=city_kind(c.kind), roads=roads)
        if isinstance(action, SetOrder):
            return self._order_label(state, seat, action, arg)
        if isinstance(action, SetRow):
            return self._row_label(state, seat, action)
        if isinstance(action, Lock):
            return _("Lock in my orders")
        if isinstance(action, AutoRow):
            return _("Let Tabula program and lock in my year") if arg != "auto" else _p("answer", "yes")
        if isinstance(action, RaiseDummy):
            if action.track not in TRACKS:
                return command.typed()
            k = TRACKS.index(action.track)
            step = (lib.dummy.fame_step, lib.dummy.gold_step, lib.dummy.building_step)[k]
            return _("Raise the dummy's {track} by {n}", track=track(action.track), n=step)
        if isinstance(action, Reveal):
            if not action.types:
                return _("Show nothing")
            kinds = [number(t) for t in action.types]
            names = [soldier_name(k, lib.soldier(k).name) for k in kinds if k is not None and 1 <= k <= 4]
            return _("Show my {soldiers}", soldiers=comma(names))
        return self._reward_label(state, action)

    @staticmethod
    def _order_label(state: State, seat: int, action: SetOrder, arg: str | None) -> str:
        """One slot's order, with what it would do there on today's map."""
        if arg == "slot":
            return _("Slot {slot}", slot=action.slot + 1)
        if arg == "order":
            return order_name(action.order)
        p = state.players[seat]
        row = list(p.row) if p.row else [ACT] * library().slots
        row[action.slot] = action.order
        steps = preview(state, seat, row)
        return _("Slot {slot}: {order} — {effect}", slot=action.slot + 1, order=order_name(action.order),
                 effect=did_text(steps[action.slot]))

    @staticmethod
    def _row_label(state: State, seat: int, action: SetRow) -> str:
        """A whole row, and where it ends."""
        if len(action.orders) != library().slots:
            return _n("A row of {n} order", "A row of {n} orders", len(action.orders))
        if all(o == ACT for o in action.orders) and not action.lock:
            return _("Reset the row (every slot ■ act)")
        steps = preview(state, seat, action.orders)
        marks, end = " ".join(_mark(o) for o in action.orders), city_name(steps[-1].city)
        if action.lock:
            return _("Lock in: {row} — ends in {city}", row=marks, city=end)
        return _("Row: {row} — ends in {city}", row=marks, city=end)

    def _reward_label(self, state: State, action: TakeRewards) -> str:
        lib = library()
        pend = state.pending
        if pend is None:
            return _("{first} + {second}", first=track(action.first), second=track(action.second))
        chip = lib.chip(pend.chip)
        parts = []
        for kind in (action.first, action.second):
            if kind == "gold":
                parts.append(_("{n} gold", n=chip.gold))
            elif kind == "building":
                parts.append(_n("{n} building chip", "{n} building chips", chip.building))
            elif kind == "fame":
                where = place(lib.area(action.area).name) if action.area in {a.id for a in lib.areas} \
                    else action.area
                parts.append(_("{n} fame in {area}", n=chip.fame, area=where))
        return _p("rewards", " + ").join(parts)


def city_kind(kind: str) -> str:
    """What a city holds, in a word: "recruit", "monster", "field"."""
    if kind == "recruit":
        return _p("city kind", "recruit")
    if kind == "monster":
        return _p("city kind", "monster")
    return _p("city kind", "field")


#: An order in a row written out in one line ("■ red ■ × blue ■"): the road's colour in a word.
ROW_MARK = {"red": N_p("row", "red"), "yellow": N_p("row", "yellow"), "blue": N_p("row", "blue"),
            "lightblue": N_p("row", "lightblue"), "purple": N_p("row", "purple")}


def row_mark(order: str) -> str:
    if order in ROW_MARK:
        return _p("row", ROW_MARK[order])
    return {ACT: "■", WAIT: "×"}.get(order, order)


_mark = row_mark
