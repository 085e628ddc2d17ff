"""Autokrator declared as data: the lobby text, the options, the verbs, the rules summary and the benchmark."""

from __future__ import annotations

from rules.i18n import N_, N_p
from rules.spec import ArgSpec, BalanceSpec, BenchSpec, GameSpec, OptionSpec, RulesSection, VerbSpec


def _arg(name: str, description: str, *, required: bool = False, complete: bool = True,
         values: tuple[str, ...] = ()) -> ArgSpec:
    return ArgSpec(name=name, description=description, required=required, complete=complete, values=values)


UNIT, TO = N_p("option", "unit"), N_p("option", "to")
#: The words options take, named in every language (a hint reads them so; typed in any, they are understood).
UNITS = (N_p("value", "king"), N_p("value", "general"), N_p("value", "admiral"))
GARRISON, SAME, TURN = N_p("value", "garrison"), N_p("value", "same"), N_p("value", "turn")
FIELDS = (N_p("value", "plain"), N_p("value", "hill"), N_p("value", "forest"), N_p("value", "city"),
          N_p("value", "ambush"))
ANSWERS = (N_p("value", "yes"), N_p("value", "no"))
VERBS: tuple[VerbSpec, ...] = (
    VerbSpec(N_p("command", "move"), N_("Autokrator: march your King or General to a neighbouring region"),
             N_("`/move unit: to:` march the King or General one region (the General may make two within your "
                "lands)"),
             (_arg(UNIT, N_("king or general"), required=True, values=UNITS[:2]),
              _arg(TO, N_("The neighbouring region"), required=True))),
    # The army's own word, typed in the terminal or carried by a menu; the same as `/move`.
    VerbSpec(N_p("command", "march"), N_("Autokrator: march your King or General (the same as /move)"),
             N_("`/march unit: to:` the same as `/move`"),
             (_arg(UNIT, N_("king or general"), required=True, values=UNITS[:2]),
              _arg(TO, N_("The neighbouring region"), required=True)),
             slash=False),
    VerbSpec(N_p("command", "voyage"), N_("Autokrator: sail your Admiral to a port of his anchor colour"),
             N_("`/voyage to:` sail the Admiral to any port with his anchor colour"),
             (_arg(TO, N_("The port to sail to"), required=True),)),
    VerbSpec(N_p("command", "attack"), N_("Autokrator: attack an enemy unit or the region where your unit stands"),
             N_("`/attack unit: target:` fight an enemy unit where your unit stands, or the region itself"),
             (_arg(UNIT, N_("Your attacking unit: king, general or admiral"), values=UNITS),
              _arg(N_p("option", "target"), N_("An enemy unit (e.g. sar.king) or region")))),
    VerbSpec(N_p("command", "pass"), N_("Autokrator: a unit rests (or, with no unit, your turn ends)"),
             N_("`/pass unit:` the unit rests for this epoch; `/pass unit:turn` ends your turn"),
             (_arg(UNIT, N_("king, general, admiral, or turn"), values=(*UNITS, TURN)),)),
    VerbSpec(N_p("command", "campaign"), N_("Autokrator: pay gold for a unit's campaign"),
             N_("`/campaign unit:` the King, General or Admiral's campaign, paid in gold (see `/rules topic:gold`)"),
             (_arg(UNIT, N_("king, general or admiral"), required=True, values=UNITS),), slash=False),
    VerbSpec(N_p("command", "spy"), N_("Autokrator: pay gold to see an enemy unit's three cards"),
             N_("`/spy target:` see an enemy unit's cards this epoch (2 gold)"),
             (_arg(N_p("option", "target"), N_("e.g. sar.general"), required=True),), slash=False),
    VerbSpec(N_p("command", "truce"), N_("Autokrator: offer a truce to a realm, or answer one"),
             N_("`/truce realm:` offer a truce for this epoch and the next; `/truce answer:yes|no` answer one"),
             (_arg(N_p("option", "realm"), N_("sar, byz, fra or moo")),
              _arg(N_p("option", "answer"), N_("yes or no"), values=ANSWERS)), slash=False),
    VerbSpec(N_p("command", "assign"), N_("Autokrator: give a unit two of your battle cards for this epoch"),
             N_("`/assign unit: cards:` two cards for a unit (its fixed card is the third)"),
             (_arg(UNIT, N_("king, general, admiral or garrison"), required=True, values=(*UNITS, GARRISON, SAME)),
              _arg(N_p("option", "cards"), N_("Two card ids, comma-separated"), required=True)), slash=False),
    VerbSpec(N_p("command", "fields"), N_("Autokrator battle: as attacker, offer two battlefields"),
             N_("`/fields fields:` as attacker, the two battlefields you offer"),
             (_arg(N_p("option", "fields"), N_("Two of plain, hill, forest, city, ambush"), required=True,
                   values=FIELDS),),
             slash=False),
    VerbSpec(N_p("command", "field"), N_("Autokrator battle: as defender, choose the battlefield"),
             N_("`/field field:` as defender, the battlefield of the two offered"),
             (_arg(N_p("option", "field"), N_("One of the two battlefields offered"), required=True, values=FIELDS),),
             slash=False),
    VerbSpec(N_p("command", "lineup"), N_("Autokrator battle: lay your three cards face down, with your markers"),
             N_("`/lineup cards: marks:` your three cards in order and which carry your modifier markers"),
             (_arg(N_p("option", "cards"), N_("Three card ids in order"), required=True),
              _arg(N_p("option", "marks"), N_("Positions 1–3 with a marker"))),
             slash=False),
    VerbSpec(N_p("command", "retreat"), N_("Autokrator: where your beaten unit falls back"),
             N_("`/retreat to:` where your beaten unit falls back"),
             (_arg(TO, N_("One of your neighbouring regions"), required=True),), slash=False),
    VerbSpec(N_p("command", "realm"), N_("Autokrator: before the war, take one of the realms still free"),
             N_("`/realm realm:` take a realm still free, when it is your choice (`realms:choice` or "
                "`realms:auction`)"),
             (_arg(N_p("option", "realm"), N_("Saracens, Byzantium, Franks or Moors"), required=True),), slash=False),
    VerbSpec(N_p("command", "bid"), N_("Autokrator: before the war, bid points to choose your realm early"),
             N_("`/bid points:` your secret bid: the highest bids choose their realms first and pay for it in "
                "points"),
             (_arg(N_p("option", "points"), N_("From 0 to 3"), required=True),), slash=False),
    VerbSpec(N_p("command", "hand"),
             N_("Autokrator: your battle cards, your units' cards and your battle row (only you see them)"),
             N_("`/hand` your battle cards and your private choices"), kind="view", view="hand"),
)

