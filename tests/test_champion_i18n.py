"""Champion of the Empire in its book's language (issue 14): the Hungarian catalogue is complete, the spec's
command texts exist in Hungarian, Greek and Japanese under Discord's naming rules, a whole game reads in
Hungarian (no English left, every placeholder filled), refusals come in Hungarian, and English is the same as
before the catalogue existed."""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Iterator

import pytest

from bot.lang.catalogues import coverage, extract
from bot.lang.catalogues import spec_texts as spec_texts_of
from bot.present.base import SeatName
from bot.present.champion import PRESENTER
from bot.service.moment import moment_for
from rules.champion import RULESET
from rules.champion.i18n import CATALOGUE, foe_name, local, the
from rules.champion.spec import SPEC
from rules.champion.state import Attack, Commission, Lore, State
from rules.champion.telling import tell
from rules.core import IllegalAction, SeatInfo
from rules.i18n import placeholders, using
from rules.spec import Command

RULES = RULESET.engine
LIB = RULES.lib
NAME = re.compile(r"^[-_\w]{1,32}$")
#: The names several games share, as the brief fixes them (hu, el, ja).
SHARED = {
    ("command", "attack"): ("támadás", "επίθεση", "攻撃"),
    ("command", "explore"): ("felfedezés", "εξερεύνηση", "探索"),
    ("command", "hand"): ("kéz", "χέρι", "手札"),
    ("command", "keep"): ("megtartás", "κράτηση", "保持"),
    ("command", "pass"): ("passz", "πάσο", "パス"),
    ("command", "voyage"): ("hajózás", "ταξίδι", "航海"),
    ("command", "sheet"): ("adatlap", "φύλλο", "シート"),
    ("command", "choose"): ("választás", "επιλογή", "選択"),
    ("option", "to"): ("hova", "προς", "行き先"),
    ("option", "target"): ("célpont", "στόχος", "目標"),
    ("option", "cards"): ("lapok", "κάρτες", "カード"),
    ("option", "hero"): ("hős", "ήρωας", "英雄"),
    ("option", "option"): ("lehetőség", "δυνατότητα", "選択肢"),
    ("option", "order"): ("sorrend", "σειρά", "順番"),
    ("option", "short"): ("rövid", "σύντομο", "短縮"),
    ("choice", "bot"): ("Tabula", "Tabula", "Tabula"),
    ("choice", "players"): ("játékosok", "παίκτες", "プレイヤー"),
}


def spec_texts() -> Iterator[tuple[str | None, str]]:
    """Every (context, msgid) of the spec the platform shows: names, descriptions, help, rules."""
    return spec_texts_of(SPEC)


# --- the catalogue -------------------------------------------------------------------------------------

def test_the_game_promises_hungarian_and_the_two_it_is_complete_in() -> None:
    assert SPEC.languages == ("en", "hu", "el", "ja")


def test_the_hungarian_catalogue_has_every_text_with_the_same_placeholders() -> None:
    c = coverage(CATALOGUE, "hu")
    assert c.total > 1000
    assert (c.missing, c.fuzzy, c.mismatched) == (0, 0, ())


def test_the_template_holds_every_text_of_the_code_and_the_content() -> None:
    fresh = {(m.context, m.id) for m in extract(CATALOGUE) if m.id}
    shipped = {(m.context, m.id) for m in CATALOGUE.template() if m.id}
    assert fresh == shipped, "run: python -m bot i18n-extract"
    # the content files are in it: a story's title and a province with its context
    assert (None, "Spring in the Desert") in shipped and ("place", "Pannonia Inferior") in shipped


@pytest.mark.parametrize("lang", ["hu", "el", "ja"])
def test_every_spec_text_has_its_translation(lang: str) -> None:
    missing = [(ctx, text) for ctx, text in spec_texts() if CATALOGUE.lookup(lang, text, ctx) is None]
    assert not missing


@pytest.mark.parametrize("lang", ["hu", "el", "ja"])
def test_localised_names_follow_discords_rules_and_never_collide(lang: str) -> None:
    def name(ctx: str, text: str) -> str:
        found = CATALOGUE.lookup(lang, text, ctx)
        assert found is not None
        return found

    for verb in SPEC.verbs:
        command = name("command", verb.name)
        assert NAME.match(command) and command.lower() == command, command
        assert len(CATALOGUE.lookup(lang, verb.description) or "") <= 100, verb.description
        args = [name("option", a.name) for a in verb.args]
        for arg, spec in zip(args, verb.args, strict=True):
            assert NAME.match(arg) and arg.lower() == arg, arg
            assert len(CATALOGUE.lookup(lang, spec.description) or "") <= 100, spec.description
        assert len(set(args)) == len(args), (verb.name, args)
    commands = [name("command", v.name) for v in SPEC.verbs]
    assert len(set(commands)) == len(commands)
    for option in SPEC.options:
        assert NAME.match(name("option", option.name))
        assert len(CATALOGUE.lookup(lang, option.description) or "") <= 100
    assert all(len(CATALOGUE.lookup(lang, s.text) or "") <= 4096 for s in SPEC.rules)


