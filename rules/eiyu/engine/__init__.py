"""The rules: setup, who acts, what is legal, and ``apply`` with the year's resolution, the shows of strength
and the final rankings (counted in ``scores``).  Pure: the state is copied, never changed in place."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rules.core import GameOver, IllegalAction, NotYourTurn, Outcome, Rng, SeatInfo, Step, copier, seed_state
from rules.eiyu.content import ACT, WAIT, Library, library
from rules.eiyu.engine.scores import TRACKS, awake_titan, has_troops, rank, scores, shows_of, wakes_of, years_of
from rules.eiyu.i18n import N_n, _, _n, _p, city_name, comma, soldier_name
from rules.eiyu.state import (
    AutoRow,
    Building,
    ChipFlipped,
    ChipLaid,
    ChooseCity,
    CityChosen,
    DummyRaised,
    EiyuAction,
    EiyuEvent,
    GameWon,
    Hunted,
    Lock,
    Locked,
    Moved,
    Pending,
    Player,
    Programmed,
    RaiseDummy,
    Recruited,
    Resolving,
    Reveal,
    RewardsTaken,
    SetOrder,
    SetRow,
    ShowBegins,
    ShowChosen,
    Shown,
    Shuffled,
    State,
    TakeRewards,
    TitanSlain,
    TitanWakes,
    Waited,
    YearBegins,
    YearEnds,
)
from rules.spec import number

_copy = copier(State)
#: Whom the game waits for, by phase: "Not you just now: Ann is choosing a starting city."
WAITING = {
    "city": N_n("Not you just now: {names} is choosing a starting city.",
                "Not you just now: {names} are choosing a starting city."),
    "program": N_n("Not you just now: {names} is programming their year.",
                   "Not you just now: {names} are programming their year."),
    "reward": N_n("Not you just now: {names} is choosing a hunt's rewards.",
                  "Not you just now: {names} are choosing a hunt's rewards."),
    "dummy": N_n("Not you just now: {names} is raising the dummy player.",
                 "Not you just now: {names} are raising the dummy player."),
    "show": N_n("Not you just now: {names} is deciding what to show.",
                "Not you just now: {names} are deciding what to show."),
    "": N_n("Not you just now: {names} is acting.", "Not you just now: {names} are acting."),
}


# --- the game ------------------------------------------------------------------------------------------------


#: Tabula's planner for a row (``auto.plan``), given to the game by its ruleset: the rules never import the
#: policy that plays them.
Planner = Callable[[State, int, Rng], tuple[str, ...]]


def _wait_all(state: State, seat: int, rng: Rng) -> tuple[str, ...]:
    return tuple([WAIT] * library().slots)


class Engine:
    """The Heroes' Road's rules: a year programmed in secret, resolved slot by slot, the shows of strength
    and the final rankings."""

    def __init__(self, lib: Library | None = None, planner: Planner | None = None) -> None:
        self.lib = lib or library()
        self.planner: Planner = planner or _wait_all

    def setup(self, seats: Sequence[SeatInfo], options: Mapping[str, object], seed: int) -> Step[State, EiyuEvent]:
        lib = self.lib
        rng = Rng(seed_state(seed))
        n = len(seats)
        short = bool(options.get("short", False))
        chips = rng.shuffle(list(range(len(lib.chips))))
        ranking = rng.shuffle(list(TRACKS))
        start = rng.below(n)
        slot = [-1] * len(lib.cities)
        for c in lib.cities:
            if c.kind in ("recruit", "monster"):
                slot[c.id - 1] = chips.pop(0)
        half = len(chips) // 2
        state = State(
            players=[Player(name=s.name) for s in seats], short=bool(options.get("short", False)),
            dummy=self._dummy_start(n, short) if n <= lib.dummy_at_most else None,
            ranking=ranking, slot=slot, taken=[0] * len(lib.cities), recruit_pile=chips[:half],
            monster_pile=chips[half:], buildings=[Building() for _ in lib.cities],
            fame={a.id: [0] * n for a in lib.areas if not a.hidden}, titans=["asleep"] * len(lib.titans),
            acted=[[] for _ in seats], start=start, turn=start, rng=rng.state)
        return Step(state=state, events=(Shuffled(ranking=tuple(ranking), start=start),))

    def _dummy_start(self, players: int, short: bool) -> list[int]:
        """The dummy's starting scores; the short game scales them to its shorter length."""
        start = self.lib.dummy.start_for(players)
        if not short:
            return list(start)
        return [round(v * self.lib.short_years / self.lib.years) for v in start]

    # --- who acts and what they may do -------------------------------------------------------------------

    def to_act(self, s: State) -> frozenset[int]:
        if s.phase == "city":
            return frozenset({s.turn})
        if s.phase == "program":
            return frozenset(i for i, p in enumerate(s.players) if not p.locked)
        if s.phase in ("reward", "dummy") and s.pending is not None:
            return frozenset({s.pending.seat})
        if s.phase == "show":
            return frozenset(i for i, p in enumerate(s.players) if p.reveal is None)
        return frozenset()

    def legal(self, s: State, seat: int) -> list[EiyuAction]:
        if seat not in self.to_act(s):
            return []
        lib = self.lib
        if s.phase == "city":
            return [ChooseCity(city=c.id) for c in lib.cities]
        if s.phase == "program":
            row = s.players[seat].row
            out: list[EiyuAction] = [SetOrder(slot=k, order=o) for k in range(lib.slots) for o in lib.orders
                                     if row[k] != o]
            if any(o != ACT for o in row):
                out.append(SetRow(orders=tuple([ACT] * lib.slots)))
            out.append(Lock())
            out.append(AutoRow())
            return out
        if s.phase == "reward" and s.pending is not None:
            return list(self.reward_choices(s, s.pending.city))
        if s.phase == "dummy":
            return [RaiseDummy(track=t) for t in TRACKS]
        if s.phase == "show":
            held = sorted(set(s.players[seat].soldiers))
            subsets = [""]
            for t in held:
                subsets += [x + str(t) for x in subsets]
            return [Reveal(types=x) for x in sorted(subsets, key=lambda x: (-len(x), x))]
        return []

    def reward_choices(self, s: State, city: int) -> list[TakeRewards]:
        areas = [a.id for a in self.lib.areas_of(city)]
        out = [TakeRewards(first="building", second="gold")]
        for first in ("building", "gold"):
            out += [TakeRewards(first=first, second="fame", area=a) for a in areas]
        return out

    # --- the end and the moment --------------------------------------------------------------------

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over" or state.winner is None:
            return None
        n = len(state.players)
        points = scores(state, self.lib)
        names = [p.name for p in state.players]
        if state.winner == n:
            summary = _("The dummy player outlasts everyone: no hero this time. (Last out: {name}.)",
                        name=names[state.out[-1]] if state.out and state.out[-1] < n else "—")
            winners: tuple[int, ...] = ()
        else:
            summary = _("{name} is the hero of the road!", name=names[state.winner])
            winners = (state.winner,)
        # the score of a seat: how long it lasted in the rankings, then its three scores added up
        order = [*state.out, state.winner]
        result = {i: order.index(i) * 1000 + sum(points[t][i] for t in points) for i in range(n)}
        return Outcome(winners=winners, scores=result, summary=summary)

    def moment(self, state: State) -> int:
        return state.stamp

    # --- apply ------------------------------------------------------------------------------------------

    def apply(self, state: State, seat: int, action: EiyuAction) -> Step[State, EiyuEvent]:
        if state.phase == "over":
            raise GameOver(_("The game is over: the rankings have named the hero."))
        if state.phase == "program" and 0 <= seat < len(state.players) and state.players[seat].locked:
            raise IllegalAction(_("You have locked in your orders for this year; they resolve when everyone "
                                  "has locked in."))
        if seat not in self.to_act(state):
            raise NotYourTurn(self._who_acts(state))
        s = _copy(state)
        events: list[Any] = []
        if isinstance(action, ChooseCity):
            self._choose_city(s, seat, action, events)
        elif isinstance(action, (SetOrder, SetRow, Lock)):
            self._program(s, seat, action, events)
        elif isinstance(action, AutoRow):
            self._need_phase(s, "program", _("Orders are programmed at the start of a year."))
            rng = Rng(s.rng)
            row = self.planner(s, seat, rng)
            s.rng = rng.state
            self._program(s, seat, SetRow(orders=row, lock=True), events)
        elif isinstance(action, TakeRewards):
            self._rewards(s, seat, action, events)
        elif isinstance(action, RaiseDummy):
            self._raise(s, seat, action, events)
        elif isinstance(action, Reveal):
            self._reveal(s, seat, action, events)
        else:
            raise IllegalAction(_("That is not a move in this game."))
        return Step(state=s, events=tuple(events))

    def _who_acts(self, s: State) -> str:
        names = [s.players[i].name for i in sorted(self.to_act(s))]
        who, n = comma(names), len(names)
        singular, plural = WAITING.get(s.phase, WAITING[""])
        return _n(singular, plural, n, names=who)

    def _need_phase(self, s: State, phase: str, what: str) -> None:
        if s.phase != phase:
            # TRANSLATORS: a rule ("Rewards are chosen right after a hunt.") and who acts now, one after the other
            raise IllegalAction(_("{rule} {who}", rule=what, who=self._who_acts(s)))

    def _choose_city(self, s: State, seat: int, a: ChooseCity, events: list[Any]) -> None:
        self._need_phase(s, "city", _("Starting cities are chosen before the first year."))
        if not 1 <= a.city <= len(self.lib.cities):
            raise IllegalAction(_("Choose a city from 1 to {last}.", last=len(self.lib.cities)))
        s.players[seat].city = a.city
        events.append(CityChosen(seat=seat, city=a.city))
        s.stamp += 1
        unplaced = [i for i in range(len(s.players)) if s.players[(s.start + i) % len(s.players)].city == 0]
        if unplaced:
            s.turn = (s.start + unplaced[0]) % len(s.players)
        else:
            self._begin_year(s, events)

    def _program(self, s: State, seat: int, a: SetOrder | SetRow | Lock, events: list[Any]) -> None:
        self._need_phase(s, "program", _("Orders are programmed at the start of a year."))
        lib, p = self.lib, s.players[seat]
        if isinstance(a, SetOrder):
            if not 0 <= a.slot < lib.slots:
                raise IllegalAction(_("Choose a slot from 1 to {last}.", last=lib.slots))
            self._check_order(a.order)
            p.row[a.slot] = a.order
            events.append(Programmed(seat=seat))
            return
        if isinstance(a, SetRow):
            if len(a.orders) != lib.slots:
                raise IllegalAction(_n("A row holds exactly {n} order, e.g. `act,red,act,blue,wait,act`.",
                                       "A row holds exactly {n} orders, e.g. `act,red,act,blue,wait,act`.", lib.slots))
            for o in a.orders:
                self._check_order(o)
            p.row = list(a.orders)
            events.append(Programmed(seat=seat))
            if not a.lock:
                return
        p.locked = True
        events.append(Locked(seat=seat))
        if all(q.locked for q in s.players):
            events.append(Resolving(year=s.year))
            s.stamp += 1
            self._resolve(s, events)

    def _check_order(self, order: str) -> None:
        if order not in self.lib.orders:
            colours = comma([_p("value", c) for c in self.lib.colours])  # as the reader may type them
            raise IllegalAction(_("An order is `act` (recruit or hunt), `wait`, or a road colour: {colours}.",
                                  colours=colours))

    def _begin_year(self, s: State, events: list[Any]) -> None:
        s.phase = "program"
        s.cursor = 0
        s.pending = None
        events.append(YearBegins(year=s.year, start=s.start))
        for i, t in enumerate(s.titans):
            if t == "asleep" and wakes_of(s, i, self.lib) <= s.year:
                s.titans[i] = "awake"
                events.append(TitanWakes(titan=i))
        for p in s.players:
            p.row = [ACT] * self.lib.slots
            p.locked = False
            p.reveal = None
            p.path = [p.city]
        s.acted = [[] for _ in s.players]
        s.stamp += 1

    # --- the year's resolution -------------------------------------------------------------------------

    def _resolve(self, s: State, events: list[Any]) -> None:
        """Carry out the orders one at a time: every player's first slot in seat order from the start player,
        then every second slot, and so on; a hunt's rewards hold it up until the hunter has chosen."""
        n = len(s.players)
        s.phase = "resolve"
        while s.cursor < self.lib.slots * n:
            slot, k = divmod(s.cursor, n)
            seat = (s.start + k) % n
            s.cursor += 1
            self._order(s, seat, slot, events)
            if s.pending is not None:
                s.phase = s.pending.kind
                return
        events.append(YearEnds(year=s.year, paths=tuple(tuple(p.path) for p in s.players)))
        shows = shows_of(s, self.lib)
        if s.year in shows:
            events.append(ShowBegins(show=shows.index(s.year)))
            s.phase = "show"
            for p in s.players:
                p.reveal = None if p.soldiers else ""
            s.stamp += 1
            if not self.to_act(s):
                self._show(s, events)
            return
        self._next_year(s, events)

    def _next_year(self, s: State, events: list[Any]) -> None:
        if s.year >= years_of(s, self.lib):
            self._finish(s, events)
            return
        s.year += 1
        s.start = (s.start + 1) % len(s.players)
        self._begin_year(s, events)

    def _order(self, s: State, seat: int, slot: int, events: list[Any]) -> None:
        lib, p = self.lib, s.players[seat]
        order, here = p.row[slot], p.city
        if order == WAIT:
            events.append(Waited(seat=seat, slot=slot, order=order, city=here, why="wait"))
            return
        if order != ACT:
            to = lib.road(here, order)
            if to is None:
                events.append(Waited(seat=seat, slot=slot, order=order, city=here, why="no_road"))
                return
            p.city = to
            p.path.append(to)
            events.append(Moved(seat=seat, slot=slot, colour=order, origin=here, to=to))
            return
        if here in s.acted[seat]:
            events.append(Waited(seat=seat, slot=slot, order=order, city=here, why="acted"))
            return
        chip, kind = s.slot[here - 1], lib.city(here).kind
        titan = awake_titan(s)
        if chip >= 0 and kind == "monster" and has_troops(p.soldiers, lib.chip(chip).needs):
            self._hunt(s, seat, slot, here, chip, events)
        elif chip >= 0 and kind == "recruit":
            self._recruit(s, seat, slot, here, chip, events)
        elif titan is not None and len(p.soldiers) >= lib.titans[titan].cost:
            self._titan(s, seat, slot, here, titan, events)
        else:
            why = "troops" if chip >= 0 or titan is not None else "nothing"
            events.append(Waited(seat=seat, slot=slot, order=order, city=here, why=why))

    def _recruit(self, s: State, seat: int, slot: int, city: int, chip: int, events: list[Any]) -> None:
        soldiers = self.lib.chip(chip).soldiers
        soldier = soldiers[s.taken[city - 1]]
        s.taken[city - 1] += 1
        p = s.players[seat]
        p.soldiers = sorted([*p.soldiers, soldier])
        s.acted[seat].append(city)
        events.append(Recruited(seat=seat, slot=slot, city=city, soldier=soldier))
        if s.taken[city - 1] >= len(soldiers):
            s.slot[city - 1], s.taken[city - 1] = -1, 0
            s.monster_pile.append(chip)
            events.append(ChipFlipped(city=city, chip=chip, became="monster"))
            self._refill(s, events)

    def _hunt(self, s: State, seat: int, slot: int, city: int, chip: int, events: list[Any]) -> None:
        p = s.players[seat]
        needs = self.lib.chip(chip).needs
        rest = list(p.soldiers)
        for t in needs:
            rest.remove(t)
        p.soldiers = rest
        s.acted[seat].append(city)
        events.append(Hunted(seat=seat, slot=slot, city=city, chip=chip, spent=tuple(sorted(needs))))
        s.slot[city - 1] = -1
        s.recruit_pile.append(chip)
        events.append(ChipFlipped(city=city, chip=chip, became="recruit"))
        self._refill(s, events)
        s.pending = Pending(kind="reward", seat=seat, chip=chip, city=city)
        s.stamp += 1

    def _titan(self, s: State, seat: int, slot: int, city: int, titan: int, events: list[Any]) -> None:
        p, t = s.players[seat], self.lib.titans[titan]
        p.soldiers = p.soldiers[t.cost:]  # the weakest soldiers pay (house rule)
        p.gold += t.gold
        p.renown += t.fame
        s.titans[titan] = "slain"
        s.acted[seat].append(city)
        events.append(TitanSlain(seat=seat, slot=slot, city=city, titan=titan, paid=t.cost, gold=t.gold,
                                 fame=t.fame))

    def _refill(self, s: State, events: list[Any]) -> None:
        """Every city left without its chip takes the first waiting chip of its kind, if one is waiting."""
        for c in self.lib.cities:
            if s.slot[c.id - 1] >= 0 or c.kind == "field":
                continue
            pile = s.recruit_pile if c.kind == "recruit" else s.monster_pile
            if pile:
                s.slot[c.id - 1] = pile.pop(0)
                s.taken[c.id - 1] = 0
                events.append(ChipLaid(city=c.id, chip=s.slot[c.id - 1], side=c.kind))

    # --- a hunt's rewards, the dummy --------------------------------------------------------------------

    def _rewards(self, s: State, seat: int, a: TakeRewards, events: list[Any]) -> None:
        self._need_phase(s, "reward", _("Rewards are chosen right after a hunt."))
        pend = s.pending
        assert pend is not None
        if a not in self.reward_choices(s, pend.city):
            areas = comma(x.id for x in self.lib.areas_of(pend.city))
            raise IllegalAction(_("Take two different rewards of the three (building, gold, fame); with fame, "
                                  "name an area around city {city}: {areas}.", city=city_name(pend.city),
                                  areas=areas))
        lib, p, chip = self.lib, s.players[seat], self.lib.chip(pend.chip)
        taken = {a.first, a.second}
        gold = chip.gold if "gold" in taken else 0
        p.gold += gold
        fame, area, hidden = 0, "", 0
        if "building" in taken:
            p.held += chip.building
        if "fame" in taken:
            if lib.area(a.area).hidden:
                p.central += chip.fame
                hidden += 1
            else:
                s.fame[a.area][seat] += chip.fame
                fame, area = chip.fame, a.area
        built = self._build(s, seat, pend.city)
        if "building" in taken and built < chip.building:
            hidden += 1
        events.append(RewardsTaken(seat=seat, city=pend.city, gold=gold, built=built,
                                   built_city=pend.city if built else 0, fame=fame, area=area, hidden=hidden))
        s.stamp += 1
        if s.dummy is not None:
            s.pending = Pending(kind="dummy", seat=seat, chip=pend.chip, city=pend.city)
            s.phase = "dummy"
            return
        s.pending = None
        self._resolve(s, events)

    def _build(self, s: State, seat: int, city: int) -> int:
        """Building chips held are built in the city of the hunt when the hunter may build there: nobody else's
        building stands there and it has fewer than the most levels."""
        p, b = s.players[seat], s.buildings[city - 1]
        if p.held == 0 or b.owner not in (-1, seat) or b.levels >= self.lib.building.max_levels:
            return 0
        n = min(p.held, self.lib.building.max_levels - b.levels)
        b.owner, b.levels = seat, b.levels + n
        p.held -= n
        return n

    def _raise(self, s: State, seat: int, a: RaiseDummy, events: list[Any]) -> None:
        self._need_phase(s, "dummy", _("The dummy player is raised right after a hunt."))
        if a.track not in TRACKS or s.dummy is None:
            raise IllegalAction(_("Raise one of the dummy player's tracks: fame, gold or building."))
        k = TRACKS.index(a.track)
        step = (self.lib.dummy.fame_step, self.lib.dummy.gold_step, self.lib.dummy.building_step)[k]
        s.dummy[k] += step
        events.append(DummyRaised(seat=seat, track=a.track, by=step, now=s.dummy[k]))
        s.pending = None
        s.stamp += 1
        self._resolve(s, events)

    # --- the show of strength ---------------------------------------------------------------------------

    def _reveal(self, s: State, seat: int, a: Reveal, events: list[Any]) -> None:
        self._need_phase(s, "show", _("Soldiers are shown at a show of strength."))
        held = set(s.players[seat].soldiers)
        types = "".join(sorted(set(a.types)))
        if any(number(ch) not in held for ch in types) or len(types) != len(a.types):
            names = comma(_("{number} ({soldier})", number=t, soldier=soldier_name(t, self.lib.soldier(t).name))
                            for t in sorted(held))
            raise IllegalAction(_("Show any of the soldier types you hold — {types} — or nothing.", types=names))
        s.players[seat].reveal = types
        events.append(ShowChosen(seat=seat))
        if not self.to_act(s):
            self._show(s, events)

    def _show(self, s: State, events: list[Any]) -> None:
        lib = self.lib
        index = shows_of(s, lib).index(s.year)
        shown = tuple(tuple(p.soldiers.count(t) if str(t) in (p.reveal or "") else 0 for t in range(1, 5))
                      for p in s.players)
        winners, rewards = [], []
        for r in lib.year_track.reward:
            counts = [row[r.soldier - 1] for row in shown]
            top = max(counts)
            amount = r.amounts[min(index, len(r.amounts) - 1)]
            rewards.append(f"{r.kind} {amount}")
            if top == 0 or counts.count(top) > 1:
                winners.append(-1)
                continue
            w = counts.index(top)
            winners.append(w)
            if r.kind == "gold":
                s.players[w].gold += amount
            else:
                s.players[w].renown += amount
        events.append(Shown(show=index, shown=shown, winners=tuple(winners), rewards=tuple(rewards)))
        s.stamp += 1
        self._next_year(s, events)

    # --- the end ----------------------------------------------------------------------------------------

    def _finish(self, s: State, events: list[Any]) -> None:
        points = scores(s, self.lib)
        ranked, winner = rank(s.ranking, points, [len(p.soldiers) for p in s.players], s.start, len(s.players),
                              s.dummy is not None)
        events.extend(ranked)
        s.out = [r.out for r in ranked]
        s.winner = winner
        s.phase = "over"
        s.stamp += 1
        events.append(GameWon(winner=winner, fame=tuple(points["fame"]), gold=tuple(points["gold"]),
                              building=tuple(points["building"])))