RULES: tuple[RulesSection, ...] = (
    RulesSection(N_p("topic", "overview"), N_("Autokrator"), N_(
                 "Four realms — Saracens, Byzantium, Franks and Moors — fight for the "
                 "Mediterranean world between the 7th and the 11th century. Each realm has a King, a General, an "
                 "Admiral and up to seven Garrisons, and twelve battle cards. Five epochs are played. Conquer "
                 "regions and beat enemy units to score; take an enemy capital to win at once. Two players fight "
                 "Saracens against Byzantium (`mode:east`) or Franks against Moors (`mode:west`).")),
    RulesSection(N_p("topic", "epoch"), N_("An epoch"), N_(
                 "Each epoch opens with a historical report and a condition that holds until it "
                 "ends. From the second epoch every realm gains 2 gold (never above 11). Then everyone, at the same "
                 "time and in secret, gives each unit three cards: its own fixed card (crown, knight, ship, tower) "
                 "and two more, never two of the same army on one unit. With the small expansion a Neutral General "
                 "raids out of Bulgaria, Asturias, Hungary or Armenia. Then the realms take their turns in order: "
                 "Saracens, Byzantium, Franks, Moors. In the fast game (always with two players) the realms take "
                 "turns one unit at a time.")),
    RulesSection(N_p("topic", "units"), N_("Units"), N_(
                 "The King moves one region, then may attack. The General moves and attacks, or "
                 "makes two moves between his own regions. The Admiral sails to any port with his anchor colour "
                 "(red: Saracens and Byzantium; yellow: Franks and Moors), then may attack. A unit attacks where it "
                 "stands: enemy units there first, then the region. A unit that enters enemy or neutral ground, or "
                 "starts its turn beside enemies, must fight before anything else. King and General never share a "
                 "region except the capital. Garrisons only defend. Bulgaria, Armenia, Asturias and Hungary can "
                 "never be entered or conquered.")),
    RulesSection(N_p("topic", "battle"), N_("Battle"), N_(
                 "The attacker offers two of the five battlefields (Plain, Hill, Forest, City, "
                 "Ambush); the defender picks one. Both lay their three cards face down in order, and place their "
                 "unit's modifier markers (from its life track; a defending region adds +1 per coat of arms, +3 for "
                 "a capital, +1 for a Garrison piece), one per card. Three clashes follow, card against card: each "
                 "win is a point. One more point for more swords, one for more troops. A level score goes to the "
                 "attacker. The loser's unit loses a life and falls back to a neighbouring region of its own (the "
                 "King to his capital if there is none; the General too, losing another life; an Admiral with no "
                 "port of his own is lost). A beaten Garrison gives up its region.")),
    RulesSection(N_p("topic", "gold"), N_("Gold: campaigns, spies and truces"), N_(
                 "Spies (2 gold) show you one enemy unit's three cards "
                 "for the epoch. The King's campaign (3 gold) lets him make two moves before he attacks. The "
                 "General's campaign (4 gold) lets him march and fight once more after a victory. The Admiral's "
                 "campaign (2 gold) lets him sail to a port of either colour. In the Third Epoch every campaign "
                 "costs 1 less. Once an epoch a realm may offer another a truce: if accepted, neither attacks the "
                 "other until the end of the next epoch. Two-player games have no Admiral's campaign and no truce.")),
    RulesSection(N_p("topic", "winning"), N_("Winning"), N_(
                 "A realm that takes an enemy capital wins at once. Otherwise, after the "
                 "fifth epoch, the most points win: 1 for a neutral region, 2 for an enemy region, 1 for beating an "
                 "enemy unit and 1 more for destroying it, 1 for driving off a raid. In the four-realm game the "
                 "Franks and the Moors start with 1 point (2 without raids, and Byzantium then with 1); Byzantium "
                 "against the Saracens without raids starts with 1. Level scores are compensation too: in the fast "
                 "game Byzantium wins one against the Saracens; without raids Byzantium wins one against the Franks "
                 "and the Moors (in the fast game against the Saracens and the Franks instead), and the Franks "
                 "against the Moors. Other ties go to the realm holding more conquered regions, then to more gold, "
                 "then to the realm later in the turn order.")),
)

