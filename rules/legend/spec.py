"""Legend of Heroes as the platform reads it: the lobby text, the options, the verbs and their help lines, and
the configurations the benchmark plays.  Plain data."""

from __future__ import annotations

from rules.spec import ArgSpec, BenchSpec, GameSpec, OptionSpec, VerbSpec

NARRATION_MAX = 1500  # characters of a Narrator's telling
NOTE_MAX = 300  # characters of a scene note

HERO = ArgSpec("hero", "Which hero of your party (the list shows who can)", required=True)

#: Verbs of every mode.
STARTER_VERBS = (
    VerbSpec("explore", "Enter the dungeon or move to a doorway linked by one corridor or one room",
             "`/explore to:D7` move (or enter the dungeon) — `/explore` alone lists the choices",
             args=(ArgSpec("to", "Where to go (the list shows every legal choice)", required=True),)),
    VerbSpec("narrate", "Narrator: see the card in hand, or tell it in your words",
             "`/narrate` look at the card in hand as Narrator · `/narrate text:` tell it · "
             "`/narrate note:` pin a scene note",
             args=(ArgSpec("text", "Your telling of the card (leave out to read the card privately first)",
                           complete=False, free_text=True, max_length=NARRATION_MAX),
                   ArgSpec("note", "A short scene note pinned to the room, told again when a party next enters it",
                           complete=False, free_text=True, max_length=NOTE_MAX)),
             view="card"),
    VerbSpec("sheet", "Your fighter card (or party) and treasure (only you see it)",
             "`/sheet` your fighter card (or party) and treasure, only for you", kind="view", view="sheet"),
)

#: Verbs of the Expanded Game (parties of five heroes).
EXPANDED_VERBS = (
    VerbSpec("attack", "Your Leader strikes the Monster (or faces the Hazard again)",
             "`/attack` Expanded Game: your Leader strikes (or faces the Hazard again)"),
    VerbSpec("cast", "Your Magic User, leading, casts his spell at the Monster",
             "`/cast` Expanded Game: your Magic User, leading, casts his spell"),
    VerbSpec("study", "Miss a turn while your Magic User learns a new spell",
             "`/study` Expanded Game: miss a turn while your Magic User learns a new spell"),
    VerbSpec("heal", "Miss a turn while your Cleric tends the wounded",
             "`/heal` Expanded Game: miss a turn while your Cleric tends the wounded"),
    VerbSpec("party", "Your party and spell (only you see them); rearrange it outside fights",
             "`/party` Expanded Game: see your party and spell, and reorder it", kind="view",
             view="party"),
    VerbSpec("lead", "Make another hero of your party the Leader",
             "`/lead hero:Rolf` make another hero the Leader when asked",
             args=(HERO,), slash=False),
    VerbSpec("keep", "Keep your Leader and let the announced card be drawn",
             "`/keep` keep your Leader before the announced card is drawn",
             slash=False),
    VerbSpec("retreat", "Fall back to the doorway you came in by",
             "`/retreat` fall back from a fight to the doorway you came in by",
             slash=False),
    VerbSpec("front", "Put a hero at the front of your party (the Leader), outside fights",
             "`/front hero:Rolf` put a hero at the front of your party (the Leader)", args=(HERO,), slash=False),
    VerbSpec("back", "Send a hero to the back of your party, outside fights",
             "`/back hero:Rolf` send a hero to the back of your party", args=(HERO,), slash=False),
    VerbSpec("order", "Lay out your whole party left to right (the last one leads), outside fights",
             "`/order order:` lay out your party left to right (hero ids, commas between)",
             args=(ArgSpec("order", "Your five heroes left to right, the Leader last", required=True,
                           complete=False, max_length=100),), slash=False),
)

#: What a refusal lists in each mode, compactly (a refusal stays a line or two long).
_REFUSAL_STARTER = "`/explore to:` (move), `/narrate text:` (as Narrator), `/sheet`"
_REFUSAL_EXPANDED = ("`/explore to:` (move), `/attack` or `/cast` (fight), `/study` or `/heal` (rest a turn), "
                     "`/narrate text:` (as Narrator), `/party`")


def verbs_for(expanded: bool) -> str:
    """The verbs a refusal lists for this mode of the game, as it says them."""
    return _REFUSAL_EXPANDED if expanded else _REFUSAL_STARTER


SPEC = GameSpec(
    key="legend",
    title="Legend of Heroes",
    summary="Explore the Dungeons of Legend: move from doorway to doorway, uncover each room's story card by "
            "card, fight monsters and dodge hazards with a d20, and carry out the most gold. 2–5 players, "
            "or 1 in solo mode; `mode:expanded` gives everyone a party of five heroes.",
    min_players=1,
    max_players=5,
    options=(
        OptionSpec("mode", "Starter (2–5), solo (1, eight wounds) or expanded (parties of five heroes, 1–5)",
                   choices=("starter", "solo", "expanded")),
        OptionSpec("narration", "Who reads the cards — bot, or players (the player to the explorer's right)",
                   choices=("bot", "players"), default="bot"),
    ),
    verbs=(*STARTER_VERBS, *EXPANDED_VERBS),
    bench=(
        BenchSpec("Legend of Heroes, starter", {}, players=3),
        BenchSpec("Legend of Heroes, Expanded Game narrated by players", {"mode": "expanded", "narration": "players"},
                  players=3),
        BenchSpec("Legend of Heroes, solo", {"mode": "solo"}, players=1),
    ),
    intro="The richest player when every room is explored wins: carry out the most gold.\n"
          "On your turn move to a doorway linked by one corridor or one room (`/explore to:`); walk into a room "
          "that still holds cards and its story is read card by card, with monsters and hazards fought on a d20.",
)
