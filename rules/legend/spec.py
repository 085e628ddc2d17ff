"""Legend of Heroes as the platform reads it: the lobby text, the options, the verbs and their help lines, and
the configurations the benchmark plays.  Plain data."""

from __future__ import annotations

from rules.i18n import N_, N_p
from rules.legend.i18n import _
from rules.spec import ArgSpec, BenchSpec, GameSpec, OptionSpec, RulesSection, VerbSpec

NARRATION_MAX = 1500  # characters of a Narrator's telling
NOTE_MAX = 300  # characters of a scene note

HERO = ArgSpec(N_p("option", "hero"), N_("Which hero of your party (the list shows who can)"), required=True,
               value_context="hero")

#: Verbs of every mode.
STARTER_VERBS = (
    VerbSpec(N_p("command", "explore"), N_("Enter the dungeon or move to a doorway linked by one corridor or one room"),
             N_("`/explore to:D7` move (or enter the dungeon) — `/explore` alone lists the choices"),
             args=(ArgSpec(N_p("option", "to"), N_("Where to go (the list shows every legal choice)"),
                           required=True),)),
    VerbSpec(N_p("command", "narrate"), N_("Narrator: see the card in hand, or tell it in your words"),
             N_("`/narrate` look at the card in hand as Narrator · `/narrate text:` tell it · "
             "`/narrate note:` pin a scene note"),
             args=(ArgSpec(N_p("option", "text"),
                           N_("Your telling of the card (leave out to read the card privately first)"),
                           complete=False, free_text=True, max_length=NARRATION_MAX),
                   ArgSpec(N_p("option", "note"),
                           N_("A short scene note pinned to the room, told again when a party next enters it"),
                           complete=False, free_text=True, max_length=NOTE_MAX)),
             view="card"),
    VerbSpec(N_p("command", "sheet"), N_("Your fighter card (or party) and treasure (only you see it)"),
             N_("`/sheet` your fighter card (or party) and treasure, only for you"), kind="view", view="sheet"),
)

#: Verbs of the Expanded Game (parties of five heroes).
EXPANDED_VERBS = (
    VerbSpec(N_p("command", "attack"), N_("Your Leader strikes the Monster (or faces the Hazard again)"),
             N_("`/attack` Expanded Game: your Leader strikes (or faces the Hazard again)")),
    VerbSpec(N_p("command", "cast"), N_("Your Magic User, leading, casts his spell at the Monster"),
             N_("`/cast` Expanded Game: your Magic User, leading, casts his spell")),
    VerbSpec(N_p("command", "study"), N_("Miss a turn while your Magic User learns a new spell"),
             N_("`/study` Expanded Game: miss a turn while your Magic User learns a new spell")),
    VerbSpec(N_p("command", "heal"), N_("Miss a turn while your Cleric tends the wounded"),
             N_("`/heal` Expanded Game: miss a turn while your Cleric tends the wounded")),
    VerbSpec(N_p("command", "party"), N_("Your party and its spell card, with menus to rearrange it outside fights"),
             N_("`/party` Expanded Game: see your party and spell, and reorder it"), kind="view",
             view="party"),
    VerbSpec(N_p("command", "lead"), N_("Make another hero of your party the Leader"),
             N_("`/lead hero:Rolf` make another hero the Leader when asked"),
             args=(HERO,), slash=False),
    VerbSpec(N_p("command", "keep"), N_("Keep your Leader and let the announced card be drawn"),
             N_("`/keep` keep your Leader before the announced card is drawn"),
             slash=False),
    VerbSpec(N_p("command", "retreat"), N_("Fall back to the doorway you came in by"),
             N_("`/retreat` fall back from a fight to the doorway you came in by"),
             slash=False),
    VerbSpec(N_p("command", "front"), N_("Put a hero at the front of your party (the Leader), outside fights"),
             N_("`/front hero:Rolf` put a hero at the front of your party (the Leader)"), args=(HERO,), slash=False),
    VerbSpec(N_p("command", "back"), N_("Send a hero to the back of your party, outside fights"),
             N_("`/back hero:Rolf` send a hero to the back of your party"), args=(HERO,), slash=False),
    VerbSpec(N_p("command", "order"), N_("Lay out your whole party left to right (the last one leads), outside fights"),
             N_("`/order order:` lay out your party left to right (hero ids, commas between)"),
             args=(ArgSpec(N_p("option", "order"), N_("Your five heroes left to right, the Leader last"), required=True,
                           complete=False, max_length=100),), slash=False),
)

