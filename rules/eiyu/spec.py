"""The game declared as data: the lobby text, the options, the verbs, the rules summary and the benchmark."""

from __future__ import annotations

from rules.eiyu.i18n import N_, N_p
from rules.spec import ArgSpec, BalanceSpec, BenchSpec, GameSpec, OptionSpec, RulesSection, VerbSpec

TITLE = N_("The Heroes' Road")
#: The words options take, named in every language (a hint reads them so; typed in any, they are understood).
ORDERS = (N_p("value", "act"), N_p("value", "wait"), N_p("value", "red"), N_p("value", "yellow"), N_p("value", "blue"),
          N_p("value", "lightblue"), N_p("value", "purple"))
YES = (N_p("value", "yes"),)

VERBS: tuple[VerbSpec, ...] = (
    VerbSpec(N_p("command", "city"), N_("Heroes' Road: choose the city you start in"),
             N_("`/city city:` choose your starting city (in seat order)"),
             (ArgSpec(N_p("option", "city"), N_("The city, by number (1-12)"), required=True),)),
    VerbSpec(N_p("command", "program"),
             N_("Heroes' Road: set your secret orders for the year (one slot, or the whole row)"),
             N_("`/program slot: order:` set one of your six orders; `/program row:act,red,…` set all six (secret)"),
             (ArgSpec(N_p("option", "slot"), N_("Which slot, 1 to 6")),
              ArgSpec(N_p("option:program", "order"), N_("act, wait, or a road colour"), own=True, values=ORDERS),
              ArgSpec(N_p("option", "row"), N_("All six orders, e.g. act,red,act,blue,wait,act"), complete=False,
                      values=ORDERS),
              ArgSpec(N_p("option", "lock"), N_("yes: lock the row in at once"), values=YES),
              ArgSpec(N_p("option", "auto"), N_("yes: let Tabula program and lock in your year for you"), values=YES))),
    VerbSpec(N_p("command", "lock"), N_("Heroes' Road: lock in your orders (the year resolves when everyone has)"),
             N_("`/lock` lock in your row; the year resolves when the last player locks in")),
    VerbSpec(N_p("command", "choose"), N_("Heroes' Road: a hunt's rewards, the dummy's raise, what you show"),
             N_("`/choose option:` two rewards of a hunt, the dummy's track to raise, what to show"),
             (ArgSpec(N_p("option", "option"), N_("The choice"), required=True),)),
    VerbSpec(N_p("command", "hand"), N_("Heroes' Road: your orders panel, soldiers and chips (only you see them)"),
             N_("`/hand` your programming panel, soldiers, building chips and hidden fame"), kind="view",
             view="hand"),
)

RULES: tuple[RulesSection, ...] = (
    RulesSection(N_p("topic", "overview"), N_("How to win"), N_(
        "Hunt monsters across twelve cities to earn **fame**, **gold** and **building** points. At the end the "
        "players are ranked on the three scores one after another, in an order drawn at the start and shown on "
        "the board. Whoever comes last in a ranking is out; the last one standing is the hero. A tie for last "
        "goes against the player with fewer soldiers in hand, then against the one nearer the start player.")),
    RulesSection(N_p("topic", "year"), N_("A year: six secret orders"), N_(
        "The game lasts 12 years (9 in the short game). Each year every player secretly programs six orders — "
        "■ act, × wait, or a road colour (red, yellow, blue, light blue, purple) — in the **Your orders** panel "
        "or with `/program`, and locks them in with `/lock`. Nobody sees another row. When the last player "
        "locks in, the orders resolve one at a time: everyone's first order in seat order from the start "
        "player, then everyone's second, and so on. The start player passes to the left after each year.")),
    RulesSection(N_p("topic", "orders"), N_("Moving and acting"), N_(
        "Every city has three roads of different colours. A road order follows that colour; if the city has "
        "none, it is a wait. ■ act takes the weakest soldier from a recruitment chip, or hunts the monster "
        "there with exactly the soldiers printed on it, or fights an awake titan. You act at most once per "
        "city per year. An emptied recruitment chip turns over into a monster; a hunted monster turns into a "
        "recruitment chip; the next waiting chip of each kind is shown.")),
    RulesSection(N_p("topic", "rewards"), N_("Rewards, buildings and fame"), N_(
        "A hunt spends its soldiers and gives two of its three rewards, your choice: building chips, gold, or "
        "fame chips. Building chips build in that city if nobody else owns a building there (up to 4 levels; "
        "1/3/6/10 points); otherwise you keep them for your next hunt. Fame chips go at once into one area "
        "around the city; at the end the most chips in an area score its first number, the second-most its "
        "second. Chips in the central Hidden Heartland stay secret until the end.")),
    RulesSection(N_p("topic", "titans"), N_("Titans, shows of strength, the dummy"), N_(
        "Three titans wake during the game. ■ act where nothing else can be done fights the awake titan: pay "
        "its cost in any soldiers (your weakest) for gold and fame. After years 4, 8 and 12 (3, 6, 9 in the "
        "short game) comes a show of strength: each player secretly chooses which soldier types to show; the "
        "one showing the most of a type takes the year track's reward. With 3 players or fewer a dummy joins "
        "the rankings, and every hunter raises one of its scores.")),
    RulesSection(N_p("topic", "commands"), N_("Commands"), N_(
        "`/city city:` your starting city · `/hand` your orders panel, soldiers and chips · "
        "`/program slot:3 order:red` or `/program row:act,red,act,blue,wait,act` · `/lock` · "
        "`/choose option:` a hunt's rewards, the dummy's raise, what to show.")),
)

SPEC = GameSpec(
    key="eiyu",
    title=TITLE,
    summary=N_("Program six secret orders a year, roam twelve cities along coloured roads, recruit soldiers and "
            "hunt monsters and titans for fame, gold and buildings; the rankings knock out the weakest until one "
            "hero is left. 2–5 players (a dummy joins at 3 or fewer); option `short`."),
    min_players=2,
    max_players=5,
    options=(OptionSpec(N_p("option", "short"), N_("The short game: 9 years, a show of strength every 3"),
                        kind="flag", default=False),
             OptionSpec(N_p("option", "tabula_level"),
                        N_("How Tabula plays its seats: easy, normal or strong (a search thinking about 2 s a move)"),
                        choices=(N_p("choice", "easy"), N_p("choice", "normal"), N_p("choice", "strong")),
                        default="easy")),
    verbs=VERBS,
    bench=(BenchSpec("3 players and the dummy, full game", {}, players=3),
           BenchSpec("short game, 5 players", {"short": True}, players=5),
           BenchSpec("2 players and the dummy, full game", {}, players=2)),
    # The configurations of RULES.md's balance table (`python -m bot.balance eiyu`).
    balance=tuple(BalanceSpec(f"{n}{'-short' if short else ''}", f"{n} players{', short game' if short else ''}",
                              {"short": short}, players=n)
                  for n, short in ((2, False), (3, False), (3, True), (4, False), (5, False), (5, True))),
    intro=N_("Earn fame, gold and buildings by hunting monsters; at the end the rankings knock out the last player on "
          "each score in turn until one hero is left.\n"
          "Each year everyone secretly programs six orders (`/hand` opens your panel) and locks them in; then the "
          "orders resolve one by one, slot by slot, in seat order from the start player."),
    rules=RULES,
    languages=("en", "ja", "hu", "el"),
)
