"""Legend of Heroes shown to people: the story of each move, the board and cards, the prompt for whoever acts
next, and the private views — the fighter sheet, the party panel and the Narrator's card.

Reads only the moment: the game's typed views (``rules.legend.view.LegendView``), the events, and the legal
choices already named by the game's codec.  Card, hero and spell pictures are drawn from the game's content.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.present.base import Button, Choice, Menu, Moment, Picture, Presenter, Prompt, Telling, game_title
from render import legend as legend_render
from rules.core import IllegalAction
from rules.legend.content import (
    BOXES,
    CLASS_NAMES,
    card_index,
    fighter_index,
    fighters,
    hero_index,
    heroes,
    need,
    spell_index,
    spells,
)
from rules.legend.state import SOLO_WOUND_LIMIT, Entered, FightRoll, HeroRoll, SpellCast
from rules.legend.story import agree, final_report, revealed_cards, tell
from rules.legend.view import ExplorationView, LegendView
from rules.spec import Command

LegendMoment = Moment[LegendView]


def _pick(choices: list[Choice], *verbs: str) -> list[tuple[str, Command]]:
    return [(c.label, c.command) for c in choices if c.command.verb in verbs]


class LegendPresenter:
    # --- pictures ---------------------------------------------------------------------------------

    def board(self, moment: LegendMoment, view: LegendView) -> Picture:
        png = legend_render.render_board(view, title=game_title(moment))
        return Picture("board.png", png, legend_render.board_alt_text(view)[:1000])

    def card(self, card_id: str, mode: str = "expanded") -> Picture:
        """An Action card as this mode prints it (the starter and solo games: the Fighter row alone)."""
        card = card_index()[card_id]
        fighter_only = mode != "expanded"
        shown = legend_render.fighter_row_only(card) if fighter_only else card
        return Picture(f"card-{card.id}.png", legend_render.render_card(card, fighter_only=fighter_only),
                       legend_render.card_alt_text(shown)[:1000])

    def fought(self, view: LegendView, card_id: str, events: Sequence[object]) -> Picture:
        """A Monster or Hazard card as it was fought in these events: the boxes the rolls were read from
        ringed, and the rolls listed under it (the plain card when nobody rolled against it)."""
        card = card_index()[card_id]
        boxes: list[tuple[str, int]] = []
        lines: list[tuple[str, bool | None]] = []
        danger = card.kind == "monster"

        def theirs(name: str, roll: int, need: int, success: bool) -> tuple[str, bool]:
            """A roll for the players' side: the fighter's or hero's attack (or getting past a Hazard)."""
            verb = ("hits" if success else "misses") if danger else ("gets past" if success else "fails")
            return f"{name} {verb}: {roll} (needs {need})", success

        def its(roll: int, need: int, success: bool) -> tuple[str, bool]:
            """The danger's answer (at whoever just struck): good for the players when it misses."""
            return f"{card.title} {'hits' if success else 'misses'}: {roll} (needs {need})", not success

        for e in events:
            if isinstance(e, FightRoll) and e.card == card_id:
                f = fighter_index()[view.fighters[e.seat].fighter_id]
                if e.who == "fighter":
                    if ("fighter", f.dot) not in boxes:
                        boxes.append(("fighter", f.dot))
                    lines.append(theirs(f.name, e.roll, e.need, e.success))
                else:
                    lines.append(its(e.roll, e.need, e.success))
            elif isinstance(e, HeroRoll) and e.card == card_id:
                hero = hero_index()[e.hero]
                if e.who == "hero":
                    if (hero.kind, hero.dot) not in boxes:
                        boxes.append((hero.kind, hero.dot))
                    lines.append(theirs(hero.name, e.roll, e.need, e.success))
                elif e.who == "spell":
                    lines.append((f"{hero.name} casts: {e.roll} (needs {e.need})", e.success))
                else:
                    lines.append(its(e.roll, e.need, e.success))
        fighter_only = view.mode != "expanded"
        if not lines:
            return self.card(card_id, view.mode)
        png = legend_render.render_card_result(card, boxes=boxes, lines=lines, fighter_only=fighter_only)
        shown = legend_render.fighter_row_only(card) if fighter_only else card
        alt = legend_render.card_alt_text(shown) + " Rolls: " + "; ".join(text for text, _ in lines) + "."
        return Picture(f"card-{card.id}-fought.png", png, alt[:1000])

    def _story_cards(self, view: LegendView, events: Sequence[object]) -> list[Picture]:
        """The cards told in these events, then any danger fought again without being told anew."""
        told = revealed_cards(events)
        again = [e.card for e in events if isinstance(e, (FightRoll, HeroRoll))]
        ids = list(dict.fromkeys([*told, *again]))
        return [self.fought(view, cid, events) if card_index()[cid].kind in ("monster", "hazard")
                else self.card(cid, view.mode) for cid in ids]

    def fighter(self, fighter_id: str, *, wounded: bool) -> Picture:
        f = fighter_index()[fighter_id]
        side = "wounded" if wounded else "ready"
        return Picture(f"fighter-{f.id}-{side}.png", legend_render.render_fighter(f, wounded=wounded),
                       legend_render.fighter_alt_text(f, wounded=wounded)[:1000])

    def spell(self, spell_id: str) -> Picture:
        sp = spell_index()[spell_id]
        return Picture(f"spell-{sp.id}.png", legend_render.render_spell(sp), legend_render.spell_alt_text(sp)[:1000])

    def party(self, view: LegendView, seat: int) -> Picture:
        """The Party laid out in a row, Leader at the right, the Magic User's spell face up beside him."""
        party = view.party_of(seat)
        return Picture(f"party-{seat}.png", legend_render.render_party(party),
                       legend_render.party_alt_text(party)[:1000])

    def warm(self) -> int:
        """Draw every card, both sides of every fighter and hero card, every spell and the dungeon once, so no
        player waits for them."""
        count = 0
        for card_id in card_index():
            self.card(card_id)
            self.card(card_id, "starter")
            count += 2
        for f in fighters():
            self.fighter(f.id, wounded=False)
            self.fighter(f.id, wounded=True)
            count += 2
        for h in heroes():
            legend_render.render_hero(h, wounded=False)
            legend_render.render_hero(h, wounded=True)
            count += 2
        for sp in spells():
            self.spell(sp.id)
            count += 1
        legend_render.render_board(LegendView(), title="warm-up")
        return count + 1

    # --- the public message -----------------------------------------------------------------------

    def telling(self, moment: LegendMoment) -> Telling:
        """The message after a start or a move: the story, the revealed cards, the board, who is next."""
        view = moment.view()
        lines = tell(view, moment.events)
        if moment.actor is not None and moment.events and moment.meta.free:  # a note, a reorder, a roll
            return Telling(text="\n".join(lines), pictures=[], prompt=None)
        pictures = self._story_cards(view, moment.events)[:8]
        pictures += [self.spell(e.spell) for e in moment.events if isinstance(e, SpellCast)][:1]
        if moment.outcome is not None:
            lines.append("**Final treasure**\n" + "\n".join(final_report(view)))
            lines.append(f"🏆 {moment.outcome.summary}")
        # Between two cards of one room nothing moves on the board: show it when the fighter enters a room,
        # moves, or the exploration ends, not after every card told.
        mid_room = view.phase == "explore" and not any(isinstance(e, Entered) for e in moment.events)
        if not mid_room:
            pictures.append(self.board(moment, view))
        return Telling(text="\n".join(lines), pictures=pictures, prompt=self.prompt(moment, view))

    def prompt(self, moment: LegendMoment, view: LegendView) -> Prompt | None:
        if moment.status != "active" or view.phase == "over" or view.to_move is None:
            return None
        ex = view.exploring
        if view.phase == "explore" and ex is not None and ex.decision is not None:
            return self._decision_prompt(moment, view, ex)
        if view.phase == "explore":
            narrator = view.narrator
            if narrator is None:
                return None
            explorer = view.fighters[view.to_move].player
            auto = next((c for _label, c in _pick(moment.choices(narrator), "narrate")), Command("narrate"))
            return Prompt(users=[moment.user_of(narrator)],
                          text=f"you are the Narrator for {explorer}: look at the card with `/narrate` (only you "
                               f"see it), then tell it with `/narrate text:` — or let Tabula read it.",
                          buttons=[Button("Read the card", view="card", style="primary", emoji="📜"),
                                   Button("Let Tabula read it", command=auto, emoji="🤖")])
        seat = view.to_move
        asks = {
            "place": "choose your starting doorway beside an entrance",
            "move": "your move: pick a doorway (or type `/explore to:`)",
        }
        choices = moment.choices(seat)
        moves = _pick(choices, "explore")[:25]
        prompt = Prompt(users=[moment.user_of(seat)], text=asks[view.phase],
                        menus=[Menu(moves, "Choose where to go…")] if moves else [])
        rest = _pick(choices, "study", "heal")
        if view.rest is not None and rest:
            label, command = rest[0]
            what = " and ".join(w for w, on in (("heal", view.rest.healed), ("study", view.rest.studying)) if on)
            prompt.buttons.append(Button(label, command=command))
            prompt.text += f", or rest a turn to {what} (`/study`, `/heal`)"
        return prompt

    def _decision_prompt(self, moment: LegendMoment, view: LegendView, ex: ExplorationView) -> Prompt:
        """Expanded Game: keep or change the Leader; attack, cast or retreat."""
        seat = ex.explorer
        me = view.fighters[seat]
        lead_name = hero_index()[me.leader].name if me.leader else "nobody"
        choices = moment.choices(seat)
        others = _pick(choices, "lead")
        menus = [Menu(others, "Change the Leader to…")] if others else []
        user = [moment.user_of(seat)]
        if ex.decision == "leader":
            coming = f"a **{(ex.coming or 'danger').title()}** card is coming"
            if ex.waiting is not None:  # the danger left face down on the room
                coming = f"the **{card_index()[ex.waiting].title}** left here will be turned up"
            keep = [Button(label, command=command, style="primary") for label, command in _pick(choices, "keep")]
            return Prompt(users=user, text=f"{coming}. Keep **{lead_name}** in front, or choose a new Leader first.",
                          menus=menus, buttons=keep)
        danger = card_index()[ex.danger].title if ex.danger else "danger"
        hazard = ex.danger is not None and card_index()[ex.danger].kind == "hazard"
        buttons = [Button(label, command=command, style="danger") for label, command in _pick(choices, "attack")]
        buttons += [Button(label, command=command, style="primary") for label, command in _pick(choices, "cast")]
        if ex.decision == "strike":
            return Prompt(users=user, text=f"{lead_name} faces the {danger} with a spell in hand: attack, or cast "
                                           "(`/attack`, `/cast`). Check the spell's box for the monster's red dot "
                                           "first — `/party` shows your spell card.", buttons=buttons)
        buttons += [Button(label, command=command) for label, command in _pick(choices, "retreat")]
        verb = "Face it again" if hazard else "Attack again"
        still = agree(danger, "is", "are")
        return Prompt(users=user, text=f"the {danger} {still} still there. {verb} with **{lead_name}**, change the "
                                       "Leader, or retreat to the doorway you came in by.",
                      menus=menus, buttons=buttons)

    def status(self, moment: LegendMoment) -> Telling:
        view = moment.view()
        rows = []
        for f in view.fighters:
            if f.doorway:
                where = f"at {f.doorway}"
            elif f.in_room:
                where = f"exploring room {f.in_room}"
            else:
                where = "not in the dungeon yet"
            hurt = " · wounded" if f.wounded and not view.expanded else ""
            if view.expanded:
                down = sum(1 for h in f.party if h.wounded)
                hurt = f" · led by {f.fighter}" + (f" · {down} of 5 wounded" if down else "")
                hurt += f" · spell {spell_index()[f.spell].name}" if f.spell else " · no spell"
            wounds = f" · {f.wounds} of {SOLO_WOUND_LIMIT} wounds" if len(view.fighters) == 1 else ""
            rows.append(f"{f.letter} **{f.player}** ({f.colour}, {f.fighter}) {where}{hurt}{wounds} — {f.gold} gold")
        head = view.caption
        if moment.status == "abandoned":
            head = "This game was abandoned."
        text = f"**{game_title(moment)}** — {head}\n" + "\n".join(rows)
        return Telling(text=text, pictures=[self.board(moment, view)], prompt=self.prompt(moment, view))

    # --- private views ----------------------------------------------------------------------------

    def private(self, name: str, moment: LegendMoment, seat: int) -> Telling | None:
        """"sheet" (the fighter card, or the party sheet), "party" (Expanded Game: the party and its reorder
        menus) and "card" (the Narrator's look at the card in hand)."""
        view = moment.view(seat)
        if not 0 <= seat < len(view.fighters):
            return None
        if name == "sheet":
            return self.party_sheet(moment, view, seat) if view.expanded else self.sheet(view, seat)
        if name == "party":
            if not view.expanded:
                raise IllegalAction("Parties belong to the Expanded Game of Legend of Heroes. `/sheet` shows what "
                                    "you have in this game.")
            return self.party_sheet(moment, view, seat)
        if name == "card":
            card = self.narrator_card(view)
            if card is None:
                raise IllegalAction(self._no_card(view, seat))
            return card
        return None

    def _no_card(self, view: LegendView, seat: int) -> str:
        """Why `/narrate` shows this player no card, in the game's own words."""
        if view.narration != "players" or len(view.fighters) < 2:
            return ("Tabula narrates this game, so you have no card to read. (In a game started with "
                    "`narration:players`, the player before the explorer tells each room.)")
        if view.phase == "over":
            return "This game has ended: there is no card to read."
        narrator = view.narrator
        ex = view.exploring
        if ex is None or narrator is None or view.phase != "explore":
            return ("You have no card to read: no room is being explored. When someone enters a room, the player "
                    "before them narrates it.")
        if narrator != seat:
            return (f"You have no card to read: {view.fighters[narrator].player} is the Narrator for this room, "
                    "and only they see it.")
        explorer = view.fighters[ex.explorer].player
        return f"You have no card to read yet: {explorer} is choosing what the party does first."

    def sheet(self, view: LegendView, seat: int) -> Telling:
        me = view.fighters[seat]
        fighter = fighter_index()[me.fighter_id]
        found = ", ".join(f"{t.title} ({t.gold})" for t in me.treasure) or "nothing yet"
        side = "wounded (healed when their next turn starts)" if me.wounded else "ready"
        wounds = f"\nWounds: {me.wounds} of {SOLO_WOUND_LIMIT}" if view.mode == "solo" else ""
        text = (f"**{fighter.name}** — {me.player}'s fighter ({me.colour} token {me.letter}), {side}.{wounds}\n"
                f"Treasure: {found} — **{me.gold} gold**.\n"
                f"Red dot under box **{BOXES[fighter.dot]}**: that box on a Monster or Hazard card is the roll "
                f"needed on the d20. The numbers on the fighter card are what monsters must roll to wound.")
        return Telling(text=text, pictures=[self.fighter(me.fighter_id, wounded=me.wounded)], prompt=None)

    def party_sheet(self, moment: LegendMoment, view: LegendView, seat: int) -> Telling:
        """`/party` and `/sheet` in the Expanded Game: the owner's look at the Party and its spell, with
        menus to put a hero at the front or the back when the party may be rearranged now."""
        me = view.fighters[seat]
        rows = []
        for i, h in enumerate(reversed(me.party)):
            hero = hero_index()[h.id]
            mark = "🩸 wounded" if h.wounded else "ready"
            crown = "👑 " if i == 0 and not h.wounded else ""
            rows.append(f"{crown}**{hero.name}** the {CLASS_NAMES[hero.kind]} — "
                        f"red dot under box **{BOXES[hero.dot]}**, {mark}")
        spell = spell_index()[view.spell] if view.spell else None
        if spell is not None:
            immune = [BOXES[i] for i, ok in enumerate(spell.works) if not ok]
            spell_line = (f"Spell: **{spell.name}** — roll {spell.roll}+; monsters whose red dot is under box "
                          f"{', '.join(immune)} are immune." if immune else
                          f"Spell: **{spell.name}** — roll {spell.roll}+; no monster is immune.")
        else:
            spell_line = "Spell: none — your Magic User can learn one with `/study` (it costs a turn)."
        found = ", ".join(f"{t.title} ({t.gold})" for t in me.treasure) or "nothing yet"
        wounds = f"\nParty wounds: {me.wounds} of {SOLO_WOUND_LIMIT}" if len(view.fighters) == 1 else ""
        reorder = ""
        can_reorder = moment.status == "active" and bool(view.front or view.back)
        if can_reorder:
            reorder = ("\nChoose below who leads or who drops to the back (in the terminal: `/front hero:` or "
                       "`/back hero:`).")
        if me.party and all(h.wounded for h in me.party):
            reorder += "\nEvery hero is wounded: nobody can lead until the party has recovered."
        text = (f"**{me.player}'s party**, Leader first (in the picture the Leader stands at the right-hand end):\n"
                + "\n".join(rows) + f"\n{spell_line}\nTreasure: {found} — **{me.gold} gold**.{wounds}{reorder}")
        prompt = None
        if can_reorder:
            menus = [Menu([(e.label, e.command) for e in entries][:25], hint)
                     for entries, hint in ((view.front, "Put at the front (Leader)…"), (view.back, "Send to the back…"))
                     if entries]
            prompt = Prompt(users=[], text="", menus=menus)
        return Telling(text=text, pictures=[self.party(view, seat)], prompt=prompt)

    def narrator_card(self, view: LegendView) -> Telling | None:
        """The Narrator's private look at the card in hand: the card, and what it will do."""
        card_id = view.narrator_card
        if card_id is None or view.to_move is None:
            return None
        card = card_index()[card_id]
        explorer = view.fighters[view.to_move]
        fighter = fighter_index()[explorer.fighter_id]
        if view.expanded and card.kind in ("monster", "hazard"):
            effect = self._party_numbers(view, card_id)
        elif card.kind == "monster":
            assert card.dot is not None
            effect = (f"A fight. {fighter.name} needs **{card.needs[fighter.dot]}** or more on the d20 to kill the "
                      f"{card.title}; each miss, it strikes back needing **{fighter.defence[card.dot]}** to wound.")
        elif card.kind == "hazard":
            effect = (f"A hazard. {fighter.name} needs **{card.needs[fighter.dot]}** or more on the d20, or is "
                      f"wounded.")
        elif card.kind == "treasure":
            effect = f"Treasure worth **{card.gold} gold**, which {explorer.player} keeps."
        else:
            effect = "Sets the scene."
        after = {"end": "Then the room ends."}.get(card.next, f"Then the red arrow leads to a **{card.next}** card.")
        parts = [f"**{card.title}** ({card.kind})", card.text]
        if card.after:
            parts.append(f"*If overcome:* {card.after}")
        joiner = "\n" if "\n" in effect else " "  # the Expanded Game's list of heroes ends on its own line
        parts += [f"**What it does:** {effect}{joiner}{after}",
                  "Tell it in your own words with `/narrate text:` — Tabula then shows the card and rolls the dice."]
        return Telling(text="\n".join(parts), pictures=[self.card(card_id, view.mode)], prompt=None)

    def _party_numbers(self, view: LegendView, card_id: str) -> str:
        """What the Narrator needs for a fight in the Expanded Game: every hero's numbers against this card."""
        card = card_index()[card_id]
        assert view.to_move is not None
        explorer = view.fighters[view.to_move]
        rows = []
        for h in reversed(explorer.party):
            hero = hero_index()[h.id]
            line = f"{hero.name} the {CLASS_NAMES[hero.kind]}: needs **{need(card, hero)}**"
            if card.kind == "monster" and card.dot is not None:
                line += f", wounded on **{hero.defence[card.dot]}**+"
            rows.append(line + (" *(wounded, cannot lead)*" if h.wounded else ""))
        lead = hero_index()[explorer.leader] if explorer.leader else None
        first = f"{lead.name} leads" if lead else "Nobody is standing"
        if card.kind == "monster":
            assert card.dot is not None
            what = (f"A fight. {first}; each miss, the {card.title} strikes back. After each of its attacks the "
                    f"player may attack again, change Leader or retreat. Its red dot is under box "
                    f"**{BOXES[card.dot]}** (for spells: that box of the Spell card says whether it works).")
            if explorer.spell:
                spell = spell_index()[explorer.spell]
                works = "would work" if spell.works[card.dot] else "would have **no effect**"
                what += f" {explorer.player}'s {spell.name} {works} on it."
        else:
            what = f"A hazard. {first}; a failed roll wounds the Leader, and the party may try again or retreat."
        return what + "\n" + "\n".join(rows)


PRESENTER: Presenter[LegendView] = LegendPresenter()
