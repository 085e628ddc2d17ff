"""The Heroes' Road told in words: each event as the lines posted in the game's thread, one small function per
event type (``TELLERS``).

Public lines carry only what everyone may know: a row is never told before its orders resolve, a reward that
goes into the hidden centre is told as "hidden", and what a player shows at a show of strength is told only
once everyone has chosen.  Players are named as the table seats them (``name_of``: a seat may have changed
hands since the game began)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from rules.eiyu.content import Library, library
from rules.eiyu.i18n import (
    _,
    _n,
    a_soldier,
    and_list,
    city_name,
    colour_name,
    comma,
    order_name,
    place,
    semicolon,
    soldier_count,
    soldier_name,
    track,
)
from rules.eiyu.state import (
    ChipFlipped,
    ChipLaid,
    CityChosen,
    DummyRaised,
    GameWon,
    Hunted,
    Locked,
    Moved,
    Programmed,
    Ranked,
    Recruited,
    Resolving,
    RewardsTaken,
    ShowBegins,
    ShowChosen,
    Shown,
    Shuffled,
    TitanSlain,
    TitanWakes,
    Waited,
    YearBegins,
    YearEnds,
)
from rules.eiyu.view import EiyuView
from rules.spec import number
from rules.telling import Teller, by_event, tell_each


@dataclass(slots=True)
class Scene:
    """One telling: the public view after the step, its events, the seats' names and who must still act."""

    view: EiyuView
    events: Sequence[object]
    name_of: Callable[[int], str]
    waiting: frozenset[int] = frozenset()
    lib: Library = field(default_factory=library)
    lines: list[str] = field(default_factory=list)

    def name(self, seat: int) -> str:
        """A contestant of the rankings: a player, or the dummy (the seat after the last player)."""
        if seat >= len(self.view.players):
            return _("the dummy player")
        return self.name_of(seat)

    def add(self, line: str) -> None:
        self.lines.append(line)


def tell(view: EiyuView, events: Iterable[object], *, name_of: Callable[[int], str],
         waiting: frozenset[int] = frozenset()) -> list[str]:
    """The lines everyone may read about ``events`` (``view``: the public view after them; ``waiting``: the
    seats that must act next)."""
    scene = Scene(view=view, events=list(events), name_of=name_of, waiting=waiting)
    tell_each(TELLERS, scene, scene.events)
    return scene.lines


# --- the words the tellings share ---------------------------------------------------------------------


def why_text(why: str, player: str, city: int, slot: int, order: str) -> str:
    """A ■ or a move that came to nothing: "`3` Ann in 4 has no purple road here: waits"."""
    if why == "wait":
        return _("`{slot}` {player} in {city} waits (×)", slot=slot, player=player, city=city_name(city))
    if why == "no_road":
        return _("`{slot}` {player} in {city} has no {colour} road here: waits", slot=slot, player=player,
                 city=city_name(city), colour=colour_name(order))
    if why == "acted":
        return _("`{slot}` {player} in {city} has already acted here this year: waits", slot=slot, player=player,
                 city=city_name(city))
    if why == "nothing":
        return _("`{slot}` {player} in {city} finds nothing to do here: waits", slot=slot, player=player,
                 city=city_name(city))
    return _("`{slot}` {player} in {city} lacks the troops for what is here: waits", slot=slot, player=player,
             city=city_name(city))


def soldiers_text(soldiers: tuple[int, ...] | list[int]) -> str:
    if not soldiers:
        return _("no soldiers")
    return comma(soldier_count(t, list(soldiers).count(t)) for t in sorted(set(soldiers)))


def reward_text(reward: str) -> str:
    """A show's reward as the event records it ("gold 3", "fame 2"), in words."""
    kind, _sep, amount = reward.partition(" ")
    n = number(amount)
    if kind == "gold" and n is not None:
        return _("gold {n}", n=n)
    if kind == "fame" and n is not None:
        return _("fame {n}", n=n)
    return reward


# --- one function per event -------------------------------------------------------------------------


def city_chosen(scene: Scene, e: CityChosen) -> None:
    scene.add(_("📍 {player} starts in city {city}.", player=scene.name_of(e.seat), city=city_name(e.city)))


def year_begins(scene: Scene, e: YearBegins) -> None:
    scene.add(_("📅 **Year {year}** begins; {player} is the start player. Everyone programs six orders in secret.",
                year=e.year, player=scene.name_of(e.start)))


def titan_wakes(scene: Scene, e: TitanWakes) -> None:
    t = scene.lib.titans[e.titan]
    scene.add(_n("🌋 **{titan}** wakes! ■ act where nothing else can be done fights it: {n} soldier of any kind for "
                 "{gold} gold and {fame} fame.",
                 "🌋 **{titan}** wakes! ■ act where nothing else can be done fights it: {n} soldiers of any kind for "
                 "{gold} gold and {fame} fame.", t.cost, titan=_(t.name), gold=t.gold, fame=t.fame))


