"""Champion of the Empire's code lets each language read well: lists joined with the language's own separators
(Greek's ";" is a question mark, Japanese writes 、), gold counted with the language's plural forms, one
opponent attacking in the singular, and the market's prompt ending its sentence before the next begins."""

from __future__ import annotations

from bot.present.base import SeatName
from bot.present.champion import PRESENTER
from bot.service.moment import moment_for
from rules.champion import RULESET
from rules.champion.i18n import and_list, comma, semicolon
from rules.champion.state import Bought, CardsDrawn, FightBegan, NoRoll, State
from rules.champion.telling import tell
from rules.i18n import using
from rules.spec import Command
from tests.champion_helpers import labienus_and_jahmesz

LIB = RULESET.engine.lib
SEATS = [SeatName(0, 100, "Ann"), SeatName(1, 101, "Bob")]


def _started() -> State:
    return labienus_and_jahmesz(RULESET)


def _robbers(seat: int) -> FightBegan:
    foe = {"combat": 2, "initiative": 2, "life": 1}
    return FightBegan(seat=seat, kind="story", rounds=0,
                      foes=[{"name": "Robber", **foe, "controller": 1 - seat}, {"name": "Robber chief", **foe}])


def test_lists_are_joined_the_way_each_language_joins_them() -> None:
    parts = ["a", "b", "c"]
    assert (comma(parts), semicolon(parts), and_list(parts)) == ("a, b, c", "a; b; c", "a, b and c")
    with using("el"):
        assert (comma(parts), semicolon(parts), and_list(parts)) == ("a, b, c", "a · b · c", "a, b και c")
    with using("ja"):
        assert (comma(parts), semicolon(parts), and_list(parts)) == ("a、b、c", "a；b；c", "a、bとc")
    with using("hu"):
        assert (comma(parts), semicolon(parts), and_list(parts)) == ("a, b, c", "a; b; c", "a, b és c")


def test_the_cards_dealt_are_listed_without_a_greek_question_mark() -> None:
    state = _started()
    seat = state.order[state.turn]
    events = [_robbers(seat), CardsDrawn(who="hero", foe=-1, cards=8, kept=0, round=1),
              CardsDrawn(who="Robber", foe=0, cards=7, kept=0, round=1),
              CardsDrawn(who="Robber chief", foe=1, cards=7, kept=0, round=1)]
    english = tell(RULESET.view(state, None), events)
    assert english[-1] == "🃏 Labienus draws 8 combat cards; the Robber 7; the Robber chief 7."
    assert english[0].endswith("**Bob** plays the Robber.")
    with using("el"):
        greek = tell(RULESET.view(state, None), events)
    assert ";" not in "\n".join(greek)
    assert greek[-1].count(" · ") == 2 and greek[-1].endswith(".")
    assert greek[0].endswith("**Bob** παίζει: Ληστής.")
    with using("ja"):
        japanese = tell(RULESET.view(state, None), events)
    assert japanese[-1].count("；") == 2 and japanese[-1].endswith("。") and "; " not in japanese[-1]
    assert japanese[0].endswith("。") and not japanese[0].endswith("。.")


def test_one_gold_is_counted_in_the_singular() -> None:
    state = _started()
    seat = state.order[state.turn]
    item = next(i for i in LIB.items if not i.starting)
    events = [Bought(seat=seat, item=item.id, price=1)]
    assert tell(RULESET.view(state, None), events)[-1].endswith(" for 1 gold.")
    with using("el"):
        one = tell(RULESET.view(state, None), events)[-1]
        many = tell(RULESET.view(state, None), [Bought(seat=seat, item=item.id, price=3)])[-1]
        label = RULESET.codec.label(state, seat, Command.of("commission", reward="gold"))
    assert "1 χρυσό" in one and "1 χρυσά" not in one
    assert "3 χρυσά" in many
    assert "+2 χρυσά" in label


def test_one_opponent_seizing_the_moment_attacks_in_the_singular() -> None:
    state = _started()
    seat = state.order[state.turn]
    one = FightBegan(seat=seat, kind="story", rounds=0, foes=[{"name": "Robber", "combat": 2, "initiative": 2,
                                                               "life": 1}])
    lines = tell(RULESET.view(state, None), [one, NoRoll(attacker="foe", reason="inspired")])
    assert lines[-1].endswith(": the Robber attacks without an initiative roll.")
    two = tell(RULESET.view(state, None), [_robbers(seat), NoRoll(attacker="foe", reason="inspired")])
    assert two[-1].endswith(": the opponents attack without an initiative roll.")


def _at_market() -> tuple[State, int]:
    """The player to move at a market of three items, with 2 gold."""
    state = _started()
    seat = state.order[state.turn]
    state.phase = "market"
    state.market = [i.id for i in LIB.items if i.price >= 2][:3]
    state.heroes[seat].gold = 2
    return state, seat


def test_the_market_prompt_ends_its_sentence_before_the_gold() -> None:
    state, _seat = _at_market()
    for lang, ask in (("en", "or pass. You have 2 gold."), ("el", "ή προσπέρασε. Τα χρυσά σου: 2."),
                      ("ja", "。")):
        with using(lang):
            prompt = PRESENTER.telling(moment_for(RULESET, state, SEATS)).prompt
        assert prompt is not None and ask in prompt.text, (lang, prompt.text)


def test_the_rolled_tag_on_a_story_card_keeps_clear_of_the_first_line() -> None:
    from render.champion import cards
    from render.common import font, text_length
    from rules.champion.i18n import local

    face, width, tag = font("sans", 19), 516, 90
    for lang in ("en", "ja"):
        with using(lang):
            story = local(LIB).story["spring-oasis"]
        plain = cards._rows(story, face, width, 16, 1.18)[0].lines
        marked = cards._rows(story, face, width, 16, 1.18, (0, tag))[0].lines
        limit = width - tag - 12 - 70  # from the text's left edge to the tag's, less a margin
        assert text_length(plain[0], face) > limit  # the text would run under the tag
        assert text_length(marked[0], face) <= limit, lang
        assert "".join(marked).replace(" ", "") == "".join(plain).replace(" ", "")


def test_the_market_note_follows_its_sentence_the_way_each_language_does() -> None:
    state, seat = _at_market()
    hand = PRESENTER.private("hand", moment_for(RULESET, state, SEATS), seat)
    assert hand is not None and hand.text == "You are at the market: buy one item, or leave it. You have 2 gold."
    with using("ja"):
        hand = PRESENTER.private("hand", moment_for(RULESET, state, SEATS), seat)
    assert hand is not None and "。所持金" in hand.text and "。 " not in hand.text
