"""Champion of the Empire declared as data: the lobby text, the options, the verbs and the benchmark."""

from __future__ import annotations

from rules.champion.i18n import N_, N_p
from rules.spec import ArgSpec, BenchSpec, GameSpec, OptionSpec, RulesSection, VerbSpec


def _arg(name: str, description: str, *, required: bool = False, values: tuple[str, ...] = ()) -> ArgSpec:
    return ArgSpec(name=name, description=description, required=required, values=values)


#: The words options take, named in every language (a hint reads them so; typed in any, they are understood).
CARDS = (N_p("value", "head"), N_p("value", "torso"), N_p("value", "hand"), N_p("value", "leg"),
         N_p("value", "inspired"))
REWARDS = (N_p("value", "xp"), N_p("value", "gold"))
ATTRIBUTES = (N_p("value", "initiative"), N_p("value", "combat"), N_p("value", "life"))
_FOE = _arg(N_p("option", "foe"), N_("Which opponent you are playing for (whoever plays the opponents), by number"))

VERBS: tuple[VerbSpec, ...] = (
    VerbSpec(N_p("command", "hero"), N_("Champion: choose your hero, the side of the sheet and a weapon"),
             N_("`/hero hero: side: weapon:` choose your hero, the side of the sheet and a starting weapon"),
             (_arg(N_p("option", "hero"), N_("The hero"), required=True),
              _arg(N_p("option", "side"), N_("The side of the sheet: 1, 2 or its name"), required=True),
              _arg(N_p("option", "weapon"), N_("One of the two starting weapons of the hero's people"),
                   required=True))),
    VerbSpec(N_p("command", "caravan"), N_("Champion: escort a caravan one province (+1 gold)"),
             N_("`/caravan to:` escort a caravan one province (+1 gold)"),
             (_arg(N_p("option", "to"), N_("The neighbouring province"), required=True),)),
    VerbSpec(N_p("command", "explore"), N_("Champion: explore 2 provinces (3 with a horse) (+1 XP)"),
             N_("`/explore path:` explore 2 provinces (3 with a horse), e.g. `latium>campania` (+1 XP)"),
             (ArgSpec(N_p("option", "path"),
                      N_("The provinces to cross, e.g. latium>campania (or just where you stop)"), required=True,
                      value_context="place"),)),
    VerbSpec(N_p("command", "voyage"), N_("Champion: sail across the Mare Internum to another port"),
             N_("`/voyage to:` sail to another coastal province for 2 gold"),
             (_arg(N_p("option", "to"), N_("The port to sail to"), required=True),)),
    VerbSpec(N_p("command", "commission"), N_("Champion: take local commissions (+2 XP or +2 gold)"),
             N_("`/commission reward:xp|gold` take local commissions (+2)"),
             (_arg(N_p("option", "reward"), N_("xp or gold"), required=True, values=REWARDS),)),
    VerbSpec(N_p("command", "recuperate"), N_("Champion: rest — full life in a city, +2 elsewhere"),
             N_("`/recuperate` rest: full life in a city, +2 elsewhere")),
    VerbSpec(N_p("command", "lore"), N_("Champion: learn a secret shrine's lore (2 gold, +1 information)"),
             N_("`/lore` learn a secret shrine's lore (2 gold, +1 information)")),
    VerbSpec(N_p("command", "develop"), N_("Champion: spend experience (initiative 4, combat 3, life 2)"),
             N_("`/develop attribute:initiative|combat|life` spend experience (4/3/2)"),
             (_arg(N_p("option", "attribute"), N_("initiative, combat or life"), required=True, values=ATTRIBUTES),)),
    VerbSpec(N_p("command", "buy"), N_("Champion: buy an item on offer (setup offer or local market)"),
             N_("`/buy item:` buy an item on offer"), (_arg(N_p("option", "item"), N_("The item"), required=True),)),
    VerbSpec(N_p("command", "pass"), N_("Champion: skip the item offer or the market; in the lair, draw a story card"),
             N_("`/pass` skip the offer or the market; in the lair, draw a story card instead")),
    VerbSpec(N_p("command", "use"), N_("Champion: use a healing item (outside fights)"),
             N_("`/use item:` use a healing item"),
             (_arg(N_p("option", "item"), N_("The healing item"), required=True),)),
    VerbSpec(N_p("command", "attack"), N_("Champion: attack your monster in its lair"),
             N_("`/attack` fight your monster in its lair; in a fight, `/attack card: target:`"),
             (_arg(N_p("option", "card"), N_("In a fight: the combat card to attack with"), values=CARDS),
              _arg(N_p("option", "target"), N_("In a fight: which opponent (by number)")))),
    VerbSpec(N_p("command", "choose"), N_("Champion: answer a story card, or pick a story card or monster"),
             N_("`/choose option:` answer a story card, or pick a story card or a monster"),
             (_arg(N_p("option", "option"), N_("The option"), required=True),)),
    VerbSpec(N_p("command", "drop"), N_("Champion: give up an item"), N_("`/drop item:` give up an item"),
             (_arg(N_p("option", "item"), N_("The item to give up"), required=True),)),
    VerbSpec(N_p("command", "weapon"), N_("Champion: the weapon you fight with (before the fight)"),
             N_("`/weapon item:` the weapon you fight with"), (_arg(N_p("option", "item"),
                                                                    N_("The weapon, or none"), required=True),)),
    VerbSpec(N_p("command", "ranged"), N_("Champion: your one ranged attack before melee"),
             N_("`/ranged item: target:` your one ranged attack before melee"),
             (_arg(N_p("option", "item"), N_("The ranged weapon, or none"), required=True),
              _arg(N_p("option", "target"), N_("Which opponent (by number)")))),
    VerbSpec(N_p("command", "play"), N_("Champion, in a fight: attack with a combat card"),
             N_("`/play card: target:` attack with a combat card (opponents' player: `foe:`)"),
             (_arg(N_p("option", "card"), N_("The card's type"), required=True, values=CARDS),
              _arg(N_p("option", "target"), N_("Which opponent (the hero)")), _FOE)),
    VerbSpec(N_p("command", "defend"), N_("Champion, in a fight: with no matching card, the card you throw down"),
             N_("`/defend card: order:` with no matching card, the card you throw down (`order:torso,hand,leg` "
             "queues the next throws for the rest of the fight)"),
             (_arg(N_p("option", "card"), N_("The card's type"), required=True, values=CARDS), _FOE,
              ArgSpec(N_p("option", "order"),
                      N_("Optional: card types to throw first for the rest of the fight, e.g. torso,hand"),
                      complete=False, values=CARDS))),
    VerbSpec(N_p("command", "keep"), N_("Champion, end of a combat round: keep at most two cards"),
             N_("`/keep cards:` at the end of a combat round keep at most two (e.g. `head,leg`)"),
             (_arg(N_p("option", "cards"), N_("e.g. head,leg — or none"), required=True, values=CARDS), _FOE)),
    VerbSpec(N_p("command", "hand"), N_("Champion: your choices and your hand of combat cards (only you see them)"),
             N_("`/hand` your private choices: the hero to pick, your hand in a fight, the lair"),
             kind="view", view="hand"),
    VerbSpec(N_p("command", "sheet"), N_("Champion: your character sheet, your region cards and your monster's lair"),
             N_("`/sheet` your character sheet (and, for you alone, the lair)"), kind="view", view="sheet"),
)

