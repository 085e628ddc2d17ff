"""The Heroes' Road in its book's language: the catalogue is complete in Japanese (and its commands and rules
summary in Hungarian, Greek and Japanese), a whole game told in Japanese leaves no English behind, refusals
come in Japanese, typed Japanese orders and city names are understood, and every label of every picture fits
its box in every language the catalogue has."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator

import pytest
from PIL import Image

from bot.lang.catalogues import coverage, extract
from bot.lang.catalogues import spec_texts as spec_texts_of
from bot.present.base import SeatName, Telling
from bot.present.eiyu import PRESENTER
from bot.service.moment import moment_for
from render.common import fitting
from render.eiyu import board as art
from rules.core import GameError, Rng
from rules.eiyu import RULESET as R
from rules.eiyu.i18n import CATALOGUE
from rules.eiyu.spec import SPEC
from rules.eiyu.state import SetOrder, State
from rules.i18n import placeholders, using
from rules.spec import Command
from tests.eiyu_helpers import new_game, place_all

NAMES = ["Ann", "Bob", "山田", "Dee", "Eve"]
#: Words a Japanese telling may still hold in Latin letters: the players' names, Tabula, and what one types.
ALLOWED = {"Ann", "Bob", "Dee", "Eve", "Tabula"}


def seats(n: int, names: list[str] | None = None) -> list[SeatName]:
    return [SeatName(i, 100 + i, (names or NAMES)[i]) for i in range(n)]


def spec_texts() -> Iterator[tuple[str | None, str]]:
    """Every (context, msgid) of the spec the platform shows: names, descriptions, help, rules."""
    return spec_texts_of(SPEC)


# --- the catalogue ----------------------------------------------------------------------------------


def test_eiyu_i18n_the_template_is_current_and_japanese_is_complete() -> None:
    template = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in CATALOGUE.template() if m.id}
    fresh = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in extract(CATALOGUE) if m.id}
    assert template == fresh, "run python -m bot i18n-extract"
    assert SPEC.languages == ("en", "ja", "hu", "el")
    ja = coverage(CATALOGUE, "ja")
    assert ja.total > 300 and ja.missing == 0 and ja.fuzzy == 0 and not ja.mismatched


@pytest.mark.parametrize("lang", ["hu", "el", "ja"])
def test_eiyu_i18n_commands_options_and_rules_are_translated_in_every_language(lang: str) -> None:
    for context, text in spec_texts():
        got = CATALOGUE.lookup(lang, text, context)
        assert got, f"{lang}: no translation of {context}:{text!r}"
        assert placeholders(got) == placeholders(text)
    assert not coverage(CATALOGUE, lang).mismatched
    names: list[str] = []
    for v in SPEC.verbs:
        name = CATALOGUE.lookup(lang, v.name, "command")
        assert name and re.fullmatch(r"[-_\w]{1,32}", name) and name.lower() == name
        assert len(CATALOGUE.lookup(lang, v.description) or "") <= 100
        args = [CATALOGUE.lookup(lang, a.name, v.context_of(a)) or "" for a in v.args]
        assert all(re.fullmatch(r"[-_\w]{1,32}", a) and a.lower() == a for a in args)
        assert len(set(args)) == len(args)
        assert all(len(CATALOGUE.lookup(lang, a.description) or "") <= 100 for a in v.args)
        names.append(name)
    assert len(set(names)) == len(names)
    topics = [CATALOGUE.lookup(lang, r.topic, "topic") for r in SPEC.rules]
    assert len(set(topics)) == len(topics)


def test_eiyu_i18n_shared_names_agree_with_the_other_games() -> None:
    shared = {("command", "choose"): ("választás", "επιλογή", "選択"), ("command", "hand"): ("kéz", "χέρι", "手札"),
              ("option", "option"): ("lehetőség", "δυνατότητα", "選択肢"),
              ("option", "short"): ("rövid", "σύντομο", "短縮")}
    for (context, name), want in shared.items():
        assert tuple(CATALOGUE.lookup(lang, name, context) for lang in ("hu", "el", "ja")) == want
    # `/program order:` is a command in a row, not Champion's and Legend's sequence: a name of its own
    assert tuple(CATALOGUE.lookup(lang, "order", "option:program") for lang in ("hu", "el", "ja")) == (
        "parancs", "εντολή", "命令")
    assert CATALOGUE.lookup("hu", "order", "option") is None


def year_one(names: list[str]) -> tuple[State, tuple[object, ...]]:
    """Both starting cities chosen: the first year begins (the state and the last move's events)."""
    state = place_all(new_game(2, seed=2, names=names), [1])
    step = R.apply(state, 1, R.codec.parse(state, 1, Command.of("city", city="9")))
    return step.state, step.events


def test_eiyu_i18n_hungarian_and_greek_tell_the_year_in_their_own_words() -> None:
    state, events = year_one(["Ann", "Bob"])
    with using("hu"):
        told = PRESENTER.telling(moment_for(R, state, seats(2), events=events, actor=1))
        assert "📅 **1. év** – a kezdőjátékos Ann." in told.text
        assert CATALOGUE.gettext("The Heroes' Road") == "A hősök útja"
    with using("el"):
        assert CATALOGUE.pgettext("command", "program") == "προγραμματισμός"


# --- a whole game in Japanese -------------------------------------------------------------------------


def english_left(text: str) -> list[str]:
    """Latin-letter words in a Japanese text, once typed commands (in backticks) and names are set aside."""
    bare = re.sub(r"`[^`]*`", "", text)
    return [w for w in re.findall(r"[A-Za-z][A-Za-z'\-]{2,}", bare) if w not in ALLOWED]


def telling_texts(told: Telling | None) -> list[str]:
    if told is None:
        return []
    out = [told.text, *(p.alt for p in told.pictures)]
    if told.prompt is not None:
        out.append(told.prompt.text)
        out += [m.placeholder for m in told.prompt.menus]
        out += [label for m in told.prompt.menus for label, _ in m.choices]
        out += [b.label for b in told.prompt.buttons]
    return out


@pytest.mark.slow
@pytest.mark.parametrize(("players", "seed", "short"), [(3, 1, False), (5, 3, True), (2, 7, False)])
def test_eiyu_i18n_a_whole_game_told_in_japanese_leaves_no_english(players: int, seed: int, short: bool) -> None:
    state: State = new_game(players, short=short, seed=seed, names=NAMES[:players])
    rng = Rng(seed * 31 + 7)
    statics = [m.id for m in CATALOGUE.template() if isinstance(m.id, str) and not placeholders(m.id)
               and len(m.id) > 8 and CATALOGUE.lookup("ja", m.id, m.context) != m.id]
    steps = 0
    with using("ja"):
        texts = telling_texts(PRESENTER.telling(moment_for(R, state, seats(players))))
        while R.outcome(state) is None:
            acting = sorted(R.to_act(state))
            seat = acting[rng.below(len(acting))]
            legal = list(R.legal(state, seat))
            action = legal[rng.below(len(legal))] if rng.below(10) < 3 else R.policy(state, seat, rng)
            assert action is not None
            step = R.apply(state, seat, action)
            moment = moment_for(R, step.state, seats(players), events=step.events, actor=seat, action=action,
                                _before=state)
            public = telling_texts(PRESENTER.telling(moment))
            if step.state.phase != "over":
                assert not any("中央の秘境に名声点チップ" in t for t in public[:1])
            texts += public
            if steps % 4 == 0:
                for s in range(players):
                    texts += telling_texts(PRESENTER.private("hand", moment, s))
            if steps % 9 == 0:
                texts += telling_texts(PRESENTER.status(moment))
            state = step.state
            steps += 1
    assert steps > 50
    joined = "\n".join(texts)
    assert "英雄" in joined and "ランク付け" in joined and "年目" in joined
    for text in texts:
        assert not re.search(r"\{[a-z_]+\}", text), text
        assert not english_left(text), (english_left(text), text)
    for msgid in statics:
        assert msgid not in joined, msgid


def test_eiyu_i18n_the_story_reads_in_japanese() -> None:
    state, events = year_one(["Ann", "山田"])
    people = seats(2, ["Ann", "山田"])
    with using("ja"):
        told = PRESENTER.telling(moment_for(R, state, people, events=events, actor=1))
        assert "📍 山田は都市9 風森から出発します。" in told.text
        assert "📅 **1年目**が始まります。スタートプレイヤーはAnnです。" in told.text
        assert told.prompt is not None and "行動パネル" in told.prompt.text
        [board] = PRESENTER.status(moment_for(R, state, people)).pictures
        assert board.alt.startswith("12の都市の地図（1/12年目）。 Annは都市1 赤金にいます。 山田は都市9 風森にいます。")
        mine = PRESENTER.private("hand", moment_for(R, R.apply(state, 0, SetOrder(slot=1, order="red")).state,
                                                    people), 0)
        assert mine is not None and "`2` 赤の道 ―― → 8 山辺" in mine.text
        assert mine.prompt is not None and [b.label for b in mine.prompt.buttons][-1] == "更新"
    with using("en"):
        told = PRESENTER.telling(moment_for(R, state, people, events=events, actor=1))
        assert "📍 山田 starts in city 9 Kazemori." in told.text


# --- refusals and typed words ---------------------------------------------------------------------------


def refusal(state: State, seat: int, command: Command) -> str:
    with pytest.raises(GameError) as err:
        R.apply(state, seat, R.codec.parse(state, seat, command))
    return str(err.value)


def test_eiyu_i18n_refusals_are_in_japanese() -> None:
    state = new_game(3, seed=2, names=["Ann", "Bob", "山田"])
    with using("ja"):
        assert refusal(state, 0, Command.of("city", city="99")) == "都市は1〜12から選んでください。"
        assert refusal(state, 1, Command.of("city", city="3")) == \
            "今はあなたの番ではありません。Annが出発する都市を選んでいます。"
        assert refusal(state, 0, Command.of("lock")).startswith("行動のプログラムは年の初めに行います。今は")
        placed = place_all(state, [1, 9, 6])
        assert "ちょうど6個の行動" in refusal(placed, 0, Command.of("program", row="act,red"))
        assert refusal(placed, 0, Command.of("choose", option="x")).startswith("報酬を2つ選んでください")
        locked = R.apply(placed, 0, R.codec.parse(placed, 0, Command.of("lock"))).state
        assert refusal(locked, 0, Command.of("lock")) == ("今年の行動はもう確定しています。"
                                                          "全員が確定すると処理が始まります。")
        many = refusal(placed, 0, Command.of("choose", option="gold+building"))
        assert many == ("報酬は討伐の直後に選びます。"
                        "今はあなたの番ではありません。Ann、Bob、山田が今年の行動をプログラムしています。")
    with using("en"):
        assert refusal(state, 0, Command.of("city", city="99")) == "Choose a city from 1 to 12."


def test_eiyu_i18n_japanese_orders_and_city_names_are_understood() -> None:
    state = new_game(2, seed=2)
    assert R.codec.parse(state, 0, Command.of("city", city="山辺")) == R.codec.parse(
        state, 0, Command.of("city", city="8"))
    placed = place_all(state, [1, 9])
    for word, order in (("赤", "red"), ("水色", "lightblue"), ("行動", "act"), ("待機", "wait"), ("紫", "purple")):
        assert R.codec.parse(placed, 0, Command.of("program", slot="1", order=word)) == SetOrder(slot=0, order=order)


# --- pictures -----------------------------------------------------------------------------------------------


def picture_states() -> Iterator[tuple[State, int]]:
    """A game at its start, in the middle (chips, buildings, fame, titans awake) and over, with the dummy, five
    players and the short game, with long names."""
    long = ["Alexandra", "Bartholomew", "山田太郎", "Dee", "Evangeline"]
    for players, short, seed in ((3, False, 5), (5, True, 8), (2, False, 4)):
        state = new_game(players, short=short, seed=seed, names=long[:players])
        rng = Rng(seed)
        yield state, 0
        middle = None
        while R.outcome(state) is None:
            acting = sorted(R.to_act(state))
            seat = acting[rng.below(len(acting))]
            move = R.policy(state, seat, rng)
            assert move is not None
            state = R.apply(state, seat, move).state
            if middle is None and state.phase == "program" and state.year == (5 if short else 7):
                middle = state
                yield state, acting[0]
        yield state, 0


@pytest.mark.parametrize("lang", ["en", "hu", "el", "ja"])
def test_eiyu_i18n_every_label_fits_its_box(lang: str) -> None:
    long_names = ["Alexandra", "Bartholomew", "山田太郎", "Dee", "Evangeline"]
    checked = 0
    with using(lang):
        art._base_in.cache_clear()
        for state, seat in picture_states():
            people = [SeatName(i, 100 + i, long_names[i]) for i in range(len(state.players))]
            moment = moment_for(R, state, people)
            with fitting() as drawn:
                pictures = PRESENTER.status(moment).drawn().pictures  # drawn here, where the labels are read
                hand = PRESENTER.private("hand", moment, seat)
                if hand is not None:
                    pictures += hand.drawn().pictures
            for f in drawn:
                assert f.measured <= f.width, (lang, f.text, f.measured, f.width)
            checked += len(drawn)
            for p in pictures:
                assert Image.open(io.BytesIO(p.png)).size == (1000, 1322)
                assert p.alt
    art._base_in.cache_clear()
    assert checked > 100


def test_eiyu_i18n_the_japanese_map_is_drawn_in_japanese() -> None:
    state = place_all(new_game(3, seed=2, names=["Ann", "Bob", "山田"]), [1, 9, 6])
    view = R.view(state, None)
    with using("ja"), fitting() as drawn:
        art._base_in.cache_clear()
        japanese = art.render_board(view, title="英雄の道 · #1")
    english = art.render_board(view, title="The Heroes' Road · #1")
    assert japanese != english
    labels = {f.text for f in drawn}
    assert {"赤金", "山辺", "中央の秘境", "北の谷", "徴兵", "赤", "？ 最後まで非公開"} <= labels
    assert any(t.startswith("ランク付け：") for t in labels) and any(t.startswith("タイタン：") for t in labels)
    art._base_in.cache_clear()
