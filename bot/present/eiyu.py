"""The Heroes' Road shown to people: the year's resolution told step by step with the map after it, the
programming panel (private), a hunt's reward choice, the show of strength and the final rankings.

Public messages carry only what everyone may know: a row is never shown before its orders resolve, a reward
that goes into the hidden centre is told as "hidden", and what a player shows at a show of strength is told
only once everyone has chosen.  The private view ``hand`` is each player's panel: their soldiers and chips, their
row previewed on today's map (text and picture) and the controls to change it and lock it in.

Discord allows five rows of controls on a message, so the panel has one menu of suggested whole rows, a menu
for slots 1–3, a menu for slots 4–6 and a row of buttons (reset, lock in, refresh)."""

from __future__ import annotations

from bot.present.base import Button, Menu, Moment, Picture, Prompt, Telling, game_title
from render import eiyu as art
from rules.core import Rng
from rules.eiyu.auto import Step, best_rows, board_of_view, preview
from rules.eiyu.codec import ORDER_NAMES, city_name, did_text
from rules.eiyu.content import ACT, WAIT, library
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
WHY = {"wait": "waits (×)", "no_road": "has no {order} road here: waits", "acted": "has already acted here this "
       "year: waits", "nothing": "finds nothing to do here: waits", "troops": "lacks the troops for what is here: "
       "waits"}
TRACK_WORD = {"fame": "fame", "gold": "gold", "building": "building"}


PLURAL = {1: "peasant levies", 2: "archers", 3: "infantry", 4: "priests"}


def soldier_word(kind: int, count: int = 1) -> str:
    name = library().soldier(kind).name
    return PLURAL.get(kind, name) if count != 1 else name


def a_soldier(kind: int) -> str:
    name = soldier_word(kind)
    return ("an " if name[0] in "aeiou" else "a ") + name


def soldiers_text(soldiers: tuple[int, ...] | list[int]) -> str:
    if not soldiers:
        return "no soldiers"
    return ", ".join(f"{list(soldiers).count(t)} {soldier_word(t, list(soldiers).count(t))}"
                     for t in sorted(set(soldiers)))


def short_effect(step: Step) -> str:
    """A previewed order in a word or two, for the dial under it."""
    did = step.did
    if did == "move":
        return f"→ {step.city}"
    if did.startswith("recruit"):
        return f"recruit {did.split()[1]}"
    return {"titan": "titan!", "wait": "wait", "no_road": "no road", "acted": "done here",
            "nothing": "nothing", "troops": "no troops"}.get(did.split()[0], "hunt!")