RULES: tuple[RulesSection, ...] = (
    RulesSection(N_p("topic", "overview"), N_("Champion of the Empire in brief"),
                 N_("It is AD 115. Each player is a hero of one of the Empire's peoples — Roman, Egyptian, Greek, "
                 "Dacian or Gaulish — hunting a beast out of the old myths. Nobody knows at first which monster "
                 "is theirs or where it lairs: the trail is pieced together from **information** found on the "
                 "road. Six pieces (five with `short`) name the lair; the first hero to kill their own monster "
                 "there is the **Champion of the Empire** and wins.\n"
                 "At the start each player picks a hero (first come, first served), one of the two sides of its "
                 "sheet (its starting numbers) and one of its people's two weapons, then may buy one of two item "
                 "cards turned up for them. These picks stay private until everyone is ready.")),
    RulesSection(N_p("topic", "turn"), N_("A turn"),
                 N_("Every round opens with an **event card** that bends a rule for that round (dearer markets, no "
                 "ships, rain on the roads…). Then each hero in turn takes **one action**:\n"
                 "• **caravan** — go to a neighbouring province or stay (+1 gold);\n"
                 "• **explore** — up to 2 provinces, 3 with a horse (+1 XP);\n"
                 "• **voyage** — sail from one port to another across the Mare Internum for 2 gold;\n"
                 "• **commission** — +2 XP or +2 gold, never twice in a row;\n"
                 "• **recuperate** — full life in a city, +2 elsewhere;\n"
                 "• **lore** — at a secret shrine where your last turn ended, 2 gold for a piece of information.\n"
                 "The three moves are followed by a story card. A turn that ends in a city opens its market. "
                 "Experience can be spent at any time on your turn: initiative 4 XP, combat 3, maximum life 2.")),
    RulesSection(N_p("topic", "moving"), N_("Moving and the map"),
                 N_("Provinces touch along land borders and a few narrow crossings (dashed on the map). An "
                 "exploration never passes the same province twice and may stop early. A caravan ignores horses. "
                 "Voyages go only between ports of the Mare Internum and roll a die: a 1 means shipwreck — "
                 "you still wash ashore where you were bound, but lose an item you pick (never the starting "
                 "weapon). The map washes light every province you can reach this turn.")),
    RulesSection(N_p("topic", "stories"), N_("Story cards"),
                 N_("After moving, draw a story card from the deck of the province's icon: jug, amphora and basket "
                 "are **easy**; campfire, scroll and bow **medium**; sword and chest **hard**. A card either asks "
                 "you to choose (options you cannot pay for are closed) or to roll a d6. Outcomes give or take "
                 "gold, XP, life and items, give information, place a card in front of you for later, or start a "
                 "fight. With the `fate` variant, laurels and skulls move a marker; at either end two cards are "
                 "drawn and you (or your rival) choose which is faced.")),
    RulesSection(N_p("topic", "fights"), N_("Fights"),
                 N_("Pick your weapon (or two one-handed ones); both sides draw combat cards up to their combat "
                 "value, plus the armed cards of weapons and shields. Each side may make one ranged attack, then "
                 "melee: roll d6 + initiative, the higher total attacks first. The attacker plays a card "
                 "(torso, head, hand, leg, inspired); the defender must answer with the same type or throw a card "
                 "down and take the wound — a head costs 2 life, a leg also lowers initiative. Later rolls: a 6 "
                 "wins, a 1 loses, doubles go to the higher initiative, ties to the hero. When a side runs out of "
                 "cards the round ends: keep at most two, draw again. The player to the hero's right plays the "
                 "opponents (or Tabula, with `opponents: bot`). Losing leaves you at 2 life, half your gold and an "
                 "item poorer.")),
    RulesSection(N_p("topic", "items"), N_("Items and the market"),
                 N_("A hero carries at most four items: weapons, shields, armour, horses, healing and a few helpers. "
                 "The starting weapon is never lost. A city's market lays out three item cards after your action: "
                 "buy one or leave. Healing items are used on your turn outside fights.")),
    RulesSection(N_p("topic", "lair"), N_("Information and the lair"),
                 N_("Each piece of information sets aside one of your region cards at random; when the sixth piece "
                 "comes, a province card points to one province of the last region: your monster's **lair**, "
                 "which only you know (`/sheet`). The first hero to complete a trail draws three monster sheets and "
                 "keeps one, the second two, the rest take one at random. Go to the lair and `/attack`: the "
                 "monster fights like any opponent, with its special abilities. Losing the final battle loses "
                 "the trail too.")),
    RulesSection(N_p("topic", "winning"), N_("Winning"),
                 N_("Kill your own monster in its lair and the game ends at once: you are the Champion of the "
                 "Empire. The others are ranked by the information they gathered. Tips: raise initiative early, "
                 "and keep away from the hard decks when your life is low.")),
)

