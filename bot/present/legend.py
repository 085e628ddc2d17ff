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
from rules.legend.content import BOXES, CLASS_NAMES, card_index, fighter_index, hero_index, need, spell_index
from rules.legend.state import FREE_ACTIONS, SOLO_WOUND_LIMIT, Entered, SpellCast
from rules.legend.story import agree, final_report, revealed_cards, tell


@dataclass(slots=True)
class Picture:
    filename: str
    png: bytes
    alt: str


@dataclass(slots=True)
class Button:
    """A button that acts as a verb (with one option filled in, if ``option`` is set)."""

    label: str
    verb: str
    style: str = "secondary"  # primary, secondary, success, danger
    option: str = ""
    value: str = ""

    @property
    def command(self) -> str:
        """The same as a typed command (the terminal runner shows it)."""
        if self.verb == "act":
            return typed(self.value)
        return f"/{self.verb}" + (f" {self.option}:{self.value}" if self.option else "")


def typed(encoded: str) -> str:
    """An encoded command (``explore?path=latium>campania``) as typed: ``/explore path:latium>campania``."""
    from urllib.parse import parse_qsl

    verb, _, query = encoded.partition("?")
    return " ".join([f"/{verb}", *(f"{k}:{v}" for k, v in parse_qsl(query, keep_blank_values=True))])


@dataclass(slots=True)
class Prompt:
    """What the players who must act are asked to do next."""

    users: list[int]  # who gets pinged
    text: str  # "your move" line (no mentions in it; the transport adds them)
    verb: str | None = None  # a select menu fills this verb's option ...
    option: str | None = None
    choices: list[tuple[str, str]] = field(default_factory=list)  # (label, value), at most 25
    narrator: bool = False  # offer "Read the card" / "Let Tabula read it"
    buttons: list[Button] = field(default_factory=list)
    placeholder: str = ""  # the select menu's grey hint
    private: str = ""  # a button that shows the pinged players their own secret choices ("Your hand")