#: The settings whose balance is measured (`python -m bot.balance autokrator`; RULES.md has the figures).
PAIRS = ("east", "west")
MODES = {"east": "2 realms, Saracens against Byzantium", "west": "2 realms, Franks against Moors",
         "full": "4 realms, full turns", "fast": "4 realms, one unit at a time"}

SPEC = GameSpec(
    key="autokrator",
    title=N_("Autokrator"),
    summary=N_("The medieval Mediterranean, 630–1050: lead the Saracens, Byzantium, the Franks or the Moors with a "
            "King, a General and an Admiral, hidden battle cards and five battlefields, over five epochs. 2 or 4 "
            "realms (Tabula plays any realm); options `mode`, `realms`, `raids`."),
    min_players=2,
    max_players=4,
    options=(
        OptionSpec(N_p("option", "mode"), N_("Autokrator: full or fast (4 realms); east or west (2 players)"),
                   kind="choice",
                   choices=(N_p("choice", "full"), N_p("choice", "fast"), N_p("choice", "east"),
                            N_p("choice", "west"))),
        OptionSpec(N_p("option", "realms"),
                   N_("Autokrator: who plays which realm — drawn, chosen in joining order, or bid for in points"),
                   kind="choice", choices=(N_p("choice", "random"), N_p("choice", "choice"), N_p("choice", "auction")),
                   default="random"),
        OptionSpec(N_p("option", "raids"),
                   N_("Autokrator: the small expansion — Neutral Generals raid, Neutral Regions own cards"),
                   kind="flag", default=True),
        OptionSpec(N_p("option", "tabula_level"),
                   N_("Autokrator: how Tabula plays its realms — easy, normal or strong (thinks about 2 s a move)"),
                   choices=(N_p("choice", "easy"), N_p("choice", "normal"), N_p("choice", "strong")),
                   default="easy"),
    ),
    verbs=VERBS,
    bench=(BenchSpec("four realms, all units in a turn", {"mode": "full"}, players=4),
           BenchSpec("two players, Saracens against Byzantium", {"mode": "east"}, players=2)),
    balance=tuple(BalanceSpec(f"{mode}{'' if raids else '-noraids'}",
                              f"{MODES[mode]}, raids {'on' if raids else 'off'}",
                              {"mode": mode, "raids": raids, "realms": "random"}, players=2 if mode in PAIRS else 4)
                  for mode in MODES for raids in (True, False)),
    intro=N_("Conquer regions and beat enemy units for points over five epochs; take an enemy capital to win at once.\n"
          "Each epoch: deal your battle cards to your units in secret, then on your turn move and fight with your "
          "King, General and Admiral (`/move`, `/voyage`, `/attack`, `/pass`); battles are fought card by card."),
    rules=RULES,
    languages=("en", "el", "hu", "ja"),
)
