"""Autokrator in Greek: the catalogue is complete (and current), every name takes the form its sentence needs,
a whole game told through the presenter has no English left and no placeholder unfilled, refusals and typed
names work in Greek, and the English texts are what they always were."""

from __future__ import annotations

import functools
import random
import re
from typing import Any

import pytest

from bot.lang.catalogues import coverage, extract
from bot.present.autokrator import PRESENTER
from bot.present.base import SeatName
from bot.service.moment import GameMoment
from rules.autokrator import RULESET as R
from rules.autokrator.content import library
from rules.autokrator.i18n import CATALOGUE, place, realm_name, the_realm, unit_title, why_text
from rules.autokrator.spec import SPEC
from rules.autokrator.state import Move, State
from rules.core import GameError, IllegalAction, SeatInfo
from rules.i18n import placeholders, using
from rules.spec import Command
from tests.autokrator_helpers import act, deal, new_game, scene

GREEK = re.compile(r"[\u0370-\u03ff\u1f00-\u1fff]")
UNFILLED = re.compile(r"(?<!\{)\{[a-z_]+\}(?!\})")
NAMES = ("Άννα", "Bob", "Cleo", "Dara")


@functools.cache
def _english_pieces(lang: str = "el") -> frozenset[str]:
    """The literal stretches of every English text whose translation differs (at least 14 characters long):
    none of them may appear in a telling in that language."""
    pieces: set[str] = set()
    for message in CATALOGUE.template():
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
        greek = CATALOGUE.lookup(lang, ids[0], message.context) or ""
        for text in ids:
            for chunk in re.split(r"\{[a-z_]+\}", text):
                chunk = chunk.strip(" .,:;—()*`")
                if len(chunk) >= 14 and chunk not in greek and re.search(r"[a-z]{4}", chunk) \
                        and not re.fullmatch(r"[-`/a-z:._|, ]+", chunk):
                    pieces.add(chunk)
    return frozenset(pieces)


def _check_greek(text: str, where: str) -> None:
    lang = where if where in ("hu", "ja") else "el"
    assert not UNFILLED.search(text), (where, text)
    for piece in _english_pieces(lang):
        assert piece not in text, (where, piece, text)


def _seats(n: int) -> list[SeatName]:
    return [SeatName(seat=i, user_id=100 + i, name=NAMES[i]) for i in range(n)]


def _shown(moment: GameMoment[Any]) -> list[str]:
    """Every text the presenter gives for a moment: the telling, the prompt, its menus and buttons, the
    pictures' descriptions, the status and each acting seat's private view."""
    texts: list[str] = []
    telling = PRESENTER.telling(moment)
    texts.append(telling.text)
    texts += [p.alt for p in telling.pictures]
    prompts = [telling.prompt]
    if moment.actor is None or moment.outcome is not None:  # the status draws the map: once at each end
        texts.append(PRESENTER.status(moment).text)
    for seat in sorted(moment.to_act):
        private = PRESENTER.private("hand", moment, seat)
        if private is not None:
            texts.append(private.text)
            texts += [p.alt for p in private.pictures]
            prompts.append(private.prompt)
    for prompt in prompts:
        if prompt is None:
            continue
        texts.append(prompt.text)
        for menu in prompt.menus:
            texts.append(menu.placeholder)
            texts += [label for label, _ in menu.choices]
        texts += [b.label for b in prompt.buttons]
    return [t for t in texts if t]


