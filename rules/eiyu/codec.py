"""The game's words: every button, menu entry, autocomplete value and typed command is one of these.

``/city city:8`` · ``/program slot:2 order:red`` · ``/program row:act,red,act,blue,wait,act`` (``lock:yes`` locks
it in too) · ``/lock`` · ``/choose option:gold+fame@north`` (a hunt's rewards) · ``/choose option:dummy-fame`` ·
``/choose option:show-13`` or ``show-none`` (a show of strength)."""

from __future__ import annotations

from rules.core import IllegalAction
from rules.eiyu.auto import Step, preview
from rules.eiyu.content import ACT, WAIT, library
from rules.eiyu.engine import TRACKS
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
from rules.spec import Command

ALIASES = {"green": ACT, "■": ACT, "hunt": ACT, "recruit": ACT, "x": WAIT, "×": WAIT, "pass": WAIT,
           "light-blue": "lightblue", "light_blue": "lightblue", "cyan": "lightblue", "lb": "lightblue"}
ORDER_NAMES = {ACT: "■ act", WAIT: "× wait", "red": "red road", "yellow": "yellow road", "blue": "blue road",
               "lightblue": "light-blue road", "purple": "purple road"}
TRACK_NAMES = {"fame": "fame", "gold": "gold", "building": "building"}


def order_of(word: str) -> str:
    w = word.strip().lower()
    w = ALIASES.get(w, w)
    lib = library()
    if w not in lib.orders:
        raise IllegalAction("An order is `act` (■: recruit or hunt where you stand), `wait` (×), or a road colour: "
                            + ", ".join(lib.colours) + ".")
    return w


def city_name(city: int) -> str:
    return f"{city} {library().city(city).name}"


def did_text(step: Step) -> str:
    """A previewed order in a few words: "→ 8 Yamabe", "recruits an archer", "hunts the Kappa"."""
    lib = library()
    did = step.did
    if did == "move":
        return f"→ {city_name(step.city)}"
    if did.startswith("recruit"):
        name = lib.soldier(int(did.split()[1])).name
        return f"recruits {'an' if name[0] in 'aeiou' else 'a'} {name} in {step.city}"
    if did.startswith("hunt"):
        return f"hunts the {lib.chip(int(did.split()[1])).monster} in {step.city}"
    return {"wait": f"waits in {step.city}", "no_road": f"no such road from {step.city}: waits",
            "acted": f"already acted in {step.city}: waits", "nothing": f"nothing to do in {step.city}: waits",
            "troops": f"lacks the troops in {step.city}: waits", "titan": f"fights the titan in {step.city}"}.get(
                did, did)


class EiyuCodec:
    def parse(self, state: State, seat: int, command: Command) -> EiyuAction:
        verb = command.verb
        lib = library()
        if verb == "city":
            text = command.get("city").strip().split(" ")[0]
            if not text.isdigit():
                names = {c.name.lower(): c.id for c in lib.cities}
                if command.get("city").strip().lower() in names:
                    return ChooseCity(city=names[command.get("city").strip().lower()])
                raise IllegalAction(f"Name a city by its number, 1 to {len(lib.cities)}: `/city city:8`.")
            return ChooseCity(city=int(text))
        if verb == "program":
            if command.get("auto").strip().lower() in ("yes", "true", "1"):
                return AutoRow()
            row = command.get("row").strip()
            if row:
                words = [w for w in row.replace(" ", ",").split(",") if w]
                lock = command.get("lock").strip().lower() in ("yes", "true", "1", "lock")
                return SetRow(orders=tuple(order_of(w) for w in words), lock=lock)
            slot = command.get("slot").strip()
            if not slot.isdigit() or not command.get("order").strip():
                raise IllegalAction(f"Set one slot with `/program slot:2 order:red` (slots 1 to {lib.slots}), or the "
                                    "whole row with `/program row:act,red,act,blue,wait,act`.")
            return SetOrder(slot=int(slot) - 1, order=order_of(command.get("order")))
        if verb == "lock":
            return Lock()
        if verb == "choose":
            option = command.get("option").strip().lower()
            if option.startswith("dummy-"):
                return RaiseDummy(track=option.removeprefix("dummy-"))
            if option.startswith("show-"):
                types = option.removeprefix("show-")
                return Reveal(types="" if types == "none" else types)
            pair, _, area = option.partition("@")
            first, _, second = pair.partition("+")
            if not first or not second:
                raise IllegalAction("Choose two rewards, e.g. `/choose option:gold+fame@north`, a dummy track "
                                    "(`dummy-gold`), or what to show (`show-13`, `show-none`).")
            order = ("building", "gold", "fame")
            a, b = sorted((first, second), key=lambda x: order.index(x) if x in order else 9)
            return TakeRewards(first=a, second=b, area=area)
        raise IllegalAction("This game's commands: `/city`, `/program`, `/lock`, `/choose` and `/hand`.")

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
            roads = "/".join(col for col in lib.colours if lib.road(c.id, col) is not None)
            return f"City {c.id} · {c.name} ({c.kind}; roads {roads})"
        if isinstance(action, SetOrder):
            if arg == "slot":
                return f"Slot {action.slot + 1}"
            if arg == "order":
                return ORDER_NAMES[action.order]
            p = state.players[seat]
            row = list(p.row) if p.row else [ACT] * lib.slots
            row[action.slot] = action.order
            steps = preview(state, seat, row)
            return f"Slot {action.slot + 1}: {ORDER_NAMES[action.order]} — {did_text(steps[action.slot])}"
        if isinstance(action, SetRow):
            if len(action.orders) != lib.slots:
                return "A row of " + str(len(action.orders)) + " orders"
            if all(o == ACT for o in action.orders) and not action.lock:
                return "Reset the row (every slot ■ act)"
            steps = preview(state, seat, action.orders)
            head = "Lock in: " if action.lock else "Row: "
            return head + " ".join(_mark(o) for o in action.orders) + f" — ends in {city_name(steps[-1].city)}"
        if isinstance(action, Lock):
            return "Lock in my orders"
        if isinstance(action, AutoRow):
            return "Let Tabula program and lock in my year" if arg != "auto" else "yes"
        if isinstance(action, RaiseDummy):
            if action.track not in TRACKS:
                return command.typed()
            k = TRACKS.index(action.track)
            step = (lib.dummy.fame_step, lib.dummy.gold_step, lib.dummy.building_step)[k]
            return f"Raise the dummy's {TRACK_NAMES[action.track]} by {step}"
        if isinstance(action, Reveal):
            if not action.types:
                return "Show nothing"
            names = [lib.soldier(int(t)).name for t in action.types if t.isdigit() and 1 <= int(t) <= 4]
            return "Show my " + ", ".join(names)
        return self._reward_label(state, action)

    def _reward_label(self, state: State, action: TakeRewards) -> str:
        lib = library()
        pend = state.pending
        if pend is None:
            return f"{action.first} + {action.second}"
        chip = lib.chip(pend.chip)
        parts = []
        for kind in (action.first, action.second):
            if kind == "gold":
                parts.append(f"{chip.gold} gold")
            elif kind == "building":
                parts.append(f"{chip.building} building chip{'s' if chip.building > 1 else ''}")
            elif kind == "fame":
                where = lib.area(action.area).name if action.area in {a.id for a in lib.areas} else action.area
                parts.append(f"{chip.fame} fame in {where}")
        return " + ".join(parts)


def _mark(order: str) -> str:
    return {ACT: "■", WAIT: "×"}.get(order, order)