class EiyuPresenter:
    key = "eiyu"

    def __init__(self) -> None:
        self.lib = library()

    # --- pictures ---------------------------------------------------------------------------------

    def board(self, moment: EiyuMoment, paths: tuple[tuple[int, ...], ...] | None = None) -> Picture:
        view = moment.view()
        shown = [list(p) for p in paths] if paths else None
        return Picture("map.png", art.render_map(view, paths=shown, title=game_title(moment)),
                       art.map_alt_text(view, shown)[:1000])

    def warm(self) -> int:
        return art.warm()

    # --- the public story ---------------------------------------------------------------------------

    def name(self, moment: EiyuMoment, seat: int) -> str:
        if seat >= len(moment.view().players):
            return "the dummy player"
        return moment.name_of(seat)

    def tell(self, moment: EiyuMoment) -> tuple[list[str], tuple[tuple[int, ...], ...] | None]:
        lib, view = self.lib, moment.view()
        n = len(view.players)
        lines: list[str] = []
        paths = None
        for e in moment.events:
            if isinstance(e, CityChosen):
                lines.append(f"📍 {moment.name_of(e.seat)} starts in city {city_name(e.city)}.")
            elif isinstance(e, YearBegins):
                lines.append(f"📅 **Year {e.year}** begins; {moment.name_of(e.start)} is the start player. Everyone "
                             "programs six orders in secret.")
            elif isinstance(e, TitanWakes):
                t = lib.titans[e.titan]
                lines.append(f"🌋 **{t.name}** wakes! ■ act where nothing else can be done fights it: {t.cost} "
                             f"soldiers of any kind for {t.gold} gold and {t.fame} fame.")
            elif isinstance(e, Programmed) and not any(isinstance(x, Locked) and x.seat == e.seat
                                                       for x in moment.events):
                lines.append(f"✏️ {moment.name_of(e.seat)} adjusts their orders (kept secret).")
            elif isinstance(e, Locked):
                lines.append(f"🔒 {moment.name_of(e.seat)} has locked in their orders.")
                if view.phase == "program":
                    waiting = [moment.name_of(s) for s in sorted(moment.to_act)]
                    lines.append(f"Still programming: {', '.join(waiting)}.")
            elif isinstance(e, Resolving):
                lines.append(f"⚙️ **Year {e.year} resolves**, slot by slot in seat order:")
            elif isinstance(e, Moved):
                lines.append(f"`{e.slot + 1}` {moment.name_of(e.seat)}: {ORDER_NAMES[e.colour]} {e.origin} → "
                             f"{city_name(e.to)}")
            elif isinstance(e, Waited):
                why = WHY[e.why].format(order=ORDER_NAMES.get(e.order, e.order).replace(" road", ""))
                lines.append(f"`{e.slot + 1}` {moment.name_of(e.seat)} in {e.city} {why}")
            elif isinstance(e, Recruited):
                lines.append(f"`{e.slot + 1}` {moment.name_of(e.seat)} recruits **{a_soldier(e.soldier)}** "
                             f"in {city_name(e.city)}")
            elif isinstance(e, ChipFlipped):
                chip = lib.chip(e.chip)
                if e.became == "monster":
                    lines.append(f"   ↪ the recruitment chip of {e.city} is empty and turns over: **{chip.monster}** "
                                 "joins the waiting monsters")
                else:
                    lines.append(f"   ↪ the {chip.monster} chip turns over to its recruitment side and waits")
            elif isinstance(e, ChipLaid):
                chip = lib.chip(e.chip)
                what = (f"the monster **{chip.monster}** (needs {soldiers_text(list(chip.needs))})"
                        if e.side == "monster" else
                        f"a recruitment chip ({soldiers_text(list(chip.soldiers))})")
                lines.append(f"   ↪ {what} is laid in {city_name(e.city)}")
            elif isinstance(e, Hunted):
                chip = lib.chip(e.chip)
                lines.append(f"`{e.slot + 1}` ⚔️ {moment.name_of(e.seat)} hunts the **{chip.monster}** in "
                             f"{city_name(e.city)}, spending {soldiers_text(list(e.spent))}!")
            elif isinstance(e, RewardsTaken):
                lines.append("   🎁 " + self.rewards_line(moment, e))
            elif isinstance(e, DummyRaised):
                lines.append(f"   🎭 {moment.name_of(e.seat)} raises the dummy's {TRACK_WORD[e.track]} by {e.by} "
                             f"(now {e.now}).")
            elif isinstance(e, TitanSlain):
                t = lib.titans[e.titan]
                lines.append(f"`{e.slot + 1}` 🗡️ {moment.name_of(e.seat)} fells **{t.name}** in {e.city} with "
                             f"{e.paid} soldiers: +{e.gold} gold, +{e.fame} fame.")
            elif isinstance(e, YearEnds):
                paths = e.paths
                trail = "; ".join(f"{moment.name_of(i)} {' → '.join(map(str, p))}" for i, p in enumerate(e.paths))
                lines.append(f"🏁 Year {e.year} is over. Paths: {trail}.")
            elif isinstance(e, ShowBegins):
                lines.append(f"💪 **Show of strength {e.show + 1}**: each player chooses in secret which soldier types "
                             "to show (press **Your orders**).")
            elif isinstance(e, ShowChosen):
                lines.append(f"🤫 {moment.name_of(e.seat)} has chosen what to show.")
                if view.phase == "show":
                    waiting = [moment.name_of(s) for s in sorted(moment.to_act)]
                    lines.append(f"Still choosing: {', '.join(waiting)}.")
            elif isinstance(e, Shown):
                lines += self.show_lines(moment, e)
            elif isinstance(e, Ranked):
                if not any(x.startswith("📊") for x in lines):
                    lines.append(self.final_scores(moment))
                order = " > ".join(f"{self.name(moment, c)} {s}" for c, s in zip(e.order, e.scores, strict=True))
                why = {"": "", "soldiers": " (tied: fewer soldiers in hand)",
                       "start": " (tied, same soldiers: nearer the start player)",
                       "dummy": " (tied: the dummy loses ties)"}[e.why]
                lines.append(f"🏆 **{TRACK_WORD[e.track].capitalize()} ranking**: {order} — "
                             f"**{self.name(moment, e.out)}** is out{why}.")
            elif isinstance(e, GameWon):
                centre = view.centre or ()
                if centre:
                    lines.append("🔓 The Hidden Heartland is revealed: " + ", ".join(
                        f"{moment.name_of(i)} {c}" for i, c in enumerate(centre)) + " fame chips.")
                winner = "the dummy player — no hero this time" if e.winner == n else moment.name_of(e.winner)
                lines.append(f"👑 The last one standing: **{winner}**.")
        return lines, paths

    def final_scores(self, moment: EiyuMoment) -> str:
        won = next(e for e in moment.events if isinstance(e, GameWon))
        scores = "; ".join(f"{self.name(moment, i)} fame {won.fame[i]}, gold {won.gold[i]}, building "
                           f"{won.building[i]}" for i in range(len(won.fame)))
        return f"📊 Final scores: {scores}. The rankings follow ({' → '.join(moment.view().ranking)}):"

    def rewards_line(self, moment: EiyuMoment, e: RewardsTaken) -> str:
        parts = []
        if e.gold:
            parts.append(f"takes {e.gold} gold")
        if e.built:
            parts.append(f"builds {e.built} level{'s' if e.built > 1 else ''} in city {e.built_city}")
        if e.fame:
            parts.append(f"places {e.fame} fame chips in {self.lib.area(e.area).name}")
        if e.hidden:
            parts.append("keeps a reward hidden" if e.hidden == 1 else "keeps both rewards hidden")
        if not parts:
            parts.append("takes nothing")
        text = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
        return f"{moment.name_of(e.seat)} {text}."

    def show_lines(self, moment: EiyuMoment, e: Shown) -> list[str]:
        lib = self.lib
        out = [f"💪 Show of strength {e.show + 1} revealed:"]
        for i, row in enumerate(e.shown):
            shown = [f"{c} {soldier_word(t + 1, c)}" for t, c in enumerate(row) if c]
            out.append(f"   {moment.name_of(i)} shows " + (", ".join(shown) if shown else "nothing"))
        for t, w in enumerate(e.winners):
            who = moment.name_of(w) if w >= 0 else "nobody (no single most)"
            out.append(f"   {lib.soldier(t + 1).name}: {who}" + (f" takes {e.rewards[t]}" if w >= 0 else ""))
        return out

    def telling(self, moment: EiyuMoment) -> Telling:
        lines, paths = self.tell(moment)
        if moment.by_tabula and not moment.auto_seat and moment.actor is not None:
            what = "programmed their year" if moment.command and moment.command.verb == "program" else "chose for them"
            lines.insert(0, f"⏳ {moment.name_of(moment.actor)} did not answer within the game's time limit, so "
                            f"Tabula {what}.")
        elif moment.auto_seat and moment.actor is not None and moment.command is not None \
                and moment.command.verb == "program":
            lines.insert(0, f"🤖 Tabula programs {moment.name_of(moment.actor)}'s year.")
        view = moment.view()
        pictures = []
        if paths is not None or moment.actor is None or view.phase in ("city", "over"):
            pictures.append(self.board(moment, paths))
        if moment.outcome is not None:
            lines.append(f"🏆 {moment.outcome.summary}")
        return Telling(text="\n".join(lines) or "—", pictures=pictures, prompt=self.prompt(moment))

    def status(self, moment: EiyuMoment) -> Telling:
        view = moment.view()
        rows = [f"**{game_title(moment)}** — year {view.year}/{view.years}, ranking order "
                f"{' → '.join(view.ranking)}."]
        for p in view.players:
            state = "locked in" if p.locked else "programming" if view.phase == "program" else ""
            rows.append(f"{p.name}: city {city_name(p.city) if p.city else '—'}, {p.soldiers} soldiers, gold "
                        f"{p.gold}, building {p.building}, visible fame {p.fame}" + (f" · {state}" if state else ""))
        if view.dummy is not None:
            rows.append(f"Dummy: fame {view.dummy[0]}, gold {view.dummy[1]}, building {view.dummy[2]}")
        if moment.status == "abandoned":
            rows.insert(1, "This game was abandoned.")
        return Telling(text="\n".join(rows), pictures=[self.board(moment)], prompt=self.prompt(moment))

    # --- who acts next -------------------------------------------------------------------------------

    def prompt(self, moment: EiyuMoment) -> Prompt | None:
        if moment.status != "active" or not moment.to_act:
            return None
        view = moment.view()
        acting = sorted(moment.to_act)
        users = [moment.user_of(s) for s in acting]
        panel = Button("Your orders", view="hand", style="primary")
        if view.phase == "city":
            seat = acting[0]
            menu = Menu([(c.label, c.command) for c in moment.choices(seat)], placeholder="Choose your starting city…")
            return Prompt(users=users, text="choose the city you start in", menus=[menu])
        if view.phase == "program":
            # after someone locks in, nobody is pinged again (they were when the year began)
            again = any(isinstance(e, Locked) for e in moment.events) and not any(
                isinstance(e, YearBegins) for e in moment.events)
            text = "program your six orders in secret and lock them in — press **Your orders** (only you see it)"
            return Prompt(users=[] if again else users, text=text, buttons=[panel])
        if view.phase == "reward":
            seat = acting[0]
            chip = self.lib.chip(view.pending_chip)
            buttons = [Button(c.label, command=c.command, style="primary") for c in moment.choices(seat)]
            return Prompt(users=users, text=f"choose two of the {chip.monster}'s rewards (building {chip.building}, "
                                            f"gold {chip.gold}, fame {chip.fame})", buttons=buttons)
        if view.phase == "dummy":
            seat = acting[0]
            buttons = [Button(c.label, command=c.command) for c in moment.choices(seat)]
            return Prompt(users=users, text="raise one of the dummy player's scores", buttons=buttons)
        if view.phase == "show":
            again = any(isinstance(e, ShowChosen) for e in moment.events) and not any(
                isinstance(e, ShowBegins) for e in moment.events)
            return Prompt(users=[] if again else users, buttons=[panel],
                          text="choose in secret which soldiers to show — press **Your orders**")
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
        lines = [f"**Your troops:** {soldiers_text(secret.soldiers)} · gold {me.gold} · building points "
                 f"{me.building} · unbuilt building chips {secret.held} · fame chips in the Hidden Heartland "
                 f"{secret.central}"]
        prompt = None
        pictures: list[Picture] = []
        if view.phase in ("reward", "dummy") and secret.row:
            done = len(me.resolved)
            lines.append(f"**Your row for year {view.year}**, resolving (✓ carried out):")
            lines += [f"`{k + 1}` {ORDER_NAMES[o]}" + (" ✓" if k < done else "") for k, o in enumerate(secret.row)]
            if view.pending_seat == seat:
                lines.append("Choose your rewards with the buttons in the thread.")
        elif view.phase == "program":
            steps = preview(board_of_view(view, seat), seat, secret.row)
            lines.append(f"**Your row for year {view.year}** (from {city_name(me.city)}"
                         + (", locked in" if me.locked else "") + "; as if nobody else moved):")
            for k, (order, st) in enumerate(zip(secret.row, steps, strict=True)):
                lines.append(f"`{k + 1}` {ORDER_NAMES[order]} — {did_text(st)}")
            cities = [st.city for st in steps]
            effects = [short_effect(st) for st in steps]
            pictures.append(Picture("orders.png", art.render_panel(view, seat, secret.row, cities, effects),
                                    art.panel_alt_text(view, seat, secret.row, cities)[:1000]))
            if view.phase == "program" and not me.locked:
                prompt = self.program_controls(moment, seat)
                lines.append("Change any slot with the menus (the panel shows each change at once), "
                             "or type `/program row:act,red,…`; then **Lock in**.")
        elif view.phase == "show" and secret.reveal is None:
            menu = Menu([(c.label, c.command) for c in moment.choices(seat)][:25], placeholder="What do you show?")
            prompt = Prompt(users=[], text="", menus=[menu])
            lines.append("**Show of strength:** choose which soldier types to show (all of a type, or none of it). "
                         "The most of a type takes the year track's reward; nobody sees your choice until all chose.")
        elif view.phase == "show":
            lines.append(f"You show: {', '.join(lib.soldier(int(t)).name for t in secret.reveal or '') or 'nothing'}."
                         " Waiting for the others.")
        return Telling(text="\n".join(lines), pictures=pictures, prompt=prompt)

    def program_controls(self, moment: EiyuMoment, seat: int) -> Prompt:
        choices = moment.choices(seat)
        orders = [c for c in choices if c.command.verb == "program" and c.command.get("slot")]
        first = [(c.label, c.command) for c in orders if int(c.command.get("slot")) <= 3]
        second = [(c.label, c.command) for c in orders if int(c.command.get("slot")) > 3]
        menus = [Menu(self.suggestions(moment, seat), placeholder="Suggested whole rows…"),
                 Menu(first[:25], placeholder="Change slot 1, 2 or 3…"),
                 Menu(second[:25], placeholder="Change slot 4, 5 or 6…")]
        buttons = [Button(c.label, command=c.command, style="danger" if c.command.get("row") else "success")
                   for c in choices if c.command.verb == "lock" or c.command.get("row")]
        buttons += [Button("Let Tabula program my year", command=c.command)
                    for c in choices if c.command.get("auto")]
        buttons.append(Button("Refresh", view="hand"))
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
            label = " ".join({ACT: "■", WAIT: "×"}.get(o, o) for o in row)
            seen.setdefault(cmd.encode(), (f"{label} — {did} acts, ends in {city_name(steps[-1].city)}"[:100], cmd))
        return list(seen.values())[:25]


PRESENTER = EiyuPresenter()