#: What a refusal lists in each mode, compactly (a refusal stays a line or two long).
_REFUSAL_STARTER = N_("`/explore to:` (move), `/narrate text:` (as Narrator), `/sheet`")
_REFUSAL_EXPANDED = N_("`/explore to:` (move), `/attack` or `/cast` (fight), `/study` or `/heal` (rest a turn), "
                       "`/narrate text:` (as Narrator), `/party`")


def verbs_for(expanded: bool) -> str:
    """The verbs a refusal lists for this mode of the game, as it says them."""
    return _(_REFUSAL_EXPANDED if expanded else _REFUSAL_STARTER)


#: What the opening message adds to the intro in each mode (and with players narrating).
MODE_INTROS = {
    "solo": N_("Solo: you explore alone and Tabula narrates; the game also ends at your eighth wound "
               "(the board counts them)."),
    "expanded": N_("Expanded Game: you lead a party of five. Choose the Leader before each danger, `/attack` or "
                   "`/cast`, and rest a turn to `/heal` or `/study`; `/party` shows your row."),
    "solo-expanded": N_("Solo Expanded Game: you lead a party of five alone; the game also ends at the party's "
                        "eighth wound. Choose the Leader before each danger, `/attack` or `/cast`, and rest to "
                        "`/heal` or `/study`."),
    "players": N_("Players narrate: the player before the explorer reads each room's cards — `/narrate` shows "
                  "you the card, `/narrate text:` tells it."),
}

#: The rules in brief, in our own words: what `/rules topic:` pages through (the first is the overview).
RULES = (
    RulesSection(N_p("topic", "overview"), N_("Legend of Heroes in brief"),
                 N_("Two to five fighters (or one, playing solo) explore the twelve rooms of the Dungeons of Legend. "
                 "Each room hides a story told card by card: a Room card sets the scene, and red arrows lead on "
                 "to a Feature, a Monster or a Hazard, a Treasure, or the End of Room.\n"
                 "**To win:** when the last room is fully explored, the player holding the most gold wins "
                 "(equal gold shares the victory).\n"
                 "**Modes:** `mode:starter` (2–5 players, one Fighter each), `mode:solo` (one player, the game "
                 "also ends at the eighth wound) and `mode:expanded` (1–5 players, a party of five heroes "
                 "each). `narration:players` lets the player before the explorer read the cards.")),
    RulesSection(N_p("topic", "turn"), N_("A turn"),
                 N_("First everyone steps in: in turn order, `/explore to:` a free doorway beside one of the five "
                 "purple entrances.\n"
                 "After that a turn is one move: from your red doorway square to another one joined to it by a "
                 "single corridor or a single room, with no door in between, and not taken by another fighter. "
                 "There are no dice for moving. `/explore` alone lists where you can go; the board rings every "
                 "choice.\n"
                 "If the move passes through a room that still holds a card, you stop and explore it (see "
                 "`/rules topic:exploring`). Standing at a room's door you may also explore it and come back "
                 "out by the same doorway. If every doorway in reach is taken you wait a turn.")),
    RulesSection(N_p("topic", "exploring"), N_("Exploring a room"),
                 N_("The room's face-down card is turned up and read. Each card ends with a red arrow naming the "
                 "next pile to draw from, so the cards run on into one story: a Room, perhaps a Feature, "
                 "perhaps a Monster or Hazard to face, perhaps a Treasure, until a card says End of Room.\n"
                 "At End of Room you come out at the doorway you chose when you moved, the cards read are set "
                 "aside and the room is explored: the board greys it out.\n"
                 "A room left with a danger in it (someone was wounded or retreated) is partly explored: the "
                 "board marks it with a \"!\" and whoever goes in next faces that danger first.")),
    RulesSection(N_p("topic", "fights"), N_("Monsters and hazards"),
                 N_("Every Fighter card has a red dot under one of five boxes, A to E. Against a Monster or Hazard "
                 "you need the number in that box of the danger's card, or more, on a d20.\n"
                 "**Hazard:** one roll. Make it and you are past; miss and you are wounded.\n"
                 "**Monster:** if you miss, it strikes back, needing the number on *your* card under the box of "
                 "*its* red dot. You take turns until you kill it or it wounds you, all in one turn.\n"
                 "**Wounded:** you fall back to the doorway you came in by, the danger stays face down in the "
                 "room, and your turn ends. You are fit again when your next turn starts. The card picture "
                 "rings the box each roll was read from and lists the rolls.")),
    RulesSection(N_p("topic", "treasure"), N_("Treasure and gold"),
                 N_("A Treasure card is kept by the explorer who finds it; its gold counts at the end. Treasure is "
                 "never lost, not even when you are wounded.\n"
                 "The board's player panel shows everyone's gold as it grows, and `/sheet` lists what you "
                 "carry. When the last room is explored the game ends at once and the final board shows the "
                 "standings, richest first.")),
    RulesSection(N_p("topic", "narrator"), N_("The Narrator"),
                 N_("With `narration:bot` Tabula reads every card. With `narration:players` the player before the "
                 "explorer in turn order is the Narrator for that room: `/narrate` shows them the card in hand "
                 "(only they see it) and `/narrate text:` tells it in their own words; Tabula then shows the "
                 "card and rolls the dice. **Let Tabula read it** hands the card over, and an absent Narrator "
                 "is read for after the game's timeout.\n"
                 "`/narrate note:` pins a short scene note to the room, told again whenever a party enters it. "
                 "`/roll expr:` rolls any dice for the table.")),
    RulesSection(N_p("topic", "solo"), N_("Playing solo"),
                 N_("One player explores alone and Tabula narrates. The game ends when every room is explored or "
                 "when your fighter (or in the Expanded Game, your party) has taken eight wounds; the board and "
                 "`/sheet` count them. Your score is the gold you carry out: next time, try to bring out more "
                 "for the same wounds.")),
    RulesSection(N_p("topic", "expanded"), N_("The Expanded Game and its party"),
                 N_("Each player leads a party of five: a Fighter, a Dwarf, a Cleric, a Rogue and a Magic User, in "
                 "a row whose last hero is the Leader. Each kind reads its own row on Monster and Hazard cards.\n"
                 "Before a Monster or Hazard is drawn you may change the Leader (**Keep**, or pick one). A "
                 "leading Magic User may `/cast` his spell instead of attacking: the Spell card lies face up, "
                 "and its box under the Monster's red dot says Success or No Effect. After a Monster strikes "
                 "back you may attack again, change Leader or retreat.\n"
                 "A wounded hero drops to the back and cannot lead until healed. A turn of rest heals "
                 "(`/heal`, by the Cleric) and lets the Magic User learn a new spell (`/study`). `/party` shows "
                 "and reorders your row outside fights.")),
)


