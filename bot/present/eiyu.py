"""The Heroes' Road shown to people: the year's resolution told step by step with the map after it, the
programming panel (private), a hunt's reward choice, the show of strength and the final rankings.

Public messages carry only what everyone may know: a row is never shown before its orders resolve, a reward
that goes into the hidden centre is told as "hidden", and what a player shows at a show of strength is told
only once everyone has chosen.  The private view ``hand`` is each player's panel: their soldiers and chips, their
row previewed on today's map (text and picture) and the controls to change it and lock it in.

Discord allows five rows of controls on a message, so the panel has one menu of suggested whole rows, a menu
for slots 1–3, a menu for slots 4–6 and a row of buttons (reset, lock in, refresh)."""

from __future__ import annotations

from bot.present.base import Button, Menu, Moment, Picture, Prompt, Telling
from render import eiyu as art
from rules.core import Rng
from rules.eiyu.auto import Step, best_rows, board_of_view, preview
from rules.eiyu.codec import did_text, row_mark
from rules.eiyu.content import library
from rules.eiyu.i18n import (
    _,
    _n,
    _p,
    a_soldier,
    city_name,
    colour_name,
    listing,
    order_name,
    place,
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
    TitanSlain,
    TitanWakes,
    Waited,
    YearBegins,
    YearEnds,
)
from rules.eiyu.view import EiyuView
from rules.spec import Command

EiyuMoment = Moment[EiyuView]


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
    return listing(soldier_count(t, list(soldiers).count(t)) for t in sorted(set(soldiers)))


def short_effect(step: Step) -> str:
    """A previewed order in a word or two, for the dial under it."""
    did = step.did
    if did == "move":
        return _("→ {city}", city=step.city)
    if did.startswith("recruit"):
        return _("recruit {soldier}", soldier=did.split()[1])
    word = did.split()[0]
    if word == "titan":
        return _p("dial", "titan!")
    if word == "wait":
        return _p("dial", "wait")
    if word == "no_road":
        return _p("dial", "no road")
    if word == "acted":
        return _p("dial", "done here")
    if word == "nothing":
        return _p("dial", "nothing")
    if word == "troops":
        return _p("dial", "no troops")
    return _p("dial", "hunt!")


def title_of(moment: EiyuMoment) -> str:
    """The game's title and number, in the current language ("The Heroes' Road · #12")."""
    return _("{title} · #{number}", title=_(moment.spec.title), number=moment.game_id)