def programmed(scene: Scene, e: Programmed) -> None:
    if not any(isinstance(x, Locked) and x.seat == e.seat for x in scene.events):
        scene.add(_("✏️ {player} adjusts their orders (kept secret).", player=scene.name_of(e.seat)))


def locked(scene: Scene, e: Locked) -> None:
    scene.add(_("🔒 {player} has locked in their orders.", player=scene.name_of(e.seat)))
    # the last lock-in resolves the year (and may begin the next): nobody is still programming it
    if scene.view.phase == "program" and not any(isinstance(x, Resolving) for x in scene.events):
        waiting = [scene.name_of(s) for s in sorted(scene.waiting)]
        scene.add(_("Still programming: {players}.", players=comma(waiting)))


def resolving(scene: Scene, e: Resolving) -> None:
    scene.add(_("⚙️ **Year {year} resolves**, slot by slot in seat order:", year=e.year))


def moved(scene: Scene, e: Moved) -> None:
    scene.add(_("`{slot}` {player}: {order} {origin} → {city}", slot=e.slot + 1, player=scene.name_of(e.seat),
                order=order_name(e.colour), origin=e.origin, city=city_name(e.to)))


def waited(scene: Scene, e: Waited) -> None:
    scene.add(why_text(e.why, scene.name_of(e.seat), e.city, e.slot + 1, e.order))


def recruited(scene: Scene, e: Recruited) -> None:
    scene.add(_("`{slot}` {player} recruits **{soldier}** in {city}", slot=e.slot + 1, player=scene.name_of(e.seat),
                soldier=a_soldier(e.soldier), city=city_name(e.city)))


def chip_flipped(scene: Scene, e: ChipFlipped) -> None:
    chip = scene.lib.chip(e.chip)
    if e.became == "monster":
        scene.add(_("   ↪ the recruitment chip of {city} is empty and turns over: **{monster}** joins the waiting "
                    "monsters", city=city_name(e.city), monster=_(chip.monster)))
    else:
        scene.add(_("   ↪ the {monster} chip turns over to its recruitment side and waits", monster=_(chip.monster)))


def chip_laid(scene: Scene, e: ChipLaid) -> None:
    chip = scene.lib.chip(e.chip)
    if e.side == "monster":
        scene.add(_("   ↪ the monster **{monster}** (needs {soldiers}) is laid in {city}", monster=_(chip.monster),
                    soldiers=soldiers_text(list(chip.needs)), city=city_name(e.city)))
    else:
        scene.add(_("   ↪ a recruitment chip ({soldiers}) is laid in {city}",
                    soldiers=soldiers_text(list(chip.soldiers)), city=city_name(e.city)))


def hunted(scene: Scene, e: Hunted) -> None:
    chip = scene.lib.chip(e.chip)
    scene.add(_("`{slot}` ⚔️ {player} hunts the **{monster}** in {city}, spending {soldiers}!", slot=e.slot + 1,
                player=scene.name_of(e.seat), monster=_(chip.monster), city=city_name(e.city),
                soldiers=soldiers_text(list(e.spent))))


def rewards_taken(scene: Scene, e: RewardsTaken) -> None:
    scene.add(_("   🎁 {rewards}", rewards=rewards_line(scene.name_of(e.seat), e, scene.lib)))


def rewards_line(player: str, e: RewardsTaken, lib: Library | None = None) -> str:
    """"Ann takes 3 gold and builds 1 level in city 2 Hoshimi." — what everyone may see of a hunter's rewards."""
    lib = lib or library()
    parts = []
    if e.gold:
        parts.append(_("takes {n} gold", n=e.gold))
    if e.built:
        parts.append(_n("builds {n} level in city {city}", "builds {n} levels in city {city}", e.built,
                        city=city_name(e.built_city)))
    if e.fame:
        parts.append(_n("places {n} fame chip in {area}", "places {n} fame chips in {area}", e.fame,
                        area=place(lib.area(e.area).name)))
    if e.hidden:
        parts.append(_("keeps a reward hidden") if e.hidden == 1 else _("keeps both rewards hidden"))
    return _("{player} {rewards}.", player=player, rewards=and_list(parts) if parts else _("takes nothing"))


def dummy_raised(scene: Scene, e: DummyRaised) -> None:
    scene.add(_("   🎭 {player} raises the dummy's {track} by {n} (now {now}).", player=scene.name_of(e.seat),
                track=track(e.track), n=e.by, now=e.now))


def titan_slain(scene: Scene, e: TitanSlain) -> None:
    t = scene.lib.titans[e.titan]
    scene.add(_n("`{slot}` 🗡️ {player} fells **{titan}** in {city} with {n} soldier: +{gold} gold, +{fame} fame.",
                 "`{slot}` 🗡️ {player} fells **{titan}** in {city} with {n} soldiers: +{gold} gold, +{fame} fame.",
                 e.paid, slot=e.slot + 1, player=scene.name_of(e.seat), titan=_(t.name), city=city_name(e.city),
                 gold=e.gold, fame=e.fame))