SPEC = GameSpec(
    key="legend",
    title=N_("Legend of Heroes"),
    summary=N_("Explore the Dungeons of Legend: move from doorway to doorway, uncover each room's story card by "
            "card, fight monsters and dodge hazards with a d20, and carry out the most gold. 2–5 players, "
            "or 1 in solo mode; `mode:expanded` gives everyone a party of five heroes."),
    min_players=1,
    max_players=5,
    options=(
        OptionSpec(N_p("option", "mode"),
                   N_("Starter (2–5), solo (1, eight wounds) or expanded (parties of five heroes, 1–5)"),
                   choices=(N_p("choice", "starter"), N_p("choice", "solo"), N_p("choice", "expanded"))),
        OptionSpec(N_p("option", "narration"),
                   N_("Who reads the cards — bot, or players (the player to the explorer's right)"),
                   choices=(N_p("choice", "bot"), N_p("choice", "players")), default="bot"),
        OptionSpec(N_p("option", "tabula_level"),
                   N_("How Tabula plays its fighters: easy, normal or strong (a search that thinks about 2 s a move)"),
                   choices=(N_p("choice", "easy"), N_p("choice", "normal"), N_p("choice", "strong")),
                   default="easy"),
    ),
    verbs=(*STARTER_VERBS, *EXPANDED_VERBS),
    bench=(
        BenchSpec("Legend of Heroes, starter", {}, players=3),
        BenchSpec("Legend of Heroes, Expanded Game narrated by players", {"mode": "expanded", "narration": "players"},
                  players=3),
        BenchSpec("Legend of Heroes, solo", {"mode": "solo"}, players=1),
    ),
    intro=N_("Carry the most gold out of the Dungeons of Legend: the game ends when every room is explored.\n"
          "On your turn `/explore to:` a doorway one corridor or one room away; a room that still holds cards "
          "tells its story card by card, and monsters and hazards are fought on a d20. `/rules` explains more."),
    rules=RULES,
    languages=("en", "hu", "el", "ja"),
)
