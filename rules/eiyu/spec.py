"""The game declared as data: the lobby text, the options, the verbs, the rules summary and the benchmark."""

from __future__ import annotations

from rules.spec import ArgSpec, BenchSpec, GameSpec, OptionSpec, RulesSection, VerbSpec

TITLE = "The Heroes' Road"

VERBS: tuple[VerbSpec, ...] = (
    VerbSpec("city", "Heroes' Road: choose the city you start in",
             "`/city city:` choose your starting city (in seat order)",
             (ArgSpec("city", "The city, by number (1-12)", required=True),)),
    VerbSpec("program", "Heroes' Road: set your secret orders for the year (one slot, or the whole row)",
             "`/program slot: order:` set one of your six orders; `/program row:act,red,…` set all six (secret)",
             (ArgSpec("slot", "Which slot, 1 to 6"), ArgSpec("order", "act, wait, or a road colour"),
              ArgSpec("row", "All six orders, e.g. act,red,act,blue,wait,act", complete=False),
              ArgSpec("lock", "yes: lock the row in at once"),
              ArgSpec("auto", "yes: let Tabula program and lock in your year for you"))),
    VerbSpec("lock", "Heroes' Road: lock in your orders (the year resolves when everyone has)",
             "`/lock` lock in your row; the year resolves when the last player locks in"),
    VerbSpec("choose", "Heroes' Road: a hunt's rewards, the dummy's raise, what you show",
             "`/choose option:` two rewards of a hunt, the dummy's track to raise, what to show",
             (ArgSpec("option", "The choice", required=True),)),
    VerbSpec("hand", "Heroes' Road: your orders panel, soldiers and chips (only you see them)",
             "`/hand` your programming panel, soldiers, building chips and hidden fame", kind="view", view="hand"),
)

RULES: tuple[RulesSection, ...] = (
    RulesSection("overview", "How to win", (
        "Hunt monsters across twelve cities to earn **fame**, **gold** and **building** points. At the end the "
        "players are ranked on the three scores one after another, in an order drawn at the start and shown on "
        "the board. Whoever comes last in a ranking is out; the last one standing is the hero. A tie for last "
        "goes against the player with fewer soldiers in hand, then against the one nearer the start player.")),
    RulesSection("year", "A year: six secret orders", (
        "The game lasts 12 years (9 in the short game). Each year every player secretly programs six orders — "
        "■ act, × wait, or a road colour (red, yellow, blue, light blue, purple) — in the **Your orders** panel "
        "or with `/program`, and locks them in with `/lock`. Nobody sees another row. When the last player "
        "locks in, the orders resolve one at a time: everyone's first order in seat order from the start "
        "player, then everyone's second, and so on. The start player passes to the left after each year.")),
    RulesSection("orders", "Moving and acting", (
        "Every city has three roads of different colours. A road order follows that colour; if the city has "
        "none, it is a wait. ■ act takes the weakest soldier from a recruitment chip, or hunts the monster "
        "there with exactly the soldiers printed on it, or fights an awake titan. You act at most once per "
        "city per year. An emptied recruitment chip turns over into a monster; a hunted monster turns into a "
        "recruitment chip; the next waiting chip of each kind is shown.")),
    RulesSection("rewards", "Rewards, buildings and fame", (
        "A hunt spends its soldiers and gives two of its three rewards, your choice: building chips, gold, or "
        "fame chips. Building chips build in that city if nobody else owns a building there (up to 4 levels; "
        "1/3/6/10 points); otherwise you keep them for your next hunt. Fame chips go at once into one area "
        "around the city; at the end the most chips in an area score its first number, the second-most its "
        "second. Chips in the central Hidden Heartland stay secret until the end.")),
    RulesSection("titans", "Titans, shows of strength, the dummy", (
        "Three titans wake during the game. ■ act where nothing else can be done fights the awake titan: pay "
        "its cost in any soldiers (your weakest) for gold and fame. After years 4, 8 and 12 (3, 6, 9 in the "
        "short game) comes a show of strength: each player secretly chooses which soldier types to show; the "
        "one showing the most of a type takes the year track's reward. With 3 players or fewer a dummy joins "
        "the rankings, and every hunter raises one of its scores.")),
    RulesSection("commands", "Commands", (
        "`/city city:` your starting city · `/hand` your orders panel, soldiers and chips · "
        "`/program slot:3 order:red` or `/program row:act,red,act,blue,wait,act` · `/lock` · "
        "`/choose option:` a hunt's rewards, the dummy's raise, what to show.")),
)

SPEC = GameSpec(
    key="eiyu",
    title=TITLE,
    summary="Program six secret orders a year, roam twelve cities along coloured roads, recruit soldiers and "
            "hunt monsters and titans for fame, gold and buildings; the rankings knock out the weakest until one "
            "hero is left. 2–5 players (a dummy joins at 3 or fewer); option `short`.",
    min_players=2,
    max_players=5,
    options=(OptionSpec("short", "The short game: 9 years, a show of strength every 3", kind="flag", default=False),),
    verbs=VERBS,
    bench=(BenchSpec("3 players and the dummy, full game", {}, players=3),
           BenchSpec("short game, 5 players", {"short": True}, players=5),
           BenchSpec("2 players and the dummy, full game", {}, players=2)),
    intro="Earn fame, gold and buildings by hunting monsters; at the end the rankings knock out the last player on "
          "each score in turn until one hero is left.\n"
          "Each year everyone secretly programs six orders (`/hand` opens your panel) and locks them in; then the "
          "orders resolve one by one, slot by slot, in seat order from the start player.",
    rules=RULES,
)
