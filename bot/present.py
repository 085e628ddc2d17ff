"""How a game's moment is shown to people, with no transport attached: text, pictures and prompts.

The Discord cogs turn a ``Telling`` into a message (pictures become attachments with alt text, ``ping``
users are mentioned, the prompt becomes a select menu or buttons); the terminal runner prints the text and
writes the pictures to a folder.  One presenter per game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.play import Result
from render import legend as legend_render
from rules.legend.content import BOXES, card_index, fighter_index
from rules.legend.state import SOLO_WOUND_LIMIT, Entered
from rules.legend.story import final_report, revealed_cards, tell


@dataclass(slots=True)
class Picture:
    filename: str
    png: bytes
    alt: str


@dataclass(slots=True)
class Prompt:
    """What the players who must act are asked to do next."""

    users: list[int]  # who gets pinged
    text: str  # "your move" line (no mentions in it; the transport adds them)
    verb: str | None = None  # a select menu fills this verb's option ...
    option: str | None = None
    choices: list[tuple[str, str]] = field(default_factory=list)  # (label, value), at most 25
    narrator: bool = False  # offer "Read the card" / "Let Tabula read it"


@dataclass(slots=True)
class Telling:
    text: str
    pictures: list[Picture]
    prompt: Prompt | None


def game_title(result: Result) -> str:
    return f"{result.rules.title} · #{result.game_id}"


class LegendPresenter:
    key = "legend"

    def board(self, result: Result) -> Picture:
        view = result.view()
        png = legend_render.render_board(view, title=game_title(result))
        return Picture("board.png", png, legend_render.board_alt_text(view)[:1000])

    def card(self, card_id: str) -> Picture:
        card = card_index()[card_id]
        return Picture(f"card-{card.id}.png", legend_render.render_card(card), legend_render.card_alt_text(card)[:1000])

    def fighter(self, fighter_id: str, *, wounded: bool) -> Picture:
        f = fighter_index()[fighter_id]
        side = "wounded" if wounded else "ready"
        return Picture(f"fighter-{f.id}-{side}.png", legend_render.render_fighter(f, wounded=wounded),
                       legend_render.fighter_alt_text(f, wounded=wounded)[:1000])

    def warm(self) -> int:
        """Draw every card, both sides of every fighter card and the dungeon once, so no player waits for it."""
        from rules.legend.content import fighters

        count = 0
        for card_id in card_index():
            self.card(card_id)
            count += 1
        for f in fighters():
            self.fighter(f.id, wounded=False)
            self.fighter(f.id, wounded=True)
            count += 2
        legend_render.render_board(legend_render.sample_view(), title="warm-up")
        return count + 1

    def telling(self, result: Result, *, with_board: bool = True) -> Telling:
        """The message after a start or a move: the story, the revealed cards, the board, who is next."""
        lines = tell(result.state, result.events)
        pictures = [self.card(c) for c in revealed_cards(result.events)][:8]
        if result.outcome is not None:
            lines.append("**Final treasure**\n" + "\n".join(final_report(result.state)))
            lines.append(f"🏆 {result.outcome.summary}")
        # Between two cards of one room nothing moves on the board: show it when the fighter enters a room,
        # moves, or the exploration ends, not after every card told.
        mid_room = result.state.phase == "explore" and not any(isinstance(e, Entered) for e in result.events)
        if with_board and not mid_room:
            pictures.append(self.board(result))
        return Telling(text="\n".join(lines), pictures=pictures, prompt=self.prompt(result))

    def prompt(self, result: Result) -> Prompt | None:
        rules, state = result.rules, result.state
        if result.status != "active" or state.phase == "over":
            return None
        if state.phase == "explore":
            narrator = rules.narrator(state)
            if narrator is None:
                return None
            explorer = state.players[rules.current(state)].name
            return Prompt(users=[result.user_of(narrator)], narrator=True,
                          text=f"you are the Narrator for {explorer}: look at the card with `/narrate` (only you "
                               f"see it), then tell it with `/narrate text:` — or let Tabula read it.")
        seat = rules.current(state)
        asks = {
            "place": "choose your starting doorway beside an entrance",
            "move": "your move: pick a doorway (or type `/explore to:`)",
        }
        return Prompt(users=[result.user_of(seat)], text=asks[state.phase], verb="explore", option="to",
                      choices=rules.choices(state, seat, "explore", "to"))

    def status(self, result: Result) -> Telling:
        state = result.state
        view = result.view()
        rows = []
        for f in view["fighters"]:
            if f["doorway"]:
                where = f"at {f['doorway']}"
            elif f["in_room"]:
                where = f"exploring room {f['in_room']}"
            else:
                where = "not in the dungeon yet"
            hurt = " · wounded" if f["wounded"] else ""
            wounds = f" · {f['wounds']} of {SOLO_WOUND_LIMIT} wounds" if state.mode == "solo" else ""
            rows.append(f"{f['letter']} **{f['player']}** ({f['colour']}, {f['fighter']}) {where}{hurt}{wounds}"
                        f" — {f['gold']} gold")
        head = view["caption"]
        if result.status == "abandoned":
            head = "This game was abandoned."
        text = f"**{game_title(result)}** — {head}\n" + "\n".join(rows)
        return Telling(text=text, pictures=[self.board(result)], prompt=self.prompt(result))

    def sheet(self, result: Result, seat: int) -> Telling:
        me = result.state.players[seat]
        fighter = fighter_index()[me.fighter]
        index = card_index()
        found = ", ".join(f"{index[c].title} ({index[c].gold})" for c in me.treasure) or "nothing yet"
        gold = sum(index[c].gold for c in me.treasure)
        side = "wounded (healed when their next turn starts)" if me.wounded else "ready"
        wounds = f"\nWounds: {me.wounds} of {SOLO_WOUND_LIMIT}" if result.state.mode == "solo" else ""
        text = (f"**{fighter.name}** — {me.name}'s fighter ({me.colour} token {me.letter}), {side}.{wounds}\n"
                f"Treasure: {found} — **{gold} gold**.\n"
                f"Red dot under box **{BOXES[fighter.dot]}**: that box on a Monster or Hazard card is the roll "
                f"needed on the d20. The numbers on the fighter card are what monsters must roll to wound.")
        return Telling(text=text, pictures=[self.fighter(me.fighter, wounded=me.wounded)], prompt=None)

    def narrator_card(self, result: Result, seat: int) -> Telling | None:
        """The Narrator's private look at the card in hand: the card, and what it will do."""
        card_id = result.view(seat).get("narrator_card")
        if card_id is None:
            return None
        state, rules = result.state, result.rules
        card = card_index()[card_id]
        explorer = state.players[rules.current(state)]
        fighter = fighter_index()[explorer.fighter]
        if card.kind == "monster":
            assert card.dot is not None
            effect = (f"A fight. {fighter.name} needs **{card.needs[fighter.dot]}** or more on the d20 to kill the "
                      f"{card.title}; each miss, it strikes back needing **{fighter.defence[card.dot]}** to wound.")
        elif card.kind == "hazard":
            effect = (f"A hazard. {fighter.name} needs **{card.needs[fighter.dot]}** or more on the d20, or is "
                      f"wounded.")
        elif card.kind == "treasure":
            effect = f"Treasure worth **{card.gold} gold**, which {explorer.name} keeps."
        else:
            effect = "Sets the scene."
        after = {"end": "Then the room ends."}.get(card.next, f"Then the red arrow leads to a **{card.next}** card.")
        parts = [f"**{card.title}** ({card.kind})", card.text]
        if card.after:
            parts.append(f"*If overcome:* {card.after}")
        parts += [f"**What it does:** {effect} {after}",
                  "Tell it in your own words with `/narrate text:` — Tabula then shows the card and rolls the dice."]
        return Telling(text="\n".join(parts), pictures=[self.card(card_id)], prompt=None)


PRESENTERS: dict[str, Any] = {"legend": LegendPresenter()}


def presenter(key: str) -> Any:
    return PRESENTERS[key]