def year_ends(scene: Scene, e: YearEnds) -> None:
    trail = semicolon(_("{player} {path}", player=scene.name_of(i), path=" → ".join(map(str, p)))
                      for i, p in enumerate(e.paths))
    scene.add(_("🏁 Year {year} is over. Paths: {paths}.", year=e.year, paths=trail))


def show_begins(scene: Scene, e: ShowBegins) -> None:
    scene.add(_("💪 **Show of strength {number}**: each player chooses in secret which soldier types to show (press "
                "**Your orders**).", number=e.show + 1))


def show_chosen(scene: Scene, e: ShowChosen) -> None:
    scene.add(_("🤫 {player} has chosen what to show.", player=scene.name_of(e.seat)))
    if scene.view.phase == "show":
        waiting = [scene.name_of(s) for s in sorted(scene.waiting)]
        scene.add(_("Still choosing: {players}.", players=comma(waiting)))


def shown(scene: Scene, e: Shown) -> None:
    scene.add(_("💪 Show of strength {number} revealed:", number=e.show + 1))
    for i, row in enumerate(e.shown):
        counts = [soldier_count(t + 1, c) for t, c in enumerate(row) if c]
        if counts:
            scene.add(_("   {player} shows {soldiers}", player=scene.name_of(i), soldiers=comma(counts)))
        else:
            scene.add(_("   {player} shows nothing", player=scene.name_of(i)))
    for t, w in enumerate(e.winners):
        kind = soldier_name(t + 1, scene.lib.soldier(t + 1).name)
        if w >= 0:
            scene.add(_("   {soldier}: {player} takes {reward}", soldier=kind, player=scene.name_of(w),
                        reward=reward_text(e.rewards[t])))
        else:
            scene.add(_("   {soldier}: nobody (no single most)", soldier=kind))


def ranked(scene: Scene, e: Ranked) -> None:
    if not any(x.startswith("📊") for x in scene.lines):
        reveal_centre(scene)  # the climax: the hidden chips count in the fame ranking that follows
        scene.add(final_scores(scene))
    scene.add(ranked_line(scene, e))


def final_scores(scene: Scene) -> str:
    won = next(e for e in scene.events if isinstance(e, GameWon))
    scores = semicolon(_("{player} fame {fame}, gold {gold}, building {building}", player=scene.name(i),
                         fame=won.fame[i], gold=won.gold[i], building=won.building[i]) for i in range(len(won.fame)))
    order = " → ".join(track(t) for t in scene.view.ranking)
    return _("📊 Final scores: {scores}. The rankings follow ({order}):", scores=scores, order=order)


def ranked_line(scene: Scene, e: Ranked) -> str:
    order = " > ".join(_("{player} {score}", player=scene.name(c), score=s) for c, s in zip(e.order, e.scores,
                                                                                            strict=True))
    out = scene.name(e.out)
    heads = {"fame": _("Fame ranking"), "gold": _("Gold ranking"), "building": _("Building ranking")}
    head = heads.get(e.track, e.track)
    if e.why == "soldiers":
        return _("🏆 **{ranking}**: {order} — **{player}** is out (tied: fewer soldiers in hand).", ranking=head,
                 order=order, player=out)
    if e.why == "start":
        return _("🏆 **{ranking}**: {order} — **{player}** is out (tied, same soldiers: nearer the start player).",
                 ranking=head, order=order, player=out)
    if e.why == "dummy":
        return _("🏆 **{ranking}**: {order} — **{player}** is out (tied: the dummy loses ties).", ranking=head,
                 order=order, player=out)
    return _("🏆 **{ranking}**: {order} — **{player}** is out.", ranking=head, order=order, player=out)


def reveal_centre(scene: Scene) -> None:
    """The Hidden Heartland's chips, told once, before the rankings they decide."""
    centre = scene.view.centre or ()
    if centre and not any(x.startswith("🔓") for x in scene.lines):
        scene.add(_("🔓 The Hidden Heartland is revealed: {chips} fame chips.", chips=comma(
            _("{player} {n}", player=scene.name_of(i), n=c) for i, c in enumerate(centre))))


def shuffled(scene: Scene, e: Shuffled) -> None:
    """The draw at setup: the ranking order (which score is ranked first at the end) and who chooses first."""
    scene.add(_("🎲 Drawn for this game: the rankings at the end go {order}; {player} chooses a starting city first.",
                order=" → ".join(track(t) for t in e.ranking), player=scene.name_of(e.start)))


def game_won(scene: Scene, e: GameWon) -> None:
    reveal_centre(scene)
    if e.winner == len(scene.view.players):
        scene.add(_("👑 The last one standing: **the dummy player — no hero this time**."))
    else:
        scene.add(_("👑 The last one standing: **{player}**.", player=scene.name_of(e.winner)))


#: Every event of the game and the function that tells it.
TELLERS: dict[type, Teller[Scene]] = by_event(
    city_chosen, year_begins, titan_wakes, programmed, locked, resolving, moved, waited, recruited, chip_flipped,
    chip_laid, hunted, rewards_taken, dummy_raised, titan_slain, year_ends, show_begins, show_chosen, shown, ranked,
    game_won, shuffled,
)
