"""Legend of Heroes as the platform sees it: ``RULESET`` satisfies ``rules.spec.Ruleset``.  It wraps the engine
and adds the plug-in's side: the codec, the typed view, what each action is, and what Tabula plays."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from rules.core import IllegalAction, Rng
from rules.legend import auto
from rules.legend.commands import LegendCodec
from rules.legend.engine import Engine
from rules.legend.engine.table import Table
from rules.legend.i18n import _, _n
from rules.legend.spec import EXPANDED_VERBS, SPEC
from rules.legend.state import LegendAction, Narrate, Order, Place, Retreat, Roll, SceneNote, State
from rules.legend.view import LegendView, build_view, secret_variants
from rules.ruleset import GameRuleset
from rules.spec import ActionMeta


class LegendRuleset(GameRuleset[State, LegendAction, LegendView]):
    spec, state_type, action_type = SPEC, State, LegendAction

    def __init__(self, engine: Engine | None = None) -> None:
        self.engine: Engine = engine or Engine()
        self.codec: LegendCodec = LegendCodec(self.engine.table)

    @property
    def table(self) -> Table:
        """What every rule asks about a state: whose turn, who narrates, where a fighter may go."""
        return self.engine.table

    def check_table(self, options: dict[str, object], players: int) -> dict[str, object]:
        """The mode fits the table (solo for one player, starter for 2–5, expanded for 1–5)."""
        mode = options.get("mode") or ("solo" if players == 1 else "starter")
        if mode == "solo" and players != 1:
            raise IllegalAction(_n("The solo game is for one player; {n} is seated. Start a starter game.",
                                   "The solo game is for one player; {n} are seated. Start a starter game.", players))
        if mode == "starter" and not 2 <= players <= 5:
            raise IllegalAction(
                _("The starter game needs 2 to 5 players ({n} seated). One player can play solo.", n=players)
            )
        if mode == "expanded" and not 1 <= players <= 5:
            raise IllegalAction(_("The Expanded Game takes 1 to 5 players ({n} seated).", n=players))
        narration = "bot" if players == 1 else options["narration"]  # nobody sits to the right of a lone player
        return {**options, "mode": mode, "narration": narration}

    def verbs_offered(self, options: Mapping[str, object]) -> frozenset[str] | None:
        """A starter or solo game has no party: the Expanded Game's verbs are left out of its `/help`."""
        if options.get("mode") == "expanded":
            return None
        return frozenset(v.name for v in self.spec.verbs) - {v.name for v in EXPANDED_VERBS}

    # --- what a seat may see ----------------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> LegendView:
        """The public picture of the game, plus (for ``seat``) what only that seat may see."""
        return build_view(self.engine.table, self.codec, state, seat)

    def secret_variants(self, state: State, seat: int) -> Iterator[State]:
        """States that differ only in what ``seat`` alone knows, or nobody does (see ``view.secret_variants``)."""
        return secret_variants(self.engine.table, state, seat)

    # --- what each action is, and what Tabula plays -------------------------------------------------

    def meta(self, action: LegendAction) -> ActionMeta:
        """Notes and reorders are free; anything that rolls a die or turns a card up cannot be taken back."""
        if isinstance(action, (SceneNote, Order)):
            return ActionMeta(free=True)
        if isinstance(action, Roll):
            return ActionMeta(free=True, undoable=False)
        if isinstance(action, (Place, Retreat)):
            return ActionMeta()
        return ActionMeta(undoable=False)

    def timeout(self, state: State) -> tuple[int, LegendAction] | None:
        """The action Tabula takes for an absent Narrator once the game's narrator timeout passes."""
        narrator = self.engine.table.narrator(state)
        ex = state.exploring
        if state.phase == "explore" and narrator is not None and ex and ex.pending and ex.decision is None:
            return narrator, Narrate(auto=True)
        return None

    def stands_in(self, start: State, now: State, seat: int, played: int) -> bool:
        """Reading out the card for an absent Narrator chooses nothing: the timeout's own ``Narrate`` is played
        as it is at every level (its telling says the Narrator was away)."""
        return False

    def policy(self, state: State, seat: int, rng: Rng) -> LegendAction | None:
        return auto.policy(self.engine, state, seat, rng)