class EiyuPresenter:
    key = "eiyu"

    def __init__(self) -> None:
        self.lib = library()

    # --- pictures ---------------------------------------------------------------------------------

    def board(self, moment: EiyuMoment, paths: tuple[tuple[int, ...], ...] | None = None) -> Picture:
        view = moment.view()
        shown = [list(p) for p in paths] if paths else None
        return Picture("map.png", art.render_map(view, paths=shown, title=title_of(moment)),
                       art.map_alt_text(view, shown)[:1000])

    def warm(self) -> int:
        return art.warm()

    # --- the public story ---------------------------------------------------------------------------

    def name(self, moment: EiyuMoment, seat: int) -> str:
        if seat >= len(moment.view().players):
            return _("the dummy player")
        return moment.name_of(seat)

    def tell(self, moment: EiyuMoment) -> tuple[list[str], tuple[tuple[int, ...], ...] | None]:
        lib, view = self.lib, moment.view()
        n = len(view.players)
        lines: list[str] = []
        paths = None
        for e in moment.events:
            if isinstance(e, CityChosen):
                lines.append(_("📍 {player} starts in city {city}.", player=moment.name_of(e.seat),
                               city=city_name(e.city)))
            elif isinstance(e, YearBegins):
                lines.append(_("📅 **Year {year}** begins; {player} is the start player. Everyone programs six "
                               "orders in secret.", year=e.year, player=moment.name_of(e.start)))
            elif isinstance(e, TitanWakes):
                t = lib.titans[e.titan]
                lines.append(_n("🌋 **{titan}** wakes! ■ act where nothing else can be done fights it: {n} "
                                "soldier of any kind for {gold} gold and {fame} fame.",
                                "🌋 **{titan}** wakes! ■ act where nothing else can be done fights it: {n} "
                                "soldiers of any kind for {gold} gold and {fame} fame.", t.cost, titan=_(t.name),
                                gold=t.gold, fame=t.fame))
            elif isinstance(e, Programmed) and not any(isinstance(x, Locked) and x.seat == e.seat
                                                       for x in moment.events):
                lines.append(_("✏️ {player} adjusts their orders (kept secret).", player=moment.name_of(e.seat)))
            elif isinstance(e, Locked):
                lines.append(_("🔒 {player} has locked in their orders.", player=moment.name_of(e.seat)))
                # the last lock-in resolves the year (and may begin the next): nobody is still programming it
                if view.phase == "program" and not any(isinstance(x, Resolving) for x in moment.events):
                    waiting = [moment.name_of(s) for s in sorted(moment.to_act)]
                    lines.append(_("Still programming: {players}.", players=listing(waiting)))
            elif isinstance(e, Resolving):
                lines.append(_("⚙️ **Year {year} resolves**, slot by slot in seat order:", year=e.year))
            elif isinstance(e, Moved):
                lines.append(_("`{slot}` {player}: {order} {origin} → {city}", slot=e.slot + 1,
                               player=moment.name_of(e.seat), order=order_name(e.colour), origin=e.origin,
                               city=city_name(e.to)))
            elif isinstance(e, Waited):
                lines.append(why_text(e.why, moment.name_of(e.seat), e.city, e.slot + 1, e.order))
            elif isinstance(e, Recruited):
                lines.append(_("`{slot}` {player} recruits **{soldier}** in {city}", slot=e.slot + 1,
                               player=moment.name_of(e.seat), soldier=a_soldier(e.soldier),
                               city=city_name(e.city)))
            elif isinstance(e, ChipFlipped):
                chip = lib.chip(e.chip)
                if e.became == "monster":
                    lines.append(_("   ↪ the recruitment chip of {city} is empty and turns over: **{monster}** "
                                   "joins the waiting monsters", city=city_name(e.city), monster=_(chip.monster)))
                else:
                    lines.append(_("   ↪ the {monster} chip turns over to its recruitment side and waits",
                                   monster=_(chip.monster)))
            elif isinstance(e, ChipLaid):
                chip = lib.chip(e.chip)
                if e.side == "monster":
                    lines.append(_("   ↪ the monster **{monster}** (needs {soldiers}) is laid in {city}",
                                   monster=_(chip.monster), soldiers=soldiers_text(list(chip.needs)),
                                   city=city_name(e.city)))
                else:
                    lines.append(_("   ↪ a recruitment chip ({soldiers}) is laid in {city}",
                                   soldiers=soldiers_text(list(chip.soldiers)), city=city_name(e.city)))
            elif isinstance(e, Hunted):
                chip = lib.chip(e.chip)
                lines.append(_("`{slot}` ⚔️ {player} hunts the **{monster}** in {city}, spending {soldiers}!",
                               slot=e.slot + 1, player=moment.name_of(e.seat), monster=_(chip.monster),
                               city=city_name(e.city), soldiers=soldiers_text(list(e.spent))))
            elif isinstance(e, RewardsTaken):
                lines.append(_("   🎁 {rewards}", rewards=self.rewards_line(moment, e)))
            elif isinstance(e, DummyRaised):
                lines.append(_("   🎭 {player} raises the dummy's {track} by {n} (now {now}).",
                               player=moment.name_of(e.seat), track=track(e.track), n=e.by, now=e.now))
            elif isinstance(e, TitanSlain):
                t = lib.titans[e.titan]
                lines.append(_n("`{slot}` 🗡️ {player} fells **{titan}** in {city} with {n} soldier: +{gold} "
                                "gold, +{fame} fame.",
                                "`{slot}` 🗡️ {player} fells **{titan}** in {city} with {n} soldiers: +{gold} "
                                "gold, +{fame} fame.", e.paid, slot=e.slot + 1, player=moment.name_of(e.seat),
                                titan=_(t.name), city=city_name(e.city), gold=e.gold, fame=e.fame))
            elif isinstance(e, YearEnds):
                paths = e.paths
                trail = _p("list", "; ").join(_("{player} {path}", player=moment.name_of(i),
                                                path=" → ".join(map(str, p))) for i, p in enumerate(e.paths))
                lines.append(_("🏁 Year {year} is over. Paths: {paths}.", year=e.year, paths=trail))
            elif isinstance(e, ShowBegins):
                lines.append(_("💪 **Show of strength {number}**: each player chooses in secret which soldier "
                               "types to show (press **Your orders**).", number=e.show + 1))
            elif isinstance(e, ShowChosen):
                lines.append(_("🤫 {player} has chosen what to show.", player=moment.name_of(e.seat)))
                if view.phase == "show":
                    waiting = [moment.name_of(s) for s in sorted(moment.to_act)]
                    lines.append(_("Still choosing: {players}.", players=listing(waiting)))
            elif isinstance(e, Shown):
                lines += self.show_lines(moment, e)
            elif isinstance(e, Ranked):
                if not any(x.startswith("📊") for x in lines):
                    lines.append(self.final_scores(moment))
                lines.append(self.ranked_line(moment, e))
            elif isinstance(e, GameWon):
                centre = view.centre or ()
                if centre:
                    lines.append(_("🔓 The Hidden Heartland is revealed: {chips} fame chips.", chips=listing(
                        _("{player} {n}", player=moment.name_of(i), n=c) for i, c in enumerate(centre))))
                if e.winner == n:
                    lines.append(_("👑 The last one standing: **the dummy player — no hero this time**."))
                else:
                    lines.append(_("👑 The last one standing: **{player}**.", player=moment.name_of(e.winner)))
        return lines, paths

    def ranked_line(self, moment: EiyuMoment, e: Ranked) -> str:
        order = " > ".join(_("{player} {score}", player=self.name(moment, c), score=s)
                           for c, s in zip(e.order, e.scores, strict=True))
        out = self.name(moment, e.out)
        heads = {"fame": _("Fame ranking"), "gold": _("Gold ranking"), "building": _("Building ranking")}
        head = heads.get(e.track, e.track)
        if e.why == "soldiers":
            return _("🏆 **{ranking}**: {order} — **{player}** is out (tied: fewer soldiers in hand).",
                     ranking=head, order=order, player=out)
        if e.why == "start":
            return _("🏆 **{ranking}**: {order} — **{player}** is out (tied, same soldiers: nearer the start "
                     "player).", ranking=head, order=order, player=out)
        if e.why == "dummy":
            return _("🏆 **{ranking}**: {order} — **{player}** is out (tied: the dummy loses ties).",
                     ranking=head, order=order, player=out)
        return _("🏆 **{ranking}**: {order} — **{player}** is out.", ranking=head, order=order, player=out)

    def final_scores(self, moment: EiyuMoment) -> str:
        won = next(e for e in moment.events if isinstance(e, GameWon))
        scores = _p("list", "; ").join(
            _("{player} fame {fame}, gold {gold}, building {building}", player=self.name(moment, i),
              fame=won.fame[i], gold=won.gold[i], building=won.building[i]) for i in range(len(won.fame)))
        order = " → ".join(track(t) for t in moment.view().ranking)
        return _("📊 Final scores: {scores}. The rankings follow ({order}):", scores=scores, order=order)

    def rewards_line(self, moment: EiyuMoment, e: RewardsTaken) -> str:
        parts = []
        if e.gold:
            parts.append(_("takes {n} gold", n=e.gold))
        if e.built:
            parts.append(_n("builds {n} level in city {city}", "builds {n} levels in city {city}", e.built,
                            city=city_name(e.built_city)))
        if e.fame:
            parts.append(_n("places {n} fame chip in {area}", "places {n} fame chips in {area}", e.fame,
                            area=place(self.lib.area(e.area).name)))
        if e.hidden:
            parts.append(_("keeps a reward hidden") if e.hidden == 1 else _("keeps both rewards hidden"))
        if not parts:
            parts.append(_("takes nothing"))
        if len(parts) == 1:
            text = parts[0]
        else:
            # TRANSLATORS: the last two of a list of things a hunter does ("takes 3 gold and builds 1 level")
            text = _("{most} and {last}", most=listing(parts[:-1]), last=parts[-1])
        return _("{player} {rewards}.", player=moment.name_of(e.seat), rewards=text)

    def show_lines(self, moment: EiyuMoment, e: Shown) -> list[str]:
        lib = self.lib
        out = [_("💪 Show of strength {number} revealed:", number=e.show + 1)]
        for i, row in enumerate(e.shown):
            shown = [soldier_count(t + 1, c) for t, c in enumerate(row) if c]
            if shown:
                out.append(_("   {player} shows {soldiers}", player=moment.name_of(i), soldiers=listing(shown)))
            else:
                out.append(_("   {player} shows nothing", player=moment.name_of(i)))
        for t, w in enumerate(e.winners):
            kind = soldier_name(t + 1, lib.soldier(t + 1).name)
            if w >= 0:
                out.append(_("   {soldier}: {player} takes {reward}", soldier=kind, player=moment.name_of(w),
                             reward=self.reward_text(e.rewards[t])))
            else:
                out.append(_("   {soldier}: nobody (no single most)", soldier=kind))
        return out

    @staticmethod
    def reward_text(reward: str) -> str:
        """A show's reward as the event records it ("gold 3", "fame 2"), in words."""
        kind, _sep, amount = reward.partition(" ")
        if kind == "gold" and amount.isdigit():
            return _("gold {n}", n=int(amount))
        if kind == "fame" and amount.isdigit():
            return _("fame {n}", n=int(amount))
        return reward

    def telling(self, moment: EiyuMoment) -> Telling:
        lines, paths = self.tell(moment)
        if moment.by_tabula and not moment.auto_seat and moment.actor is not None:
            player = moment.name_of(moment.actor)
            if moment.command and moment.command.verb == "program":
                lines.insert(0, _("⏳ {player} did not answer within the game's time limit, so Tabula programmed "
                                  "their year.", player=player))
            else:
                lines.insert(0, _("⏳ {player} did not answer within the game's time limit, so Tabula chose for "
                                  "them.", player=player))
        elif moment.auto_seat and moment.actor is not None and moment.command is not None \
                and moment.command.verb == "program":
            lines.insert(0, _("🤖 Tabula programs {player}'s year.", player=moment.name_of(moment.actor)))
        view = moment.view()
        pictures = []
        if paths is not None or moment.actor is None or view.phase in ("city", "over"):
            pictures.append(self.board(moment, paths))
        if moment.outcome is not None:
            lines.append(_("🏆 {summary}", summary=moment.outcome.summary))
        return Telling(text="\n".join(lines) or "—", pictures=pictures, prompt=self.prompt(moment))

    def status(self, moment: EiyuMoment) -> Telling:
        view = moment.view()
        rows = [_("**{title}** — year {year}/{years}, ranking order {order}.", title=title_of(moment),
                  year=view.year, years=view.years, order=" → ".join(track(t) for t in view.ranking))]
        for p in view.players:
            city = city_name(p.city) if p.city else "—"
            line = _n("{player}: city {city}, {n} soldier, gold {gold}, building {building}, visible fame {fame}",
                      "{player}: city {city}, {n} soldiers, gold {gold}, building {building}, visible fame {fame}",
                      p.soldiers, player=p.name, city=city, gold=p.gold, building=p.building, fame=p.fame)
            if p.locked:
                line = _("{line} · locked in", line=line)
            elif view.phase == "program":
                line = _("{line} · programming", line=line)
            rows.append(line)
        if view.dummy is not None:
            rows.append(_("Dummy: fame {fame}, gold {gold}, building {building}", fame=view.dummy[0],
                          gold=view.dummy[1], building=view.dummy[2]))
        if moment.status == "abandoned":
            rows.insert(1, _("This game was abandoned."))
        return Telling(text="\n".join(rows), pictures=[self.board(moment)], prompt=self.prompt(moment))

    # --- who acts next -------------------------------------------------------------------------------

    def prompt(self, moment: EiyuMoment) -> Prompt | None:
        if moment.status != "active" or not moment.to_act:
            return None
        view = moment.view()
        acting = sorted(moment.to_act)
        users = [moment.user_of(s) for s in acting]
        panel = Button(_("Your orders"), view="hand", style="primary")
        if view.phase == "city":
            seat = acting[0]
            menu = Menu([(c.label, c.command) for c in moment.choices(seat)],
                        placeholder=_("Choose your starting city…"))
            return Prompt(users=users, text=_("choose the city you start in"), menus=[menu])
        if view.phase == "program":
            # (after someone locks in, the others are named but not pinged again: the platform sees they are
            # still choosing)
            text = _("program your six orders in secret and lock them in — press **Your orders** (only you see it)")
            return Prompt(users=users, text=text, buttons=[panel])
        if view.phase == "reward":
            seat = acting[0]
            chip = self.lib.chip(view.pending_chip)
            buttons = [Button(c.label, command=c.command, style="primary") for c in moment.choices(seat)]
            return Prompt(users=users, text=_("choose two of the {monster}'s rewards (building {building}, gold "
                                              "{gold}, fame {fame})", monster=_(chip.monster),
                                              building=chip.building, gold=chip.gold, fame=chip.fame),
                          buttons=buttons)
        if view.phase == "dummy":
            seat = acting[0]
            buttons = [Button(c.label, command=c.command) for c in moment.choices(seat)]
            return Prompt(users=users, text=_("raise one of the dummy player's scores"), buttons=buttons)
        if view.phase == "show":
            return Prompt(users=users, buttons=[panel],
                          text=_("choose in secret which soldiers to show — press **Your orders**"))
        return None

    # --- the private panel --------------------------------------------------------------------------

    def private(self, name: str, moment: EiyuMoment, seat: int) -> Telling | None:
        if name != "hand":
            return None
        view = moment.view(seat)
        secret = view.secret
        if secret is None or view.phase == "city":
            return None
        lib = self.lib
        me = view.players[seat]
        lines = [_("**Your troops:** {soldiers} · gold {gold} · building points {building} · unbuilt building chips "
                   "{held} · fame chips in the Hidden Heartland {central}", soldiers=soldiers_text(secret.soldiers),
                   gold=me.gold, building=me.building, held=secret.held, central=secret.central)]
        prompt = None
        pictures: list[Picture] = []
        if view.phase in ("reward", "dummy") and secret.row:
            done = len(me.resolved)
            lines.append(_("**Your row for year {year}**, resolving (✓ carried out):", year=view.year))
            lines += [(_("`{slot}` {order} ✓", slot=k + 1, order=order_name(o)) if k < done else
                       _("`{slot}` {order}", slot=k + 1, order=order_name(o))) for k, o in enumerate(secret.row)]
            if view.pending_seat == seat:
                lines.append(_("Choose your rewards with the buttons in the thread."))
        elif view.phase == "program":
            steps = preview(board_of_view(view, seat), seat, secret.row)
            if me.locked:
                lines.append(_("**Your row for year {year}** (from {city}, locked in; as if nobody else moved):",
                               year=view.year, city=city_name(me.city)))
            else:
                lines.append(_("**Your row for year {year}** (from {city}; as if nobody else moved):",
                               year=view.year, city=city_name(me.city)))
            for k, (order, st) in enumerate(zip(secret.row, steps, strict=True)):
                lines.append(_("`{slot}` {order} — {effect}", slot=k + 1, order=order_name(order),
                               effect=did_text(st)))
            cities = [st.city for st in steps]
            effects = [short_effect(st) for st in steps]
            pictures.append(Picture("orders.png", art.render_panel(view, seat, secret.row, cities, effects),
                                    art.panel_alt_text(view, seat, secret.row, cities)[:1000]))
            if view.phase == "program" and not me.locked:
                prompt = self.program_controls(moment, seat)
                lines.append(_("Change any slot with the menus (the panel shows each change at once), "
                               "or type `/program row:act,red,…`; then **Lock in**."))
        elif view.phase == "show" and secret.reveal is None:
            menu = Menu([(c.label, c.command) for c in moment.choices(seat)][:25],
                        placeholder=_("What do you show?"))
            prompt = Prompt(users=[], text="", menus=[menu])
            lines.append(_("**Show of strength:** choose which soldier types to show (all of a type, or none of "
                           "it). The most of a type takes the year track's reward; nobody sees your choice until all "
                           "chose."))
        elif view.phase == "show":
            shown = [soldier_name(int(t), lib.soldier(int(t)).name) for t in secret.reveal or ""]
            if shown:
                lines.append(_("You show: {soldiers}. Waiting for the others.", soldiers=listing(shown)))
            else:
                lines.append(_("You show: nothing. Waiting for the others."))
        return Telling(text="\n".join(lines), pictures=pictures, prompt=prompt)

    def program_controls(self, moment: EiyuMoment, seat: int) -> Prompt:
        choices = moment.choices(seat)
        orders = [c for c in choices if c.command.verb == "program" and c.command.get("slot")]
        first = [(c.label, c.command) for c in orders if int(c.command.get("slot")) <= 3]
        second = [(c.label, c.command) for c in orders if int(c.command.get("slot")) > 3]
        menus = [Menu(self.suggestions(moment, seat), placeholder=_("Suggested whole rows…")),
                 Menu(first[:25], placeholder=_("Change slot 1, 2 or 3…")),
                 Menu(second[:25], placeholder=_("Change slot 4, 5 or 6…"))]
        buttons = [Button(c.label, command=c.command, style="danger" if c.command.get("row") else "success")
                   for c in choices if c.command.verb == "lock" or c.command.get("row")]
        buttons += [Button(_("Let Tabula program my year"), command=c.command)
                    for c in choices if c.command.get("auto")]
        buttons.append(Button(_("Refresh"), view="hand"))
        return Prompt(users=[], text="", menus=[m for m in menus if m.choices], buttons=buttons)

    def suggestions(self, moment: EiyuMoment, seat: int) -> list[tuple[str, Command]]:
        """Whole rows worth considering (Tabula's own sampling on the seat's view), each with where it ends."""
        view = moment.view(seat)
        board = board_of_view(view, seat)
        seen: dict[str, tuple[str, Command]] = {}
        for row in best_rows(board, seat, Rng(moment.game_id * 7919 + view.year * 131 + seat), tries=12):
            steps = preview(board, seat, row)
            cmd = Command.of("program", row=",".join(row))
            did = sum(1 for st in steps if st.did.startswith(("recruit", "hunt", "titan")))
            label = " ".join(row_mark(o) for o in row)
            text = _n("{row} — {n} act, ends in {city}", "{row} — {n} acts, ends in {city}", did, row=label,
                      city=city_name(steps[-1].city))
            seen.setdefault(cmd.encode(), (text[:100], cmd))
        return list(seen.values())[:25]


PRESENTER = EiyuPresenter()
