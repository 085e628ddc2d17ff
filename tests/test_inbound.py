"""The checks bot/front/inbound.py makes before discord.py hands an interaction on, one rule at a time (the real
process meets a thousand forged inputs in tests/test_odd_input.py)."""

from __future__ import annotations

import re
from typing import Any, ClassVar

import discord
from discord import app_commands

from bot.front.inbound import command_shape_problem, component_problem, option_problem, shown


class _Do:
    pass


class _Pager:
    PRIVATE: ClassVar[bool] = True

    @classmethod
    def accepts(cls, match: re.Match[str]) -> bool:
        return match["key"] != "gone"


CONTROLS = [(re.compile(r"tb:do:(?P<game>\d+):(?P<ver>-?\d+):(?P<cmd>.+)"), _Do),
            (re.compile(r"tb:rules:(?P<key>[a-z]+):(?P<n>\d+)"), _Pager)]


def _press(custom_id: Any, *, kind: int = 2, on_message: bool = True, flags: int = 0, **data: Any) -> dict[str, Any]:
    components = [{"type": 1, "components": [{"type": kind, "custom_id": custom_id}]}] if on_message else []
    return {"type": 3, "data": {"custom_id": custom_id, "component_type": kind, **data},
            "message": {"id": "1", "flags": flags, "components": components}}


def test_a_press_is_taken_only_as_a_control_of_tabula_s_on_its_message_would_be() -> None:
    assert component_problem(_press("tb:do:12:3:move?steps=1"), CONTROLS) is None
    assert component_problem(_press("tb:do:12:3:move?steps=1", on_message=False), CONTROLS) == \
        "a control that is not on its message"
    assert "1-100" in (component_problem(_press("tb:do:1:1:" + "x" * 95), CONTROLS) or "")
    assert "1-100" in (component_problem(_press(7), CONTROLS) or "")
    assert component_problem(_press("tb:do:" + "9" * 30 + ":1:move"), CONTROLS) == "a number no game has"
    assert component_problem(_press("tb:do:0:1:move"), CONTROLS) == "a number no game has"
    assert component_problem(_press("tb:do:2147483647:-3:move"), CONTROLS) is None
    assert component_problem(_press("tb:do:1:" + "9" * 12 + ":move"), CONTROLS) == "a number no game has"
    assert component_problem(_press("tb:nope:1"), CONTROLS) == "a custom id no control of Tabula's reads"
    assert component_problem(_press("tb:do:1:1:move", kind=3, values=["x" * 101]), CONTROLS) is not None
    assert component_problem(_press("tb:do:1:1:move", kind=3, values=["x"] * 26), CONTROLS) is not None
    no_message = _press("tb:do:1:1:move")
    del no_message["message"]
    assert component_problem(no_message, CONTROLS) == "no message"


def test_a_control_s_own_checks_and_pagers_only_on_private_answers() -> None:
    assert component_problem(_press("tb:rules:race:2", flags=64), CONTROLS) is None
    assert component_problem(_press("tb:rules:gone:2", flags=64), CONTROLS) == "a control this release does not know"
    assert component_problem(_press("tb:rules:race:2", flags=0), CONTROLS) == \
        "a control of a private answer on a message everyone sees"


async def _probe(interaction: Any, count: int, on: bool | None = None, ratio: float | None = None,
                 text: str | None = None) -> None: ...


async def _someone(interaction: Any, who: discord.User) -> None: ...


def test_options_must_be_of_the_type_and_kind_their_command_declares() -> None:
    cmd = app_commands.command(name="probe", description="probe")(_probe)
    assert option_problem(cmd, [{"name": "count", "type": 4, "value": 3}]) is None
    assert "whole number" in (option_problem(cmd, [{"name": "count", "type": 4, "value": 2.5}]) or "")
    assert "must be a number" in (option_problem(cmd, [{"name": "count", "type": 4, "value": "abc"}]) or "")
    assert "out of range" in (option_problem(cmd, [{"name": "count", "type": 4, "value": 10**30}]) or "")
    assert "`true`" in (option_problem(cmd, [{"name": "count", "type": 4, "value": 1},
                                             {"name": "on", "type": 5, "value": "yes"}]) or "")
    assert "must be a number" in (option_problem(cmd, [{"name": "count", "type": 4, "value": 1},
                                                       {"name": "ratio", "type": 10, "value": float("nan")}]) or "")
    assert "could not read" in (option_problem(cmd, [{"name": "count", "type": 3, "value": "7"}]) or "")
    assert "required" in (option_problem(cmd, [{"name": "text", "type": 3, "value": "x"}]) or "")
    assert option_problem(cmd, [{"name": "text", "type": 3, "value": "x", "focused": True}], autocomplete=True) is None
    assert option_problem(cmd, {"count": 1}) is not None


def test_a_user_option_names_someone_discord_sent_along() -> None:
    cmd = app_commands.command(name="someone", description="someone")(_someone)
    given = [{"name": "who", "type": 6, "value": "42"}]
    assert option_problem(cmd, given, {"users": {"42": {"id": "42"}}}) is None
    assert option_problem(cmd, given, {}) is not None  # a bare number: no such person came with it
    assert option_problem(cmd, [{"name": "who", "type": 6, "value": "9" * 30}], {"users": {"9" * 30: {}}}) is not None


def test_a_command_of_no_shape_discord_sends_and_what_is_shown_back() -> None:
    assert command_shape_problem({"data": {"name": "game", "options": [{"name": "x", "type": 4}]}}) is None
    assert command_shape_problem({"data": {"name": "game", "options": {"x": 1}}}) is not None
    assert command_shape_problem({"data": {"name": "game", "options": [{"type": 4}]}}) is not None
    assert command_shape_problem({"data": None}) is not None
    assert shown("@everyone **bold** " + "x" * 100).startswith("@\u200beveryone \\*\\*bold\\*\\*")
    assert len(shown("x" * 1000)) == 60
