"""The Heroes' Road shown to people: the year's resolution told step by step with the map after it, the
programming panel (private), a hunt's reward choice, the show of strength and the final rankings.

Public messages carry only what everyone may know: a row is never shown before its orders resolve, a reward
that goes into the hidden centre is told as "hidden", and what a player shows at a show of strength is told
only once everyone has chosen.  The private view ``hand`` is each player's panel: their soldiers and chips, their
row previewed on today's map (text and picture) and the controls to change it and lock it in.

Discord allows five rows of controls on a message, so the panel has one menu of suggested whole rows, a menu
for slots 1–3, a menu for slots 4–6 and a row of buttons (reset, lock in, refresh)."""

from __future__ import annotations

from functools import partial

from bot.present.base import Button, Menu, Moment, Picture, Prompt, Telling, seats_acting
from render import eiyu as art
from rules.core import Rng
from rules.eiyu.auto import Preview, best_rows, board_of_view, preview
from rules.eiyu.commands import did_text, row_mark
from rules.eiyu.content import library
from rules.eiyu.i18n import (
    N_p,
    _,
    _n,
    _p,
    city_name,
    comma,
    order_name,
    soldier_name,
    track,
)
from rules.eiyu.state import YearEnds
from rules.eiyu.telling import soldiers_text, tell
from rules.eiyu.view import EiyuView
from rules.spec import Command

EiyuMoment = Moment[EiyuView]


def short_effect(step: Preview) -> str:
    """A previewed order in a word or two, for the dial under it."""
    did = step.did
    if did == "move":
        return _("→ {city}", city=step.city)
    if did.startswith("recruit"):
        kind = int(did.split()[1])
        return soldier_name(kind, library().soldier(kind).name)
    return _p("dial", DIALS.get(did.split()[0], DIALS["hunt"]))


#: What the dial under a previewed order says (beyond a move or a recruit).
DIALS = {"titan": N_p("dial", "titan!"), "wait": N_p("dial", "wait"), "no_road": N_p("dial", "no road"),
         "acted": N_p("dial", "done here"), "nothing": N_p("dial", "nothing"), "troops": N_p("dial", "no troops"),
         "hunt": N_p("dial", "hunt!")}


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
        return Picture("map.png", partial(art.render_board, view, paths=shown, title=title_of(moment)),
                       art.board_alt_text(view, shown)[:1000])

    def warm(self) -> int:
        return art.warm()

    # --- the public story ---------------------------------------------------------------------------

    def tell(self, moment: EiyuMoment) -> tuple[list[str], tuple[tuple[int, ...], ...] | None]:
        """The story of the step, and the paths of a year that ended in it (drawn on the map)."""
        lines = tell(moment.view(), moment.events, name_of=moment.name_of, waiting=moment.to_act)
        paths = next((e.paths for e in reversed(moment.events) if isinstance(e, YearEnds)), None)
        return lines, paths

    def telling(self, moment: EiyuMoment) -> Telling:
        lines, paths = self.tell(moment)
        if moment.timed_out and moment.actor is not None:
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
        acting, users = seats_acting(moment)
        if not acting:
            return None
        view = moment.view()
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
            pictures.append(Picture("orders.png", partial(art.render_panel, view, seat, secret.row, cities, effects),
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
                lines.append(_("You show: {soldiers}. Waiting for the others.", soldiers=comma(shown)))
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
        # the codec's label says that Tabula's row is locked in too
        buttons += [Button(c.label, command=c.command) for c in choices if c.command.get("auto")]
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
