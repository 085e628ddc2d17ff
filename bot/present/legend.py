"""Legend of Heroes shown to people: the story of each move, the board and cards, the prompt for whoever acts
next, and the private views — the fighter sheet, the party panel and the Narrator's card.

Reads only the moment: the game's typed views (``rules.legend.view.LegendView``), the events, and the legal
choices already named by the game's codec.  Card, hero and spell pictures are drawn from the game's content.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from bot.present.base import Button, Choice, Menu, Moment, Picture, Presenter, Prompt, Telling, game_title
from render import legend as legend_render
from rules.core import IllegalAction
from rules.legend.content import (
    BOXES,
    card_index,
    fighter_index,
    hero_index,
    need,
    spell_index,
)
from rules.legend.i18n import (
    KIND_NAMES,
    _,
    card_title,
    class_name,
    colour_name,
    comma,
    hero_name,
    kind_name,
    pile_word,
    run_on,
    semicolon,
    spell_name,
    summary,
)
from rules.legend.state import SOLO_WOUND_LIMIT, Entered, FightRoll, HeroRoll, SpellCast
from rules.legend.telling import agree, final_report, revealed_cards, tell
from rules.legend.view import ExplorationView, LegendView, TreasureView
from rules.spec import Command

LegendMoment = Moment[LegendView]


def _title(moment: LegendMoment) -> str:
    """The platform's title of the game (``game_title``) with the game's name in the current language."""
    title = game_title(moment)
    return title.replace(moment.spec.title, _(moment.spec.title), 1)


def _pick(choices: list[Choice], *verbs: str) -> list[tuple[str, Command]]:
    return [(c.label, c.command) for c in choices if c.command.verb in verbs]


class LegendPresenter:
    # --- pictures ---------------------------------------------------------------------------------

    def board(self, moment: LegendMoment, view: LegendView) -> Picture:
        return Picture("board.png", partial(legend_render.render_board, view, title=_title(moment)),
                       legend_render.board_alt_text(view)[:1000])

    def card(self, card_id: str, mode: str = "expanded") -> Picture:
        """An Action card as this mode prints it (the starter and solo games: the Fighter row alone)."""
        card = card_index()[card_id]
        fighter_only = mode != "expanded"
        shown = legend_render.fighter_row_only(card) if fighter_only else card
        return Picture(f"card-{card.id}.png", partial(legend_render.render_card, card, fighter_only=fighter_only),
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
            who = hero_name(name)
            if danger:
                text = (_("{hero} hits: {roll} (needs {need})", hero=who, roll=roll, need=need) if success else
                        _("{hero} misses: {roll} (needs {need})", hero=who, roll=roll, need=need))
            else:
                text = (_("{hero} gets past: {roll} (needs {need})", hero=who, roll=roll, need=need) if success
                        else _("{hero} fails: {roll} (needs {need})", hero=who, roll=roll, need=need))
            return text, success

        def its(roll: int, need: int, success: bool) -> tuple[str, bool]:
            """The danger's answer (at whoever just struck): good for the players when it misses."""
            title = card_title(card.title)
            if success:
                return _("{card} hits: {roll} (needs {need})", card=title, roll=roll, need=need), False
            return _("{card} misses: {roll} (needs {need})", card=title, roll=roll, need=need), True

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
                    lines.append((_("{hero} casts: {roll} (needs {need})", hero=hero_name(hero.name), roll=e.roll,
                                    need=e.need), e.success))
                else:
                    lines.append(its(e.roll, e.need, e.success))
        fighter_only = view.mode != "expanded"
        if not lines:
            return self.card(card_id, view.mode)
        png = partial(legend_render.render_card_result, card, boxes=boxes, lines=lines, fighter_only=fighter_only)
        shown = legend_render.fighter_row_only(card) if fighter_only else card
        alt = _("{card} Rolls: {rolls}.", card=legend_render.card_alt_text(shown),
                rolls=semicolon(text for text, _ok in lines))
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
        return Picture(f"fighter-{f.id}-{side}.png", partial(legend_render.render_fighter, f, wounded=wounded),
                       legend_render.fighter_alt_text(f, wounded=wounded)[:1000])

    def spell(self, spell_id: str) -> Picture:
        sp = spell_index()[spell_id]
        return Picture(f"spell-{sp.id}.png", partial(legend_render.render_spell, sp),
                       legend_render.spell_alt_text(sp)[:1000])

    def party(self, view: LegendView, seat: int) -> Picture:
        """The Party laid out in a row, Leader at the right, the Magic User's spell face up beside him."""
        party = view.party_of(seat)
        return Picture(f"party-{seat}.png", partial(legend_render.render_party, party),
                       legend_render.party_alt_text(party)[:1000])

    def warm(self) -> int:
        """Draw every static picture once (``render.legend.warm``), so no player waits for them."""
        return legend_render.warm()

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
            lines.append(_("**Final treasure**\n{rows}", rows="\n".join(final_report(view))))
            lines.append(_("🏆 {summary}", summary=summary(moment.outcome.summary)))
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
                          text=_("you are the Narrator for {player}: look at the card with `/narrate` (only you "
                                 "see it), then tell it with `/narrate text:` — or let Tabula read it.",
                                 player=explorer),
                          buttons=[Button(_("Read the card"), view="card", style="primary", emoji="📜"),
                                   Button(_("Let Tabula read it"), command=auto, emoji="🤖")])
        seat = view.to_move
        choices = moment.choices(seat)
        moves = _pick(choices, "explore")[:25]
        rest = _pick(choices, "study", "heal")
        resting = view.rest is not None and bool(rest)
        if view.phase == "place":
            ask = _("choose your starting doorway beside an entrance")
        elif not resting or view.rest is None:
            ask = _("your move: pick a doorway (or type `/explore to:`)")
        elif view.rest.healed and view.rest.studying:
            ask = _("your move: pick a doorway (or type `/explore to:`), or rest a turn to heal and study "
                    "(`/study`, `/heal`)")
        elif view.rest.healed:
            ask = _("your move: pick a doorway (or type `/explore to:`), or rest a turn to heal (`/study`, `/heal`)")
        else:
            ask = _("your move: pick a doorway (or type `/explore to:`), or rest a turn to study (`/study`, `/heal`)")
        prompt = Prompt(users=[moment.user_of(seat)], text=ask,
                        menus=[Menu(moves, _("Choose where to go…"))] if moves else [])
        if resting:
            label, command = rest[0]
            prompt.buttons.append(Button(label, command=command))
        return prompt

    def _decision_prompt(self, moment: LegendMoment, view: LegendView, ex: ExplorationView) -> Prompt:
        """Expanded Game: keep or change the Leader; attack, cast or retreat."""
        seat = ex.explorer
        me = view.fighters[seat]
        lead_name = hero_name(hero_index()[me.leader].name) if me.leader else _("nobody")
        choices = moment.choices(seat)
        others = _pick(choices, "lead")
        menus = [Menu(others, _("Change the Leader to…"))] if others else []
        user = [moment.user_of(seat)]
        if ex.decision == "leader":
            keep = [Button(label, command=command, style="primary") for label, command in _pick(choices, "keep")]
            if ex.waiting is not None:  # the danger left face down on the room
                text = _("the **{card}** left here will be turned up. Keep **{leader}** in front, or choose a new "
                         "Leader first.", card=card_title(card_index()[ex.waiting].title), leader=lead_name)
            elif ex.coming in KIND_NAMES:
                text = _("a **{kind}** card is coming. Keep **{leader}** in front, or choose a new Leader first.",
                         kind=kind_name(ex.coming), leader=lead_name)
            else:
                text = _("a **Danger** card is coming. Keep **{leader}** in front, or choose a new Leader first.",
                         leader=lead_name)
            return Prompt(users=user, text=text, menus=menus, buttons=keep)
        english = card_index()[ex.danger].title if ex.danger else "danger"
        danger = card_title(english) if ex.danger else _("danger")
        hazard = ex.danger is not None and card_index()[ex.danger].kind == "hazard"
        buttons = [Button(label, command=command, style="danger") for label, command in _pick(choices, "attack")]
        buttons += [Button(label, command=command, style="primary") for label, command in _pick(choices, "cast")]
        if ex.decision == "strike":
            return Prompt(users=user, text=_("{leader} faces the {card} with a spell in hand: attack, or cast "
                                             "(`/attack`, `/cast`). Check the spell's box for the monster's red dot "
                                             "first — `/party` shows your spell card.", leader=lead_name,
                                             card=danger), buttons=buttons)
        buttons += [Button(label, command=command) for label, command in _pick(choices, "retreat")]
        many = agree(english, "one", "many") == "many"
        if hazard:
            text = (_("the {card} are still there. Face it again with **{leader}**, change the Leader, or retreat to "
                      "the doorway you came in by.", card=danger, leader=lead_name) if many else
                    _("the {card} is still there. Face it again with **{leader}**, change the Leader, or retreat to "
                      "the doorway you came in by.", card=danger, leader=lead_name))
        else:
            text = (_("the {card} are still there. Attack again with **{leader}**, change the Leader, or retreat to "
                      "the doorway you came in by.", card=danger, leader=lead_name) if many else
                    _("the {card} is still there. Attack again with **{leader}**, change the Leader, or retreat to "
                      "the doorway you came in by.", card=danger, leader=lead_name))
        return Prompt(users=user, text=text, menus=menus, buttons=buttons)

    def status(self, moment: LegendMoment) -> Telling:
        view = moment.view()
        rows = []
        for f in view.fighters:
            if f.doorway:
                where = _("at {doorway}", doorway=f.doorway)
            elif f.in_room:
                where = _("exploring room {room}", room=f.in_room)
            else:
                where = _("not in the dungeon yet")
            hurt = _(" · wounded") if f.wounded and not view.expanded else ""
            if view.expanded:
                down = sum(1 for h in f.party if h.wounded)
                hurt = _(" · led by {hero}", hero=hero_name(f.fighter))
                hurt += _(" · {n} of 5 wounded", n=down) if down else ""
                hurt += _(" · spell {spell}", spell=spell_name(spell_index()[f.spell].name)) if f.spell \
                    else _(" · no spell")
            wounds = _(" · {n} of {limit} wounds", n=f.wounds, limit=SOLO_WOUND_LIMIT) if len(view.fighters) == 1 \
                else ""
            rows.append(_("{letter} **{player}** ({colour}, {fighter}) {where}{hurt}{wounds} — {gold} gold",
                          letter=f.letter, player=f.player, colour=colour_name(f.colour), fighter=hero_name(f.fighter),
                          where=where, hurt=hurt, wounds=wounds, gold=f.gold))
        head = view.caption
        if moment.status == "abandoned":
            head = _("This game was abandoned.")
        text = _("**{title}** — {head}", title=_title(moment), head=head) + "\n" + "\n".join(rows)
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
                raise IllegalAction(_("Parties belong to the Expanded Game of Legend of Heroes. `/sheet` shows what "
                                      "you have in this game."))
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
            return _("Tabula narrates this game, so you have no card to read. (In a game started with "
                     "`narration:players`, the player before the explorer tells each room.)")
        if view.phase == "over":
            return _("This game has ended: there is no card to read.")
        narrator = view.narrator
        ex = view.exploring
        if ex is None or narrator is None or view.phase != "explore":
            return _("You have no card to read: no room is being explored. When someone enters a room, the player "
                     "before them narrates it.")
        if narrator != seat:
            return _("You have no card to read: {player} is the Narrator for this room, and only they see it.",
                     player=view.fighters[narrator].player)
        explorer = view.fighters[ex.explorer].player
        return _("You have no card to read yet: {player} is choosing what the party does first.", player=explorer)

    def sheet(self, view: LegendView, seat: int) -> Telling:
        me = view.fighters[seat]
        fighter = fighter_index()[me.fighter_id]
        found = _treasure(me.treasure)
        side = _("wounded (healed when their next turn starts)") if me.wounded else _("ready")
        wounds = "\n" + _("Wounds: {n} of {limit}", n=me.wounds, limit=SOLO_WOUND_LIMIT) if view.mode == "solo" \
            else ""
        text = (_("**{fighter}** — {player}'s fighter ({colour} token {letter}), {side}.",
                  fighter=hero_name(fighter.name), player=me.player, colour=colour_name(me.colour), letter=me.letter,
                  side=side) + wounds + "\n"
                + _("Treasure: {found} — **{gold} gold**.", found=found, gold=me.gold) + "\n"
                + _("Red dot under box **{box}**: that box on a Monster or Hazard card is the roll needed on the d20. "
                    "The numbers on the fighter card are what monsters must roll to wound.", box=BOXES[fighter.dot]))
        return Telling(text=text, pictures=[self.fighter(me.fighter_id, wounded=me.wounded)], prompt=None)

    def party_sheet(self, moment: LegendMoment, view: LegendView, seat: int) -> Telling:
        """`/party` and `/sheet` in the Expanded Game: the owner's look at the Party and its spell, with
        menus to put a hero at the front or the back when the party may be rearranged now."""
        me = view.fighters[seat]
        rows = []
        for i, h in enumerate(reversed(me.party)):
            hero = hero_index()[h.id]
            mark = _("🩸 wounded") if h.wounded else _("ready")
            crown = "👑 " if i == 0 and not h.wounded else ""
            rows.append(crown + _("**{hero}** the {kind} — red dot under box **{box}**, {state}",
                                  hero=hero_name(hero.name), kind=class_name(hero.kind), box=BOXES[hero.dot],
                                  state=mark))
        spell = spell_index()[view.spell] if view.spell else None
        if spell is not None:
            immune = [BOXES[i] for i, ok in enumerate(spell.works) if not ok]
            spell_line = (_("Spell: **{spell}** — roll {roll}+; monsters whose red dot is under box {boxes} are "
                            "immune.", spell=spell_name(spell.name), roll=spell.roll,
                            boxes=comma(immune))
                          if immune else
                          _("Spell: **{spell}** — roll {roll}+; no monster is immune.", spell=spell_name(spell.name),
                            roll=spell.roll))
        else:
            spell_line = _("Spell: none — your Magic User can learn one with `/study` (it costs a turn).")
        found = _treasure(me.treasure)
        wounds = "\n" + _("Party wounds: {n} of {limit}", n=me.wounds, limit=SOLO_WOUND_LIMIT) \
            if len(view.fighters) == 1 else ""
        reorder = ""
        can_reorder = moment.status == "active" and bool(view.front or view.back)
        if can_reorder:
            reorder = "\n" + _("Choose below who leads or who drops to the back (in the terminal: `/front hero:` or "
                               "`/back hero:`).")
        if me.party and all(h.wounded for h in me.party):
            reorder += "\n" + _("Every hero is wounded: nobody can lead until the party has recovered.")
        text = (_("**{player}'s party**, Leader first (in the picture the Leader stands at the right-hand end):",
                  player=me.player) + "\n"
                + "\n".join(rows) + "\n" + spell_line + "\n"
                + _("Treasure: {found} — **{gold} gold**.", found=found, gold=me.gold) + wounds + reorder)
        prompt = None
        if can_reorder:
            menus = [Menu([(e.label, e.command) for e in entries][:25], hint)
                     for entries, hint in ((view.front, _("Put at the front (Leader)…")),
                                           (view.back, _("Send to the back…")))
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
        title, who = card_title(card.title), hero_name(fighter.name)
        if view.expanded and card.kind in ("monster", "hazard"):
            effect = self._party_numbers(view, card_id)
        elif card.kind == "monster":
            assert card.dot is not None
            effect = _("A fight. {fighter} needs **{need}** or more on the d20 to kill the {card}; each miss, it "
                       "strikes back needing **{strike}** to wound.", fighter=who, need=card.needs[fighter.dot],
                       card=title, strike=fighter.defence[card.dot])
        elif card.kind == "hazard":
            effect = _("A hazard. {fighter} needs **{need}** or more on the d20, or is wounded.", fighter=who,
                       need=card.needs[fighter.dot])
        elif card.kind == "treasure":
            effect = _("Treasure worth **{gold} gold**, which {player} keeps.", gold=card.gold,
                       player=explorer.player)
        else:
            effect = _("Sets the scene.")
        if card.next == "end":
            after = _("Then the room ends.")
        else:
            after = _("Then the red arrow leads to a **{kind}** card.", kind=pile_word(card.next))
        parts = [_("**{card}** ({kind})", card=title, kind=pile_word(card.kind)), _(card.text)]
        if card.after:
            parts.append(_("*If overcome:* {text}", text=_(card.after)))
        said = _("**What it does:** {effect}", effect=effect)
        # the Expanded Game's list of heroes ends on its own line; else the next sentence runs on (no space in ja)
        parts += [said + "\n" + after if "\n" in effect else run_on(said, after),
                  _("Tell it in your own words with `/narrate text:` — Tabula then shows the card and rolls the "
                    "dice.")]
        return Telling(text="\n".join(parts), pictures=[self.card(card_id, view.mode)], prompt=None)

    def _party_numbers(self, view: LegendView, card_id: str) -> str:
        """What the Narrator needs for a fight in the Expanded Game: every hero's numbers against this card."""
        card = card_index()[card_id]
        assert view.to_move is not None
        explorer = view.fighters[view.to_move]
        rows = []
        for h in reversed(explorer.party):
            hero = hero_index()[h.id]
            named = {"hero": hero_name(hero.name), "kind": class_name(hero.kind), "need": need(card, hero)}
            if card.kind == "monster" and card.dot is not None:
                line = _("{hero} the {kind}: needs **{need}**, wounded on **{strike}**+",
                         strike=hero.defence[card.dot], **named)
            else:
                line = _("{hero} the {kind}: needs **{need}**", **named)
            rows.append(line + (_(" *(wounded, cannot lead)*") if h.wounded else ""))
        lead = hero_index()[explorer.leader] if explorer.leader else None
        first = _("{hero} leads", hero=hero_name(lead.name)) if lead else _("Nobody is standing")
        if card.kind == "monster":
            assert card.dot is not None
            what = _("A fight. {first}; each miss, the {card} strikes back. After each of its attacks the player may "
                     "attack again, change Leader or retreat. Its red dot is under box **{box}** (for spells: that "
                     "box of the Spell card says whether it works).", first=first, card=card_title(card.title),
                     box=BOXES[card.dot])
            if explorer.spell:
                spell = spell_index()[explorer.spell]
                if spell.works[card.dot]:
                    what = run_on(what, _("{player}'s {spell} would work on it.", player=explorer.player,
                                          spell=spell_name(spell.name)))
                else:
                    what = run_on(what, _("{player}'s {spell} would have **no effect** on it.",
                                          player=explorer.player, spell=spell_name(spell.name)))
        else:
            what = _("A hazard. {first}; a failed roll wounds the Leader, and the party may try again or retreat.",
                     first=first)
        return what + "\n" + "\n".join(rows)


def _treasure(found: Sequence[TreasureView]) -> str:
    """"Golden Crown (50), Silver Cup (10)" — or "nothing yet"."""
    return comma(_("{card} ({gold})", card=card_title(t.title), gold=t.gold) for t in found) \
        or _("nothing yet")


PRESENTER: Presenter[LegendView] = LegendPresenter()
