"""The terminal runner as a newcomer meets it: help for this game only, the rules by section, "did you mean",
pictures that never overwrite each other on --resume, games picked by number, refused starts that leave no
game behind, a short --auto demo, and picture descriptions only when asked for."""

from __future__ import annotations

import argparse
import io
import re
from pathlib import Path

import pytest

from bot.front.offline import add_arguments, last_picture, play
from bot.service.verbs import not_here
from rules.registry import games, ruleset


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser


async def _run(argv: list[str], lines: list[str] | None = None) -> str:
    out = io.StringIO()
    assert await play(_parser().parse_args(argv), lines=lines, out=out) == 0
    return out.getvalue()


async def test_help_lists_this_games_commands_once_and_no_other_games(tmp_path: Path) -> None:
    text = await _run(["legend", "--players", "Ann,Bob", "--seed", "3", "--images", str(tmp_path)],
                      ["/help", "/quit"])
    listed = re.findall(r"• `/([a-z]+)", text.split("> /help", 1)[1])
    assert "explore" in listed and "narrate" in listed and "rules" in listed
    own = {v.name for v in ruleset("legend").spec.verbs} | {"roll", "rules", "help", "game", "quit", "stats"}
    assert set(listed) <= own, set(listed) - own
    mine = [v for v in listed if v in {v.name for v in ruleset("legend").spec.verbs}]
    assert len(mine) == len(set(mine))  # each command once


async def test_an_empty_line_and_a_misspelt_command_answer_briefly(tmp_path: Path) -> None:
    text = await _run(["legend", "--players", "Ann,Bob", "--seed", "3", "--images", str(tmp_path)],
                      ["", "/explor to:D1", "/quit"])
    after_empty = text.split("\n> \n", 1)[1].split("\n> ", 1)[0]
    assert "Type a command" in after_empty and len(after_empty) < 200
    assert "did you mean `/explore`?" in text


async def test_rules_page_by_topic_and_a_wrong_topic_lists_the_topics(tmp_path: Path) -> None:
    text = await _run(["champion", "--players", "Ann,Bob", "--seed", "3", "--images", str(tmp_path)],
                      ["/rules", "/rules topic:nonsense-topic", "/quit"])
    assert "page 1 of" in text
    assert "have no section about “nonsense-topic”" in text and "The topics are" in text


async def test_resume_numbers_pictures_on_and_picks_a_game_by_number(tmp_path: Path) -> None:
    images = str(tmp_path / "img")
    await _run(["legend", "--players", "Ann,Bob", "--seed", "5", "--images", images], ["/explore to:D1", "/quit"])
    await _run(["legend", "--players", "Cy,Di", "--seed", "6", "--images", images], ["/quit"])
    folder = tmp_path / "img" / "game-1"
    before = {p.name: p.read_bytes() for p in folder.glob("*.png")}
    newest = last_picture(folder)
    text = await _run(["legend", "--resume", "1", "--images", images], ["/game list", "/game status", "/quit"])
    assert "#1 Legend of Heroes" in text and "#2 Legend of Heroes" in text  # the local games
    after = {p.name: p.read_bytes() for p in folder.glob("*.png")}
    assert all(after[name] == png for name, png in before.items())  # nothing overwritten
    added = sorted(set(after) - set(before))
    assert added and all(int(name.split("-")[0]) > newest for name in added)
    assert all(re.match(r"\d{5}-", name) for name in added)
    assert "Ann" in text and "Cy" not in text.split("/game status", 1)[1]  # game #1, not the newest one


async def test_a_refused_start_uses_up_no_game_number(tmp_path: Path) -> None:
    images = str(tmp_path / "img")
    out = io.StringIO()
    bad = _parser().parse_args(["legend", "--players", "Ann,Bob", "--mode", "solo", "--images", images])
    assert await play(bad, lines=["/quit"], out=out) == 2
    too_many = _parser().parse_args(["legend", "--players", "A,B,C,D,E,F", "--images", images])
    assert await play(too_many, lines=["/quit"], out=out) == 2
    text = await _run(["legend", "--players", "Ann,Bob", "--images", images], ["/game list", "/quit"])
    assert "Legend of Heroes · #1 " in text
    assert not (tmp_path / "img" / "game-2").exists()


@pytest.mark.slow
async def test_auto_is_a_short_demo_with_few_pictures(tmp_path: Path) -> None:
    text = await _run(["champion", "--players", "Ann,Bob", "--seed", "4", "--auto", "--moves", "40",
                       "--images", str(tmp_path)])
    found = re.search(r"(\d+) moves played; (\d+) pictures written", text)
    assert found and int(found.group(1)) == 40
    written = int(found.group(2))
    assert 0 < written <= 40 // 10 * 3 + 3
    shown = len(list(tmp_path.glob("game-*/*.png")))  # (the picture cache's own files sit beside the database)
    assert written == shown - 1 or written == shown
    # The terminal keeps its picture folder beside its database (what a fresh process writes there is checked in
    # test_web's terminal test): a demo draws only what it writes, here boards, which are not kept.
    assert (tmp_path / "offline-pictures").is_dir(), "the terminal keeps a picture folder"


async def test_picture_descriptions_only_with_alt_text(tmp_path: Path) -> None:
    quiet = await _run(["legend", "--players", "Ann,Bob", "--seed", "3", "--images", str(tmp_path / "a")],
                       ["/quit"])
    spoken = await _run(["legend", "--players", "Ann,Bob", "--seed", "3", "--images", str(tmp_path / "b"),
                         "--alt-text"], ["/quit"])
    assert "[picture: " in quiet and "Dungeon board:" not in quiet
    assert "— Dungeon board:" in spoken


async def test_discord_only_advice_is_said_the_terminals_way(tmp_path: Path) -> None:
    text = await _run(["legend", "--players", "Ann,Bob", "--seed", "3", "--images", str(tmp_path)],
                      ["/game new", "/quit"])
    assert "`/game new`" not in text


def test_a_verb_of_another_game_says_whose_it_is() -> None:
    keys = sorted(games())
    for key in keys:
        rules = ruleset(key)
        own = {v.name for v in rules.spec.verbs}
        for other in keys:
            for verb in ruleset(other).spec.verbs:
                if verb.name in own:
                    continue
                text = not_here(rules, verb.name)
                assert text.startswith(f"{rules.spec.title} has no `/{verb.name}`")
                assert ruleset(other).spec.title in text
                assert len(text) <= 400, text
