"""Champion of the Empire declared as data: the lobby text, the options, the verbs and the benchmark."""

from __future__ import annotations

from rules.spec import ArgSpec, BenchSpec, GameSpec, OptionSpec, RulesSection, VerbSpec


def _arg(name: str, description: str, *, required: bool = False) -> ArgSpec:
    return ArgSpec(name=name, description=description, required=required)


_FOE = _arg("foe", "Which opponent you are playing for (whoever plays the opponents), by number")

VERBS: tuple[VerbSpec, ...] = (
    VerbSpec("hero", "Champion: choose your hero, the side of the sheet and a weapon",
             "`/hero hero: side: weapon:` choose your hero, the side of the sheet and a starting weapon",
             (_arg("hero", "The hero", required=True),
              _arg("side", "The side of the sheet: 1, 2 or its name", required=True),
              _arg("weapon", "One of the two starting weapons of the hero's people", required=True))),
    VerbSpec("caravan", "Champion: escort a caravan one province (+1 gold)",
             "`/caravan to:` escort a caravan one province (+1 gold)",
             (_arg("to", "The neighbouring province", required=True),)),
    VerbSpec("explore", "Champion: explore 2 provinces (3 with a horse) (+1 XP)",
             "`/explore path:` explore 2 provinces (3 with a horse), e.g. `latium>campania` (+1 XP)",
             (_arg("path", "The provinces to cross, e.g. latium>campania (or just where you stop)", required=True),)),
    VerbSpec("voyage", "Champion: sail across the Mare Internum to another port",
             "`/voyage to:` sail to another coastal province for 2 gold",
             (_arg("to", "The port to sail to", required=True),)),
    VerbSpec("commission", "Champion: take local commissions (+2 XP or +2 gold)",
             "`/commission reward:xp|gold` take local commissions (+2)",
             (_arg("reward", "xp or gold", required=True),)),
    VerbSpec("recuperate", "Champion: rest — full life in a city, +2 elsewhere",
             "`/recuperate` rest: full life in a city, +2 elsewhere"),
    VerbSpec("lore", "Champion: learn a secret shrine's lore (2 gold, +1 information)",
             "`/lore` learn a secret shrine's lore (2 gold, +1 information)"),
    VerbSpec("develop", "Champion: spend experience (initiative 4, combat 3, life 2)",
             "`/develop attribute:initiative|combat|life` spend experience (4/3/2)",
             (_arg("attribute", "initiative, combat or life", required=True),)),
    VerbSpec("buy", "Champion: buy an item on offer (setup offer or local market)",
             "`/buy item:` buy an item on offer", (_arg("item", "The item", required=True),)),
    VerbSpec("pass", "Champion: skip the item offer or the market; in the lair, draw a story card",
             "`/pass` skip the offer or the market; in the lair, draw a story card instead"),
    VerbSpec("use", "Champion: use a healing item (outside fights)", "`/use item:` use a healing item",
             (_arg("item", "The healing item", required=True),)),
    VerbSpec("attack", "Champion: attack your monster in its lair",
             "`/attack` fight your monster in its lair; in a fight, `/attack card: target:`",
             (_arg("card", "In a fight: the combat card to attack with"),
              _arg("target", "In a fight: which opponent (by number)"))),
    VerbSpec("choose", "Champion: answer a story card, or pick a story card or monster",
             "`/choose option:` answer a story card, or pick a story card or a monster",
             (_arg("option", "The option", required=True),)),
    VerbSpec("drop", "Champion: give up an item", "`/drop item:` give up an item",
             (_arg("item", "The item to give up", required=True),)),
    VerbSpec("weapon", "Champion: the weapon you fight with (before the fight)",
             "`/weapon item:` the weapon you fight with", (_arg("item", "The weapon, or none", required=True),)),
    VerbSpec("ranged", "Champion: your one ranged attack before melee",
             "`/ranged item: target:` your one ranged attack before melee",
             (_arg("item", "The ranged weapon, or none", required=True), _arg("target", "Which opponent (by number)"))),
    VerbSpec("play", "Champion, in a fight: attack with a combat card",
             "`/play card: target:` attack with a combat card (opponents' player: `foe:`)",
             (_arg("card", "The card's type", required=True), _arg("target", "Which opponent (the hero)"), _FOE)),
    VerbSpec("defend", "Champion, in a fight: with no matching card, the card you throw down",
             "`/defend card: order:` with no matching card, the card you throw down (`order:torso,hand,leg` "
             "queues the next throws for the rest of the fight)",
             (_arg("card", "The card's type", required=True), _FOE,
              ArgSpec("order", "Optional: card types to throw first for the rest of the fight, e.g. torso,hand",
                      complete=False))),
    VerbSpec("keep", "Champion, end of a combat round: keep at most two cards",
             "`/keep cards:` at the end of a combat round keep at most two (e.g. `head,leg`)",
             (_arg("cards", "e.g. head,leg — or none", required=True), _FOE)),
    VerbSpec("hand", "Champion: your choices and your hand of combat cards (only you see them)",
             "`/hand` your private choices: the hero to pick, your hand in a fight, the lair",
             kind="view", view="hand"),
    VerbSpec("sheet", "Champion: your character sheet, your region cards and your monster's lair",
             "`/sheet` your character sheet (and, for you alone, the lair)", kind="view", view="sheet"),
)