SPEC = GameSpec(
    key="champion",
    title=N_("Champion of the Empire"),
    summary=N_("Roam the Roman Empire of AD 115 as a hero of an ancient people: escort caravans, explore, sail, "
            "face story cards and fights, gather six pieces of information and be the first to slay your "
            "mythological monster. 2–4 players; options `opponents`, `fate`, `short`, `heroic`."),
    min_players=2,
    max_players=4,
    options=(
        OptionSpec(N_p("option", "opponents"), N_("Who plays story opponents: players (the hero's right) or bot"),
                   kind="choice", choices=(N_p("choice", "players"), N_p("choice", "bot")), default="players"),
        OptionSpec(N_p("option", "fate"),
                   N_("Use the fate track variant (a second story card, chosen by you or your rival)"),
                   kind="flag", default=False),
        OptionSpec(N_p("option", "short"), N_("The shorter version: five pieces of information reveal the lair"),
                   kind="flag", default=False),
        OptionSpec(N_p("option", "heroic"), N_("The heroic version: +1 combat value and life for every opponent"),
                   kind="flag", default=False),
        OptionSpec(N_p("option", "tabula_level"),
                   N_("How Tabula plays its heroes: easy, normal or strong (a search that thinks about 2 s a move)"),
                   choices=(N_p("choice", "easy"), N_p("choice", "normal"), N_p("choice", "strong")),
                   default="easy"),
    ),
    verbs=VERBS,
    bench=(BenchSpec("48-province map, opponents played by players", {"opponents": "players"}, players=3),
           BenchSpec("opponents played by Tabula, fate track", {"opponents": "bot", "fate": True}, players=4)),
    intro=N_("Win by slaying your own monster first: six pieces of information (from story cards and shrine lore) "
          "tell you which beast you hunt and where its lair lies.\n"
          "Each turn: one action — caravan, explore or voyage (a story card follows), commissions, rest or lore — "
          "then the market if you are in a city; spend experience on your hero at any time on your turn."),
    rules=RULES,
    languages=("en", "hu", "el", "ja"),
)
