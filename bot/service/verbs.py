"""The command surface, built from every game's spec: one slash command per verb name, shared across games
by meaning, and the `/game new` options.  Nothing here names a game; a new game adds verbs by declaring them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from bot.service.moment import GameMoment
from rules.i18n import N_, N_p, _, _p
from rules.registry import AnyRuleset, game_text, games
from rules.spec import ArgSpec, OptionKind, VerbSpec

#: The table's own verbs, the same in every game (see ``rules.table``).
TABLE_VERBS: tuple[VerbSpec, ...] = (
    VerbSpec(name=N_p("command", "roll"),
             description=N_("Roll dice for everyone to see, logged in the game (2d20+3, d6)"),
             help=N_("`/roll expr:2d20+3` roll dice for everyone to see"),
             args=(ArgSpec(name=N_p("option", "expr"), description=N_("Dice to roll, e.g. d20, 2d6+3, 3d6-1d4"),
                           required=True, complete=False, max_length=60),)),
)
#: How shared verbs are described when several games use them (each game's own wording shows in /help).
SHARED_WORDS = {
    "explore": N_("Explore: move on (the list shows every legal choice in this thread's game)"),
    "attack": N_("Attack: strike at what you face in this thread's game"),
    "narrate": N_("Narrator: see the card in hand, or tell it in your words"),
    "sheet": N_("Your own sheet in this thread's game (only you see it)"),
    "hand": N_("Your own secret choices right now (only you see them)"),
    "keep": N_("Keep: keep what you hold (in a fight, the cards you keep)"),
    "play": N_("Play a card"),
    "choose": N_("Choose one of the options offered"),
    "buy": N_("Buy something on offer"),
    "pass": N_("Pass: skip what is offered"),
    "move": N_("Move one of your pieces"),
    "voyage": N_("Sail to another port"),
}
#: A shared verb none of the words above describes.
SHARED_FALLBACK = N_("{verb}: what it does depends on this thread's game")
#: A `/game new` option several games declare.
SHARED_OPTION = N_("{option} (see each game's options)")
#: Discord's limit of top-level commands per application (chat input).
DISCORD_COMMAND_LIMIT = 100


@dataclass(slots=True)
class SlashArg:
    name: str
    description: str
    required: bool
    complete: bool
    max_length: int
    #: The description's text as the catalogues have it (before it was cut to Discord's 100 characters).
    msgid: str = ""


@dataclass(slots=True)
class SlashVerb:
    name: str
    description: str
    games: list[str]
    args: list[SlashArg] = field(default_factory=list)
    kind: str = "act"
    #: The description as the catalogues have it, and the translated fields it is filled with.
    msgid: str = ""
    fill: dict[str, tuple[str, str | None]] = field(default_factory=dict)


@dataclass(slots=True)
class SlashOption:
    name: str
    description: str
    kind: OptionKind
    games: list[str]
    choices: list[str] = field(default_factory=list)
    minimum: float | None = None
    maximum: float | None = None
    msgid: str = ""
    fill: dict[str, tuple[str, str | None]] = field(default_factory=dict)


def _verbs_of(rules: AnyRuleset) -> tuple[VerbSpec, ...]:
    return rules.spec.verbs


def verb_spec(rules: AnyRuleset, name: str) -> VerbSpec | None:
    """A verb as one game means it (the table's verbs belong to every game)."""
    return rules.spec.verb(name) or next((v for v in TABLE_VERBS if v.name == name), None)


def slash_verbs() -> dict[str, SlashVerb]:
    """Every top-level verb command: the union of the games' verbs, one command per name."""
    return _slash_verbs(tuple(games()))


@cache
def _slash_verbs(keys: tuple[str, ...]) -> dict[str, SlashVerb]:
    found: dict[str, list[tuple[str, VerbSpec]]] = {}
    for key, rules in games().items():
        for verb in _verbs_of(rules):
            if verb.slash:
                found.setdefault(verb.name, []).append((key, verb))
    for verb in TABLE_VERBS:
        found.setdefault(verb.name, []).append(("", verb))
    out: dict[str, SlashVerb] = {}
    for name, uses in sorted(found.items()):
        used_by = [k for k, _ in uses if k]
        fill: dict[str, tuple[str, str | None]] = {}
        if len(uses) == 1:
            description = msgid = uses[0][1].description
        elif name in SHARED_WORDS:
            description = msgid = SHARED_WORDS[name]
        else:
            msgid, fill = SHARED_FALLBACK, {"verb": (name, "command")}
            description = msgid.format(verb=name.capitalize())
        args: dict[str, SlashArg] = {}
        for _key, verb in uses:
            for a in verb.args:
                if a.name in args:
                    continue
                # Required only where every game that has the verb requires it; the game refuses politely.
                required = all(any(b.name == a.name and b.required for b in v.args) for _, v in uses)
                complete = any(b.name == a.name and b.complete and not b.free_text for _, v in uses for b in v.args)
                longest = max(b.max_length for _, v in uses for b in v.args if b.name == a.name)
                args[a.name] = SlashArg(a.name, _cut(a.description), required, complete, longest, a.description)
        kind = "view" if all(v.kind == "view" for _, v in uses) else "act"
        out[name] = SlashVerb(name=name, description=_cut(description), games=used_by, args=list(args.values()),
                              kind=kind, msgid=msgid, fill=fill)
    return out


def new_game_options() -> dict[str, SlashOption]:
    """The games' own `/game new` options, merged by name (choices joined; each game checks its own)."""
    return _new_game_options(tuple(games()))


@cache
def _new_game_options(keys: tuple[str, ...]) -> dict[str, SlashOption]:
    out: dict[str, SlashOption] = {}
    for key, rules in games().items():
        for o in rules.spec.options:
            have = out.get(o.name)
            if have is None:
                out[o.name] = SlashOption(o.name, _for_game(rules.spec.title, o.description), o.kind, [key],
                                          list(o.choices), o.minimum, o.maximum, o.description)
            else:
                have.games.append(key)
                have.choices += [c for c in o.choices if c not in have.choices]
                have.description = SHARED_OPTION.format(option=o.name.replace('_', ' ').capitalize())
                have.msgid, have.fill = SHARED_OPTION, {"option": (o.name, "option")}
    return out


def _for_game(title: str, text: str) -> str:
    """An option's description on the shared `/game new`, naming its game when that fits in Discord's 100."""
    if text.startswith(title):
        return _cut(text)
    named = f"{title}: {text[:1].lower()}{text[1:]}"
    return named if len(named) <= 100 else _cut(text)


def _cut(text: str, limit: int = 100) -> str:
    if len(text) <= limit:
        return text
    return text[:limit - 1].rsplit(" ", 1)[0].rstrip(",;:(—– ") + "…"


def options_of(key: str) -> list[str]:
    return [o.name for o in games()[key].spec.options]


def command_count() -> int:
    """Top-level commands a server sees: every verb, plus the `/game` group."""
    return len(slash_verbs()) + 1


def not_here(rules: AnyRuleset, verb: str) -> str:
    """Why a verb does nothing in this game: whose verb it is, and what this game has instead (short)."""
    spec = rules.spec
    owners = [game_text(r.spec.key, r.spec.title) for r in games().values()
              if r.spec.key != spec.key and r.spec.verb(verb)]
    whose = _(" — `/{verb}` belongs to {games}", verb=verb, games=_p("list", " and ").join(owners)) if owners else ""
    views = [f"`/{v.name}`" for v in spec.verbs if v.kind == "view"]
    acts = [f"`/{v.name}`" for v in spec.verbs if v.kind == "act" and v.slash]
    title = game_text(spec.key, spec.title)
    if any(v.kind == "view" for r in games().values() for v in r.spec.verbs if v.name == verb):
        mine = _p("list", ", ").join(views) or _("nothing")
        return _("{game} has no `/{verb}`{whose}. What only you can see in this game: {mine}. `/help` lists every "
                 "command here.", game=title, verb=verb, whose=whose, mine=mine)
    return _("{game} has no `/{verb}`{whose}. Its commands are {commands}; `/help` says what each does.",
             game=title, verb=verb, whose=whose, commands=_p("list", ", ").join(acts))


def nothing_to_show(moment: GameMoment[Any], name: str) -> str:
    """Why a private view is empty for the asker, and what the game has instead."""
    spec = moment.spec
    views = [v for v in spec.verbs if v.view]
    if not any(v.view == name for v in views):
        listed = _p("list", ", ").join(f"`/{v.name}`" for v in views) or _("none")
        return _("{game} has nothing called `/{name}`. What only you can see here: {listed}.",
                 game=game_text(spec.key, spec.title), name=name, listed=listed)
    verb = next(v.name for v in views if v.view == name)
    if moment.status != "active" or moment.outcome is not None:
        if moment.outcome is not None or moment.status == "finished":
            return _("This game is over, so `/{verb}` has nothing left to choose. `/game status` shows how it "
                     "ended.", verb=verb)
        return _("This game was {status}, so `/{verb}` has nothing left to choose. `/game status` shows how it "
                 "ended.", status=_p("status", moment.status), verb=verb)
    if moment.actor is not None and moment.actor in moment.to_act:  # the asker is who the game waits for
        return _("`/{verb}` has nothing to show you right now: it is your move, and the choices are under the "
                 "game's last prompt.", verb=verb)
    waiting = [moment.name_of(s) for s in sorted(moment.to_act)]
    return _("`/{verb}` has nothing for you right now: the game is waiting for {names}. It fills in when something "
             "is yours to decide.", verb=verb, names=_p("list", " and ").join(waiting))