def test_the_shared_names_are_the_ones_every_game_uses() -> None:
    for (ctx, text), wanted in SHARED.items():
        if not any(c == ctx and t == text for c, t in spec_texts()):
            continue
        assert tuple(CATALOGUE.lookup(lang, text, ctx) for lang in ("hu", "el", "ja")) == wanted, text


# --- a whole game in Hungarian ---------------------------------------------------------------------------

SEATS = [SeatInfo(i, n) for i, n in enumerate(["Anna", "Béla", "Csilla"])]
NAMES = [SeatName(i, 100 + i, n) for i, n in enumerate(["Anna", "Béla", "Csilla"])]


@functools.cache
def _english_fragments(lang: str = "hu") -> frozenset[str]:
    """Long pieces of English that only code writes (between placeholders) and that the language says
    otherwise."""
    out: set[str] = set()
    for m in CATALOGUE.template():
        if not m.id or any(loc[0].endswith(".toml") for loc in m.locations):
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        for msgid in ids:
            hu = CATALOGUE.lookup(lang, msgid, m.context) or ""
            for piece in re.split(r"\{[a-z_]+\}|\*\*|`[^`]*`", msgid):
                piece = piece.strip(" .,:;—()·")
                if len(piece) >= 16 and " " in piece and piece not in hu:
                    out.add(piece)
    return frozenset(out)


def _texts(moment: object) -> Iterator[str]:
    telling = PRESENTER.telling(moment)  # type: ignore[arg-type]
    yield telling.text
    yield from (p.alt for p in telling.pictures)
    if telling.prompt is not None:
        yield telling.prompt.text
        yield from (b.label for b in telling.prompt.buttons)
        yield from (label for menu in telling.prompt.menus for label, _cmd in menu.choices)
        yield from (menu.placeholder for menu in telling.prompt.menus)


def play_in_hungarian(seed: int, opponents: str, steps: int = 900, lang: str = "hu") -> tuple[list[str], State]:
    state: State = RULESET.setup(SEATS, {"opponents": opponents, "fate": True}, seed).state
    rng = random.Random(seed)
    texts: list[str] = []
    with using(lang):
        for _step in range(steps):
            if RULESET.outcome(state) is not None:
                break
            seat = rng.choice(sorted(RULES.to_act(state)))
            legal = RULES.legal(state, seat)
            eager = [a for a in legal if isinstance(a, (Attack, Lore))]
            action = eager[0] if eager and rng.random() < 0.8 else rng.choice(legal)
            before = state
            step = RULESET.apply(state, seat, action)
            state = step.state
            m = moment_for(RULESET, state, NAMES, events=tuple(step.events), actor=seat, action=action,
                           _before=before)
            texts.extend(_texts(m))
            for acting in sorted(RULES.to_act(state)):
                hand = PRESENTER.hand(m, acting)
                if hand is not None:
                    texts.append(hand.text)
                    texts.extend(p.alt for p in hand.pictures)
        texts.append(PRESENTER.status(moment_for(RULESET, state, NAMES)).text)
        texts.append(PRESENTER.sheet(moment_for(RULESET, state, NAMES), 0).text)
    return texts, state


