"""What arrives from Discord, checked before discord.py hands it on: an interaction that no command or control
of Tabula's can take is answered politely and privately, and never reaches code that would choke on it.

Discord's own client sends only what a command declares and what a message's controls carry, but discord.py
checks neither again, and a hand-built or replayed interaction can carry anything: a custom id over Discord's
100 characters, a game number of 30 digits, a string where a command declares a number, ``"yes"`` for a
boolean, a control that is on no message.  Unchecked, such an interaction is dropped unanswered ("This
interaction failed"), or reaches a callback that fails and logs a traceback.  Here:

* a **component press** must carry a custom id of at most 100 characters that one of Tabula's controls
  (``DynamicItem`` templates) reads in full, present on the message it came from with the same component type;
  its numbers must be ones the database can hold (a game number 1…2,147,483,647, like ``/game`` options), its
  select values strings of at most 100 characters; a control class may add its own check (``accepts(match)``),
  and one that only ever sits on a private answer (``PRIVATE = True``: a pager, which edits its message) is
  refused on a message everyone sees;
* a **modal** is never Tabula's (it opens none);
* a **slash command's options** must have the type and the kind of value the command declares
  (:func:`option_problem`, called by the command tree's check before anything reads them).

What fails a check is answered "That button belongs to an earlier moment of the game …" (a control) or with
what the option must be (a command), in the asker's language; an interaction too malformed to answer at all is
one line in the log."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

import discord
from discord import app_commands

from bot.front.discordpy import interaction_from
from bot.lang.translator import lookup
from rules.i18n import N_, _, _p, language, using

log = logging.getLogger("tabula.inbound")

ID_LIMIT = 100  # Discord's longest custom id, and longest select value
VALUES_LIMIT = 25  # Discord's most options in one select
GAME_LIMIT = 2_147_483_647  # a game number the database holds (PostgreSQL's integer), as /game options declare
NUMBER_LIMIT = 2**53  # Discord's integer options lie within ±2^53
STALE = N_("That button belongs to an earlier moment of the game — use the newest message in the thread (or "
           "`/game status`).")
UNUSABLE = N_("You cannot use that command here.")
COMMAND, COMPONENT, AUTOCOMPLETE, MODAL = 2, 3, 4, 5
EPHEMERAL = 1 << 6  # a message's flag: only its reader sees it
OPTION_TYPES = {3: str, 4: int, 5: bool, 10: float}  # string, integer, boolean, number; the rest are snowflakes
SNOWFLAKE = re.compile(r"^\d{1,20}$")
RESOLVED = {6: ("users",), 7: ("channels",), 8: ("roles",), 9: ("users", "roles"), 11: ("attachments",)}


def _walk(components: Any) -> Iterator[Mapping[str, Any]]:
    for component in components if isinstance(components, list) else ():
        if isinstance(component, Mapping):
            yield component
            yield from _walk(component.get("components"))
            inner = component.get("component")
            if isinstance(inner, Mapping):
                yield from _walk([inner])


def _numbers_fit(match: re.Match[str]) -> bool:
    for name, text in match.groupdict().items():
        if text is None or not re.fullmatch(r"-?\d+", text):
            continue
        number = int(text)
        if (name == "game" and not 1 <= number <= GAME_LIMIT) or abs(number) > GAME_LIMIT:
            return False
    return True


def component_problem(data: Mapping[str, Any], controls: Iterable[tuple[re.Pattern[str], type[Any]]]) -> str | None:
    """Why no control of Tabula's can take this component press (None: one can); ``controls`` are the
    registered templates and their classes."""
    inner = data.get("data")
    if not isinstance(inner, Mapping):
        return "no data"
    custom_id, kind = inner.get("custom_id"), inner.get("component_type")
    if not isinstance(custom_id, str) or not 0 < len(custom_id) <= ID_LIMIT:
        return "a custom id that is no string of 1-100 characters"
    if not isinstance(kind, int) or isinstance(kind, bool):
        return "no component type"
    values = inner.get("values", [])
    if not isinstance(values, list) or len(values) > VALUES_LIMIT or \
            not all(isinstance(v, str) and len(v) <= ID_LIMIT for v in values):
        return "select values that are no list of short strings"
    message = data.get("message")
    if not isinstance(message, Mapping):
        return "no message"
    if not any(c.get("custom_id") == custom_id and c.get("type") == kind for c in _walk(message.get("components"))):
        return "a control that is not on its message"
    for pattern, control in controls:
        match = pattern.fullmatch(custom_id)
        if match is None:
            continue
        if not _numbers_fit(match):
            return "a number no game has"
        accepts: Callable[[re.Match[str]], bool] | None = getattr(control, "accepts", None)
        if accepts is not None and not accepts(match):
            return "a control this release does not know"
        flags = message.get("flags")
        if getattr(control, "PRIVATE", False) and not (isinstance(flags, int) and flags & EPHEMERAL):
            return "a control of a private answer on a message everyone sees"
        return None
    return "a custom id no control of Tabula's reads"


def command_shape_problem(data: Mapping[str, Any]) -> str | None:
    """Why a slash command or autocomplete is of a shape discord.py cannot walk (None: it can): its name a
    string, its options at every level a list of objects with a name and a type."""
    inner = data.get("data")
    if not isinstance(inner, Mapping) or not isinstance(inner.get("name"), str):
        return "no command name"

    def walk(options: Any, depth: int) -> bool:
        if options is None:
            return True
        if not isinstance(options, list) or depth > 3:
            return False
        for option in options:
            if not isinstance(option, Mapping) or not isinstance(option.get("name"), str) or \
                    not isinstance(option.get("type"), int) or not walk(option.get("options"), depth + 1):
                return False
        return True
    return None if walk(inner.get("options"), 0) else "options of no shape Discord sends"


def _name(param: app_commands.Parameter) -> str:
    return f"`{lookup(language(), param.display_name, 'option') or param.display_name}`"


def _value_problem(param: app_commands.Parameter, kind: Any, value: Any, focused: bool,
                   resolved: Any) -> str | None:
    name = _name(param)
    declared = param.type.value
    if kind != declared:
        return _("I could not read **{value}** for that option. Pick one of the suggestions instead.",
                 value=shown(value))
    if focused:  # what is being typed, before it is chosen: Discord sends it as text
        return None if isinstance(value, (str, int, float)) and not isinstance(value, bool) else \
            _("I could not read **{value}** for that option. Pick one of the suggestions instead.", value=shown(value))
    if declared == 5:
        return None if isinstance(value, bool) else _("{name} is one of {listed}.", name=name,
                                                       listed=_p("list", ", ").join(("`true`", "`false`")))
    if declared in (4, 10):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or \
                (isinstance(value, float) and not math.isfinite(value)):
            return _("{name} must be a number.", name=name)
        if declared == 4 and not isinstance(value, int):
            return _("{name} must be a whole number.", name=name)
        return _("{name} is out of range.", name=name) if abs(value) > NUMBER_LIMIT else None
    if declared == 3:
        return None if isinstance(value, str) else \
            _("I could not read **{value}** for that option. Pick one of the suggestions instead.", value=shown(value))
    # a user, channel, role or attachment: Discord sends what it names alongside ("resolved"), and a command
    # gets that, never a bare number
    known: set[str] = set()
    for key in RESOLVED.get(declared, ()):
        found = resolved.get(key) if isinstance(resolved, Mapping) else None
        known |= set(found) if isinstance(found, Mapping) else set()
    ok = isinstance(value, str) and SNOWFLAKE.match(value) is not None and value in known
    return None if ok else \
        _("I could not read **{value}** for that option. Pick one of the suggestions instead.", value=shown(value))


def option_problem(command: app_commands.Command[Any, ..., Any], options: Any, resolved: Any = None, *,
                   autocomplete: bool = False) -> str | None:
    """What is wrong with a slash command's raw options for ``command`` (None: nothing), in the asker's words:
    each option of the type and kind of value the command declares, and every required one there (an
    autocomplete is asked while the options are being typed: none is required yet)."""
    if not isinstance(options, list):
        return _(UNUSABLE)
    params = {p.display_name: p for p in command.parameters}
    given: set[str] = set()
    for option in options:
        if not isinstance(option, Mapping) or not isinstance(option.get("name"), str):
            return _(UNUSABLE)
        param = params.get(option["name"])
        if param is None:
            continue  # an option the command does not have: discord.py never reads it
        given.add(param.display_name)
        problem = _value_problem(param, option.get("type"), option.get("value"), bool(option.get("focused")),
                                 resolved)
        if problem:
            return problem
    missing = [p for p in command.parameters if p.required and p.display_name not in given]
    if missing and not autocomplete:
        return _("{name} is required.", name=_name(missing[0]))
    return None


def shown(value: Any) -> str:
    """A value someone sent, as it may be shown back to them (short, no markdown, no mention)."""
    text = str(value)
    text = text if len(text) <= 60 else text[:59] + "…"
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


async def answer_privately(state: Any, data: Mapping[str, Any], text: str, *, translate: bool = True) -> None:
    """Answer a raw interaction with one private line (``text`` is an English msgid, said in the asker's
    language); an autocomplete gets an empty list.  Nothing is raised: Discord may be gone, the interaction
    malformed or too old."""
    with contextlib.suppress(Exception):
        interaction = interaction_from(state, data)
        with using(str(data.get("locale") or "")):
            if data.get("type") == AUTOCOMPLETE:
                await asyncio.wait_for(interaction.response.autocomplete([]), 2.5)
                return
            await asyncio.wait_for(interaction.response.send_message(
                _(text) if translate else text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()), 2.5)


__all__ = ["GAME_LIMIT", "ID_LIMIT", "STALE", "UNUSABLE", "answer_privately", "command_shape_problem",
           "component_problem", "option_problem", "shown"]