@dataclass(slots=True)
class Telling:
    text: str
    pictures: list[Picture]
    prompt: Prompt | None
    free: bool = False  # a dice roll or a note: the current prompt stays where it is, nobody is pinged


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

    def spell(self, spell_id: str) -> Picture:
        sp = spell_index()[spell_id]
        return Picture(f"spell-{sp.id}.png", legend_render.render_spell(sp), legend_render.spell_alt_text(sp)[:1000])

    def party(self, result: Result, seat: int, *, secret: bool) -> Picture:
        """The Party laid out in a row, Leader at the right; the spell only on the owner's own picture."""
        p = result.state.players[seat]
        party = {"player": p.name, "colour": p.colour, "letter": p.letter,
                 "heroes": [{"id": h.id, "wounded": h.wounded} for h in p.party],
                 "spell": p.spell if secret else None}
        png = legend_render.render_party(party)
        return Picture(f"party-{seat}.png", png, legend_render.party_alt_text(party)[:1000])

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
        from rules.legend.content import heroes, spells

        for h in heroes():
            legend_render.render_hero(h, wounded=False)
            legend_render.render_hero(h, wounded=True)
            count += 2
        for sp in spells():
            self.spell(sp.id)
            count += 1
        legend_render.render_board(legend_render.sample_view(), title="warm-up")
        return count + 1

    def telling(self, result: Result, *, with_board: bool = True) -> Telling:
        """The message after a start or a move: the story, the revealed cards, the board, who is next."""
        lines = tell(result.state, result.events)
        if result.actor is not None and result.events and isinstance(result.action, FREE_ACTIONS):
            return Telling(text="\n".join(lines), pictures=[], prompt=None, free=True)
        pictures = [self.card(c) for c in revealed_cards(result.events)][:8]
        pictures += [self.spell(e.spell) for e in result.events if isinstance(e, SpellCast)][:1]
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
        if state.phase == "explore" and state.exploring is not None and state.exploring.decision is not None:
            return self._decision_prompt(result, rules.current(state))
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
        prompt = Prompt(users=[result.user_of(seat)], text=asks[state.phase], verb="explore", option="to",
                        choices=rules.choices(state, seat, "explore", "to"), placeholder="Choose where to go…")
        if rules.expanded(state) and state.phase == "move":
            healed, _healer, studying = rules.rest_plan(state, seat)
            if healed or studying:
                what = " and ".join(w for w, on in (("heal", healed), ("study", studying)) if on)
                prompt.buttons.append(Button(f"Rest a turn ({what})", "study" if studying else "heal"))
                prompt.text += f", or rest a turn to {what} (`/study`, `/heal`)"
        return prompt

    def _decision_prompt(self, result: Result, seat: int) -> Prompt:
        """Expanded Game: keep or change the Leader; attack, cast or retreat."""
        rules, state = result.rules, result.state
        ex = state.exploring
        lead = rules.leader(state, seat)
        lead_name = lead.name if lead else "nobody"
        others = rules.choices(state, seat, "lead", "hero")
        user = [result.user_of(seat)]
        if ex.decision == "leader":
            coming = f"a **{ex.coming.title()}** card is coming"
            if ex.pending is not None:  # the danger left face down on the room
                coming = f"the **{card_index()[ex.pending].title}** left here will be turned up"
            return Prompt(users=user, text=f"{coming}. Keep **{lead_name}** in front, or choose a new Leader "
                                           "first.",
                          verb="lead", option="hero", choices=others, placeholder="Change the Leader to…",
                          buttons=[Button(f"Keep {lead_name}", "keep", "primary")])
        danger = card_index()[ex.danger].title if ex.danger else "danger"
        hazard = ex.danger is not None and card_index()[ex.danger].kind == "hazard"
        again = "Face it again" if hazard else "Attack again"
        buttons = [Button("Attack" if ex.decision == "strike" else again, "attack", "danger")]
        if rules.can_cast(state, seat):
            buttons.append(Button("Cast your spell", "cast", "primary"))
        if ex.decision == "strike":
            return Prompt(users=user, text=f"{lead_name} faces the {danger} with a spell in hand: attack, or cast "
                                           "(`/attack`, `/cast`). Check the spell's box for the monster's red dot "
                                           "first — `/party` shows your spell card.", buttons=buttons)
        buttons.append(Button("Retreat", "retreat"))
        verb = "Face it again" if hazard else "Attack again"
        still = agree(danger, "is", "are")
        return Prompt(users=user, text=f"the {danger} {still} still there. {verb} with **{lead_name}**, change the "
                                       "Leader, or retreat to the doorway you came in by.",
                      verb="lead", option="hero", choices=others, placeholder="Change the Leader to…",
                      buttons=buttons)

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
            hurt = " · wounded" if f["wounded"] and state.mode != "expanded" else ""
            if "party" in f:
                down = sum(1 for h in f["party"] if h["wounded"])
                hurt = f" · led by {f['fighter']}" + (f" · {down} of 5 wounded" if down else "")
            wounds = f" · {f['wounds']} of {SOLO_WOUND_LIMIT} wounds" if len(state.players) == 1 else ""
            rows.append(f"{f['letter']} **{f['player']}** ({f['colour']}, {f['fighter']}) {where}{hurt}{wounds}"
                        f" — {f['gold']} gold")
        head = view["caption"]
        if result.status == "abandoned":
            head = "This game was abandoned."
        text = f"**{game_title(result)}** — {head}\n" + "\n".join(rows)
        return Telling(text=text, pictures=[self.board(result)], prompt=self.prompt(result))

    def sheet(self, result: Result, seat: int) -> Telling:
        if result.state.mode == "expanded":
            return self.party_sheet(result, seat)
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

    def party_sheet(self, result: Result, seat: int) -> Telling:
        """`/party` and `/sheet` in the Expanded Game: the owner's private look at the Party and its spell."""
        state, rules = result.state, result.rules
        me = state.players[seat]
        index = card_index()
        rows = []
        for h in reversed(me.party):
            hero = hero_index()[h.id]
            mark = "🩸 wounded" if h.wounded else "ready"
            crown = "👑 " if h is me.party[-1] and not h.wounded else ""
            rows.append(f"{crown}**{hero.name}** the {CLASS_NAMES[hero.kind]} — "
                        f"red dot under box **{BOXES[hero.dot]}**, {mark}")
        spell = spell_index()[me.spell] if me.spell else None
        if spell is not None:
            immune = [BOXES[i] for i, ok in enumerate(spell.works) if not ok]
            spell_line = (f"Spell: **{spell.name}** — roll {spell.roll}+; monsters whose red dot is under box "
                          f"{', '.join(immune)} are immune." if immune else
                          f"Spell: **{spell.name}** — roll {spell.roll}+; no monster is immune.")
        else:
            spell_line = "Spell: none — your Magic User can learn one with `/study` (it costs a turn)."
        gold = sum(index[c].gold for c in me.treasure)
        found = ", ".join(f"{index[c].title} ({index[c].gold})" for c in me.treasure) or "nothing yet"
        wounds = f"\nParty wounds: {me.wounds} of {SOLO_WOUND_LIMIT}" if len(state.players) == 1 else ""
        reorder = ""
        if self.can_reorder(result, seat):
            reorder = ("\nChoose below who leads or who drops to the back (in the terminal: `/front hero:` or "
                       "`/back hero:`).")
        if all(h.wounded for h in me.party):
            reorder += "\nEvery hero is wounded: nobody can lead until the party has recovered."
        text = (f"**{me.name}'s party**, Leader first (in the picture the Leader stands at the right-hand end):\n"
                + "\n".join(rows) + f"\n{spell_line}\nTreasure: {found} — **{gold} gold**.{wounds}{reorder}")
        del rules
        return Telling(text=text, pictures=[self.party(result, seat, secret=True)], prompt=None)

    def can_reorder(self, result: Result, seat: int) -> bool:
        return result.status == "active" and result.rules.reorder_refusal(result.state, seat) is None

    def narrator_card(self, result: Result, seat: int) -> Telling | None:
        """The Narrator's private look at the card in hand: the card, and what it will do."""
        card_id = result.view(seat).get("narrator_card")
        if card_id is None:
            return None
        state, rules = result.state, result.rules
        card = card_index()[card_id]
        explorer = state.players[rules.current(state)]
        fighter = fighter_index()[explorer.fighter]
        if state.mode == "expanded" and card.kind in ("monster", "hazard"):
            effect = self._party_numbers(result, card.id)
        elif card.kind == "monster":
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
        joiner = "\n" if "\n" in effect else " "  # the Expanded Game's list of heroes ends on its own line
        parts += [f"**What it does:** {effect}{joiner}{after}",
                  "Tell it in your own words with `/narrate text:` — Tabula then shows the card and rolls the dice."]
        return Telling(text="\n".join(parts), pictures=[self.card(card_id)], prompt=None)


    def _party_numbers(self, result: Result, card_id: str) -> str:
        """What the Narrator needs for a fight in the Expanded Game: every hero's numbers against this card."""
        state, rules = result.state, result.rules
        card = card_index()[card_id]
        explorer = state.players[rules.current(state)]
        rows = []
        for h in reversed(explorer.party):
            hero = hero_index()[h.id]
            line = f"{hero.name} the {CLASS_NAMES[hero.kind]}: needs **{need(card, hero)}**"
            if card.kind == "monster" and card.dot is not None:
                line += f", wounded on **{hero.defence[card.dot]}**+"
            rows.append(line + (" *(wounded, cannot lead)*" if h.wounded else ""))
        lead = rules.leader(state, rules.current(state))
        first = f"{lead.name} leads" if lead else "Nobody is standing"
        if card.kind == "monster":
            assert card.dot is not None
            what = (f"A fight. {first}; each miss, the {card.title} strikes back. After each of its attacks the "
                    f"player may attack again, change Leader or retreat. Its red dot is under box "
                    f"**{BOXES[card.dot]}** (for spells: that box of the Spell card says whether it works).")
        else:
            what = f"A hazard. {first}; a failed roll wounds the Leader, and the party may try again or retreat."
        return what + "\n" + "\n".join(rows)


PRESENTERS: dict[str, Any] = {"legend": LegendPresenter()}


def presenter(key: str) -> Any:
    if key not in PRESENTERS and key == "champion":
        from bot.present_champion import ChampionPresenter

        PRESENTERS[key] = ChampionPresenter()
    return PRESENTERS[key]