@pytest.fixture
def no_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The words only: the pictures are drawn (and checked) in test_champion_i18n_pictures."""
    from render import champion as art

    for name in ("render_board", "render_story", "render_event", "render_item", "render_monster", "render_hand",
                 "render_played", "render_sheet"):
        monkeypatch.setattr(art, name, lambda *a, **k: b"")


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "opponents"), [(3, "players"), (8, "bot")])
def test_a_whole_game_reads_in_hungarian(seed: int, opponents: str, no_drawing: None) -> None:
    texts, _state = play_in_hungarian(seed, opponents)
    words = "\n".join(texts)
    assert "⚔️ Harc!" in words and "forduló" in words and "tartomány" in words  # fights, rounds, moves were told
    assert not re.search(r"\{[a-z_]+\}", words), "a placeholder left unfilled"
    left = sorted(f for f in _english_fragments() if f in words)
    assert not left, left[:10]
    # the Roman provinces as Hungarian readers know them, and no English of the content
    assert "Egyiptom" in words or "Pannónia" in words or "Dácia" in words or "Trákia" in words
    for english in ("Roll a d6", "Fight!", "Gain 1", "Lose 1", "story card", " gold", "combat card"):
        assert english not in words, english


@pytest.mark.slow
@pytest.mark.parametrize(("lang", "fight", "province"), [("el", "⚔️ Μάχη!", "Αίγυπτος"), ("ja", "⚔️ 戦闘！", "エジプト")])
def test_a_whole_game_reads_in_greek_and_japanese(lang: str, fight: str, province: str, no_drawing: None) -> None:
    texts, _state = play_in_hungarian(3, "players", lang=lang)
    words = "\n".join(texts)
    assert fight in words  # fights were told
    assert not re.search(r"\{[a-z_]+\}", words), "a placeholder left unfilled"
    left = sorted(f for f in _english_fragments(lang) if f in words)
    assert not left, left[:10]
    for english in ("Roll a d6", "Fight!", "Gain 1", "Lose 1", "story card", " gold", "combat card", "the "):
        assert english not in words, english


def test_english_is_what_it_was_and_hungarian_only_inside_its_block() -> None:
    state: State = RULESET.setup(SEATS, {}, 4).state
    events = RULESET.setup(SEATS, {}, 4).events
    english = tell(RULESET.view(state, None), list(events))
    with using("en"):
        assert tell(RULESET.view(state, None), list(events)) == english
    with using("hu"):
        hungarian = tell(RULESET.view(state, None), list(events))
    assert hungarian != english and "sorsot húz" in "\n".join(hungarian)
    assert tell(RULESET.view(state, None), list(events)) == english
    assert any("draws lots" in line for line in english)


def test_content_is_looked_up_in_the_language_of_the_moment_and_kept_english_in_the_state() -> None:
    with using("hu"):
        loc = local(LIB)
        assert loc.province["aegyptus"].name == "Egyiptom"
        assert loc.province["pannonia-inferior"].name == "Alsó-Pannónia" if "pannonia-inferior" in loc.province \
            else any(p.name == "Alsó-Pannónia" for p in loc.map.province)
        assert loc.monster["minotaur"].name == "A Minótaurosz"
        assert the("Rabló") == "a rabló" and the("Alexandriai matróz", cap=True) == "Az alexandriai matróz"
        assert the(loc.monster["minotaur"].name, proper=True) == "a Minótaurosz"
        assert foe_name("Kerberos (left head)") == "Kerberosz (bal fej)"
    for lang in ("el", "ja"):  # their sentences are written around a bare name: no English "the" slips in
        with using(lang):
            assert the("Ληστής") == "Ληστής" and the("盗賊", cap=True) == "盗賊"
    assert the("robber", cap=True) == "The robber"
    assert local(LIB) is LIB and LIB.province["aegyptus"].name == "Aegyptus"


# --- refusals ----------------------------------------------------------------------------------------------

def _started() -> State:
    from rules.champion.state import Pass, Pick

    state: State = RULESET.setup(SEATS[:2], {}, 11).state
    state = RULESET.apply(state, 0, Pick(hero="labienus", side=1, weapon="pilum")).state
    state = RULESET.apply(state, 1, Pick(hero="jahmesz", side=1, weapon="khopesh")).state
    state = RULESET.apply(state, 0, Pass()).state
    state = RULESET.apply(state, 1, Pass()).state
    return state


def test_refusals_come_in_hungarian() -> None:
    state = _started()
    seat = state.order[state.turn]
    with using("hu"):
        with pytest.raises(IllegalAction) as unknown:
            RULESET.codec.parse(state, seat, Command.of("caravan", to="atlantis"))
        assert "Nincs „atlantis” nevű tartomány" in str(unknown.value)
        with pytest.raises(IllegalAction) as nothing:
            RULESET.codec.parse(state, seat, Command.of("choose", option="1"))
        assert str(nothing.value).startswith("Most nincs miről dönteni")
        with pytest.raises(Exception) as not_yours:
            RULESET.apply(state, 1 - seat, Commission(reward="gold"))
        assert "nem te" in str(not_yours.value)
        twice = RULESET.apply(state, seat, Commission(reward="gold")).state
        twice.turn = state.turn
        twice.phase = "action"
        with pytest.raises(IllegalAction) as again:
            RULESET.apply(twice, seat, Commission(reward="gold"))
        assert "kétszer egymás után nem lehet" in str(again.value)
    with pytest.raises(IllegalAction) as english:
        RULESET.codec.parse(state, seat, Command.of("caravan", to="atlantis"))
    assert str(english.value).startswith("There is no province called 'atlantis'")


def test_hungarian_names_are_understood_when_typed() -> None:
    state = _started()
    seat = state.order[state.turn]
    state.heroes[seat].province = "latium"
    with using("hu"):
        assert RULESET.codec.parse(state, seat, Command.of("caravan", to="Campania")).to == "campania"  # type: ignore[attr-defined]
    state.heroes[seat].province = "aegyptus"
    with using("hu"):
        action = RULESET.codec.parse(state, seat, Command.of("explore", path="Júdea"))
    assert action.path[-1] == "judaea"  # type: ignore[attr-defined]


def test_every_placeholder_of_the_hungarian_catalogue_is_one_english_has() -> None:
    po = CATALOGUE.catalog("hu")
    assert po is not None
    for m in po:
        if not m.id or not m.string:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        want = set().union(*(placeholders(i) for i in ids)) - {"n"}
        for s in strings:
            assert placeholders(s) - {"n"} == want, m.id