@pytest.fixture
def no_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Words only: the pictures are drawn (and checked) in test_autokrator_i18n_pictures."""
    from render import autokrator as art

    for name in ("render_board", "render_fought", "render_battle", "render_hand", "render_cards"):
        monkeypatch.setattr(art, name, lambda *a, **k: b"")


def _play(players: int, mode: str, seed: int, lang: str, limit: int = 1500) -> list[str]:
    rnd = random.Random(seed)
    seats = [SeatInfo(index=i, name=NAMES[i]) for i in range(players)]
    start = R.setup(seats, R.check_options({"mode": mode, "raids": True}, players), seed)
    state: State = start.state
    shown: list[str] = []
    with using(lang):
        moment = GameMoment(game_id=1, rules=R, _state=state, seats=_seats(players), events=start.events)
        shown += _shown(moment)
        for _step in range(limit):
            if R.outcome(state) is not None:
                break
            seat = min(R.to_act(state))
            action = rnd.choice(R.legal(state, seat))
            step = R.apply(state, seat, action)
            moment = GameMoment(game_id=1, rules=R, _state=step.state, seats=_seats(players), events=step.events,
                                actor=seat, action=action, _before=state,
                                status="finished" if R.outcome(step.state) else "active")
            state = step.state
            shown += _shown(moment)
    return shown


@pytest.mark.parametrize(("players", "mode", "seed"), [(4, "full", 3), (2, "east", 8), (4, "fast", 21)])
@pytest.mark.usefixtures("no_drawing")
def test_a_whole_game_told_in_greek_has_no_english_left(players: int, mode: str, seed: int) -> None:
    shown = _play(players, mode, seed, "el")
    assert len(shown) > 200
    for text in shown:
        _check_greek(text, "el")
    joined = "\n".join(shown)
    assert "📯 Ο πόλεμος τελείωσε" in joined and "**Τα βασίλεια στο τέλος**" in joined  # played to the end
    assert "⚔️ **Μάχη " in joined and "Σύγκρουση 1:" in joined
    assert len(GREEK.findall(joined)) > len(joined) // 3


@pytest.mark.parametrize(("lang", "ended", "battle"), [("hu", "📯 A háború véget ért", "⚔️ **Csata"),
                                                       ("ja", "📯 戦争は終わりました", "の戦い**")])
@pytest.mark.usefixtures("no_drawing")
def test_a_whole_game_told_in_hungarian_or_japanese_has_no_english_left(lang: str, ended: str, battle: str) -> None:
    shown = _play(4, "fast", 21, lang)
    assert len(shown) > 200
    for text in shown:
        _check_greek(text, lang)
    joined = "\n".join(shown)
    assert ended in joined and battle in joined  # played to the end, through battles


@pytest.mark.usefixtures("no_drawing")
def test_the_same_game_in_english_reads_as_it_always_did() -> None:
    shown = _play(2, "east", 8, "en", limit=200)
    joined = "\n".join(shown)
    assert not GREEK.search(joined.replace("Άννα", ""))
    assert "🕯️ The turn of the Saracens (Άννα)." in joined
    assert "your turn with the Saracens: march, sail, attack or rest." in joined
    assert sum(piece in joined for piece in _english_pieces()) > 40  # the check for English left in Greek can fail


def test_names_take_the_form_their_sentence_needs() -> None:
    with using("el"):
        assert place("damascus") == "Δαμασκός" and place("damascus", "in") == "στη Δαμασκό"
        assert place("antioch", "acc") == "την Αντιόχεια" and place("cyprus", "gen") == "της Κύπρου"
        assert place("aachen", "in") == "στο Άαχεν" and place("balearics", "nom") == "οι Βαλεαρίδες"
        assert place("jerusalem", "in") == "στα Ιεροσόλυμα" and place("aleppo") == "Χαλέπι"
        assert the_realm("byz", "gen") == "της Βυζαντινής Αυτοκρατορίας" and realm_name("byz") == "Βυζάντιο"
        assert unit_title("fra", "general", "acc") == "τον Φράγκο Στρατηγό"
        assert unit_title("sar", "garrison") == "η Φρουρά των Σαρακηνών"
        assert why_text("conquering Antioch") == "την κατάκτηση της Αντιόχειας"
        assert why_text("defeating the Byzantine Admiral") == "τη νίκη επί του Βυζαντινού Ναυάρχου"
    for region in library().regions:
        with using("el"):
            forms = [place(region, case) for case in ("", "nom", "acc", "gen", "in")]
        assert all(GREEK.search(f) for f in forms), (region, forms)
        assert len(set(forms[1:])) >= 3, (region, forms)  # the article and case change the name
    with using("en"):
        assert place("damascus", "in") == "Damascus" and the_realm("byz", "gen") == "the Byzantine Empire"


def test_refusals_are_written_in_greek() -> None:
    s = deal(new_game())
    with using("el"):
        with pytest.raises(IllegalAction) as refused:
            R.check_options({}, 3)
        assert "Tabula" in str(refused.value) and "βασίλεια" in str(refused.value)
        with pytest.raises(GameError) as waiting:
            R.apply(s, 1, R.legal(s, 0)[0])
        assert str(waiting.value).startswith("Δεν είναι η σειρά σου") and "Ann" in str(waiting.value)
        for text in ("Ατλαντίδα", "x" * 40):
            with pytest.raises(IllegalAction) as unknown:
                R.codec.parse(s, 0, Command.of("move", unit="king", to=text))
            assert "Δεν υπάρχει περιοχή" in str(unknown.value)
        with pytest.raises(IllegalAction) as busy:
            s2 = scene(s, turn="sar", units={"sar.king": "alexandria"})
            s2.current = "king"
            R.apply(s2, 0, Move(unit="general", to="qattara"))
        text = str(busy.value)
        assert GREEK.search(text) and not UNFILLED.search(text)


def test_greek_names_may_be_typed() -> None:
    s = deal(new_game())
    with using("el"):
        assert R.codec.parse(s, 0, Command.of("move", unit="Βασιλιάς", to="Αλεξάνδρεια")) == \
            Move(unit="king", to="alexandria")
        assert R.codec.parse(s, 0, Command.of("move", unit="king", to="Χαλέπι")) == Move(unit="king", to="aleppo")
    # the data's local name is accepted in any language
    assert R.codec.parse(s, 0, Command.of("move", unit="king", to="Αλέπο")) == Move(unit="king", to="aleppo")


def test_a_told_battle_and_a_capital_falling_read_naturally_in_greek() -> None:
    s = deal(new_game())
    s = scene(s, turn="sar", units={"sar.king": "antioch"})
    with using("el"):
        step = act(s, "sar", R.legal(s, 0)[0])
        moment = GameMoment(game_id=1, rules=R, _state=step.state, seats=_seats(4), events=step.events, actor=0)
        text = PRESENTER.telling(moment).text
        assert "🛡️ Ο Σαρακηνός Βασιλιάς επιτίθεται κατά" in text and "στην Αντιόχεια" in text
        s.reason = "Saracens took Constantinople, the capital of Byzantine Empire"
        s.phase, s.winner = "over", "sar"
        outcome = R.outcome(s)
        assert outcome is not None
        assert outcome.summary.startswith("Νίκη των Σαρακηνών (Ann): η Κωνσταντινούπολη, η πρωτεύουσα της "
                                          "Βυζαντινής Αυτοκρατορίας, έπεσε στα χέρια των Σαρακηνών.")


def test_the_catalogue_is_complete_current_and_its_placeholders_agree() -> None:
    CATALOGUE.reload()
    have = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in CATALOGUE.template() if m.id}
    fresh = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in extract(CATALOGUE) if m.id}
    assert have == fresh, "run `python -m bot i18n-extract`"
    greek = coverage(CATALOGUE, "el")
    assert greek.required and greek.missing == 0 and greek.fuzzy == 0 and not greek.mismatched
    assert SPEC.languages == ("en", "el", "hu", "ja")
    for lang in ("hu", "ja"):
        assert not coverage(CATALOGUE, lang).mismatched


def _spec_strings() -> list[tuple[str | None, str, int, bool]]:
    """(context, text, length limit, is a Discord name) for everything the platform shows from the spec."""
    out: list[tuple[str | None, str, int, bool]] = [(None, SPEC.title, 100, False), (None, SPEC.summary, 4000, False),
                                                    (None, SPEC.intro, 4000, False)]
    for v in SPEC.verbs:
        out += [("command", v.name, 32, True), (None, v.description, 100, False), (None, v.help, 4000, False)]
        for a in v.args:
            out += [("option", a.name, 32, True), (None, a.description, 100, False)]
    for o in SPEC.options:
        out += [("option", o.name, 32, True), (None, o.description, 100, False)]
        out += [("choice", c, 100, False) for c in o.choices]
    for r in SPEC.rules:
        out += [("topic", r.topic, 32, True), (None, r.title, 256, False), (None, r.text, 1500, False)]
    return out


@pytest.mark.parametrize("lang", ["hu", "el", "ja"])
def test_the_spec_speaks_hungarian_greek_and_japanese(lang: str) -> None:
    CATALOGUE.reload()
    for ctx, text, limit, name in _spec_strings():
        shown = CATALOGUE.lookup(lang, text, ctx)
        assert shown, (lang, ctx, text)
        assert len(shown) <= limit, (lang, shown)
        assert placeholders(shown) == placeholders(text)
        if name:
            assert re.fullmatch(r"[-_\w]{1,32}", shown) and shown.lower() == shown, (lang, shown)
    for spec in SPEC.verbs:  # no two options of one command share a name
        given = [CATALOGUE.lookup(lang, a.name, "option") for a in spec.args]
        assert len(set(given)) == len(given), (lang, spec.name, given)
    shared = {"attack": ("támadás", "επίθεση", "攻撃"), "pass": ("passz", "πάσο", "パス"),
              "voyage": ("hajózás", "ταξίδι", "航海"), "hand": ("kéz", "χέρι", "手札"),
              "retreat": ("visszavonulás", "υποχώρηση", "退却")}
    for verb, names in shared.items():
        assert CATALOGUE.lookup(lang, verb, "command") == names[("hu", "el", "ja").index(lang)]
    for option, names in {"to": ("hova", "προς", "行き先"), "target": ("célpont", "στόχος", "目標"),
                          "cards": ("lapok", "κάρτες", "カード"), "mode": ("mód", "λειτουργία", "モード")}.items():
        assert CATALOGUE.lookup(lang, option, "option") == names[("hu", "el", "ja").index(lang)]
