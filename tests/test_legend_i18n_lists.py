"""Legend of Heroes joins texts the way each language does: lists with its own separators (Greek "·" for a
list of clauses, Japanese "、"), one card's text running on into the next without a space in Japanese, and
the winners' names with the language's "and"; English is unchanged."""

from __future__ import annotations

from render.legend.cards import card_alt_text
from rules.i18n import using
from rules.legend.content import card_index
from rules.legend.i18n import summary
from rules.legend.telling import _continue, spell_line


def test_a_card_running_on_into_the_next_keeps_its_space_in_english_and_none_in_japanese() -> None:
    with using("en"):
        lines = ["Out of the gloom comes…"]
        _continue(lines, "…a troll.")
        assert lines == ["Out of the gloom comes… a troll."]
    with using("ja"):
        lines = ["現れたのは…"]
        _continue(lines, "…刃こぼれした剣。")
        assert lines == ["現れたのは…刃こぼれした剣。"]


def test_a_spells_immune_boxes_are_listed_the_languages_way() -> None:
    with using("en"):
        assert spell_line("fireball") == "**Fireball** (roll 5+; no effect on boxes A, C)"
    with using("ja"):
        assert "A、C" in spell_line("fireball")


def test_a_list_of_clauses_uses_the_greek_middle_dot_not_its_question_mark() -> None:
    troll = card_index()["troll"]
    with using("en"):
        said = card_alt_text(troll)
        assert "Fighter 12/13/14/15/11; Dwarf 13/12/11/10/14;" in said
        assert "box A 12, B 13, C 14" in said
        assert "you find… Roll needed" in said
    with using("el"):
        said = card_alt_text(troll)
        assert ";" not in said and " · " in said
    with using("ja"):
        said = card_alt_text(troll)
        assert "A 12、B 13" in said and "。 " not in said and ", " not in said


def test_the_winners_names_are_joined_with_the_languages_and() -> None:
    stored = "Ann and Bea share the victory with 30 gold pieces each."
    with using("en"):
        assert summary(stored) == stored
    with using("hu"):
        assert "Ann és Bea" in summary(stored)
    with using("ja"):
        assert "AnnとBea" in summary(stored)


def test_the_boards_description_ends_and_lists_the_languages_way() -> None:
    from render.legend.board import board_alt_text
    from rules.legend.ruleset import LegendRuleset
    from tests.legend_helpers import play_moves

    rules = LegendRuleset()
    state, _events = play_moves(rules, ["Ann", "Bob"], 40, seed=5)[-1]
    view = rules.view(state, None)
    with using("en"):
        english = board_alt_text(view)
        assert english.endswith(".") and "; gold: " in english
    with using("el"):
        greek = board_alt_text(view)
        assert ";" not in greek and " · " in greek
    with using("ja"):
        japanese = board_alt_text(view)
        assert japanese.endswith("。") and ", " not in japanese and " (" not in japanese


def test_a_partys_description_runs_its_sentences_together_in_japanese() -> None:
    import msgspec

    from render.legend.party import party_alt_text
    from rules.legend.view import PartyView

    order = ["tamsin", "ciaran", "zoltan", "rolf", "brand"]
    party = msgspec.convert({"player": "Ann", "colour": "red", "letter": "R", "spell": "fireball",
                             "heroes": [{"id": h, "wounded": h == "rolf"} for h in order]}, PartyView)
    with using("en"):
        said = party_alt_text(party)
        assert "Left to right: " in said and ". Wounded: " in said and ", " in said
    with using("ja"):
        said = party_alt_text(party)
        assert "。 " not in said and ", " not in said and "、" in said