RULES: tuple[RulesSection, ...] = (
    RulesSection("overview", "Champion of the Empire in brief",
                 "It is AD 115. Each player is a hero of one of the Empire's peoples — Roman, Egyptian, Greek, "
                 "Dacian or Gaulish — hunting a beast out of the old myths. Nobody knows at first which monster "
                 "is theirs or where it lairs: the trail is pieced together from **information** found on the "
                 "road. Six pieces (five with `short`) name the lair; the first hero to kill their own monster "
                 "there is the **Champion of the Empire** and wins.\n"
                 "At the start each player picks a hero (first come, first served), one of the two sides of its "
                 "sheet (its starting numbers) and one of its people's two weapons, then may buy one of two item "
                 "cards turned up for them. These picks stay private until everyone is ready."),
    RulesSection("turn", "A turn",
                 "Every round opens with an **event card** that bends a rule for that round (dearer markets, no "
                 "ships, rain on the roads…). Then each hero in turn takes **one action**:\n"
                 "• **caravan** — go to a neighbouring province or stay (+1 gold);\n"
                 "• **explore** — up to 2 provinces, 3 with a horse (+1 XP);\n"
                 "• **voyage** — sail from one port to another across the Mare Internum for 2 gold;\n"
                 "• **commission** — +2 XP or +2 gold, never twice in a row;\n"
                 "• **recuperate** — full life in a city, +2 elsewhere;\n"
                 "• **lore** — at a secret shrine where your last turn ended, 2 gold for a piece of information.\n"
                 "The three moves are followed by a story card. A turn that ends in a city opens its market. "
                 "Experience can be spent at any time on your turn: initiative 4 XP, combat 3, maximum life 2."),
    RulesSection("moving", "Moving and the map",
                 "Provinces touch along land borders and a few narrow crossings (dashed on the map). An "
                 "exploration never passes the same province twice and may stop early. A caravan ignores horses. "
                 "Voyages go only between ports of the Mare Internum and roll a die: a 1 means shipwreck — "
                 "you still wash ashore where you were bound, but lose an item you pick (never the starting "
                 "weapon). The map washes light every province you can reach this turn."),
    RulesSection("stories", "Story cards",
                 "After moving, draw a story card from the deck of the province's icon: jug, amphora and basket "
                 "are **easy**; campfire, scroll and bow **medium**; sword and chest **hard**. A card either asks "
                 "you to choose (options you cannot pay for are closed) or to roll a d6. Outcomes give or take "
                 "gold, XP, life and items, give information, place a card in front of you for later, or start a "
                 "fight. With the `fate` variant, laurels and skulls move a marker; at either end two cards are "
                 "drawn and you (or your rival) choose which is faced."),
    RulesSection("fights", "Fights",
                 "Pick your weapon (or two one-handed ones); both sides draw combat cards up to their combat "
                 "value, plus the armed cards of weapons and shields. Each side may make one ranged attack, then "
                 "melee: roll d6 + initiative, the higher total attacks first. The attacker plays a card "
                 "(torso, head, hand, leg, inspired); the defender must answer with the same type or throw a card "
                 "down and take the wound — a head costs 2 life, a leg also lowers initiative. Later rolls: a 6 "
                 "wins, a 1 loses, doubles go to the higher initiative, ties to the hero. When a side runs out of "
                 "cards the round ends: keep at most two, draw again. The player to the hero's right plays the "
                 "opponents (or Tabula, with `opponents: bot`). Losing leaves you at 2 life, half your gold and an "
                 "item poorer."),
    RulesSection("items", "Items and the market",
                 "A hero carries at most four items: weapons, shields, armour, horses, healing and a few helpers. "
                 "The starting weapon is never lost. A city's market lays out three item cards after your action: "
                 "buy one or leave. Healing items are used on your turn outside fights."),
    RulesSection("lair", "Information and the lair",
                 "Each piece of information sets aside one of your region cards at random; when the sixth piece "
                 "comes, a province card points to one province of the last region: your monster's **lair**, "
                 "which only you know (`/sheet`). The first hero to complete a trail draws three monster sheets and "
                 "keeps one, the second two, the rest take one at random. Go to the lair and `/attack`: the "
                 "monster fights like any opponent, with its special abilities. Losing the final battle loses "
                 "the trail too."),
    RulesSection("winning", "Winning",
                 "Kill your own monster in its lair and the game ends at once: you are the Champion of the "
                 "Empire. The others are ranked by the information they gathered. Tips: raise initiative early, "
                 "and keep away from the hard decks when your life is low."),
)

SPEC = GameSpec(
    key="champion",
    title="Champion of the Empire",
    summary="Roam the Roman Empire of AD 115 as a hero of an ancient people: escort caravans, explore, sail, "
            "face story cards and fights, gather six pieces of information and be the first to slay your "
            "mythological monster. 2–4 players; options `opponents`, `fate`, `short`, `heroic`.",
    min_players=2,
    max_players=4,
    options=(
        OptionSpec("opponents", "Who plays story opponents: players (the hero's right) or bot",
                   kind="choice", choices=("players", "bot"), default="players"),
        OptionSpec("fate", "Use the fate track variant (a second story card, chosen by you or your rival)",
                   kind="flag", default=False),
        OptionSpec("short", "The shorter version: five pieces of information reveal the lair",
                   kind="flag", default=False),
        OptionSpec("heroic", "The heroic version: +1 combat value and life for every opponent",
                   kind="flag", default=False),
    ),
    verbs=VERBS,
    bench=(BenchSpec("48-province map, opponents played by players", {"opponents": "players"}, players=3),
           BenchSpec("opponents played by Tabula, fate track", {"opponents": "bot", "fate": True}, players=4)),
    intro="Win by slaying your own monster first: six pieces of information (from story cards and shrine lore) "
          "tell you which beast you hunt and where its lair lies.\n"
          "Each turn: one action — caravan, explore or voyage (a story card follows), commissions, rest or lore — "
          "then the market if you are in a city; spend experience on your hero at any time on your turn.",
    rules=RULES,
)
