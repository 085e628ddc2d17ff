"""What happened, in words: turns a step's events into the lines posted in the game's thread.

Pure text (Discord markdown is fine, no mentions: the cogs ping players separately).  The same lines are
printed by the terminal runner.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rules.legend.board import board, room_label
from rules.legend.content import BOXES, card_index, fighter_index, hero_index, spell_index
from rules.legend.i18n import (
    ENDINGS,
    SKIP_REASONS,
    _,
    _n,
    _p,
    card_title,
    colour_name,
    hero_name,
    hero_title,
    kind_name,
    place,
    retell,
    run_on,
    spell_name,
)
from rules.legend.spec import MODE_INTROS
from rules.legend.state import (
    SOLO_WOUND_LIMIT,
    AwaitNarration,
    CardRead,
    DangerComing,
    Dealt,
    Entered,
    Exited,
    FightRoll,
    GameEnded,
    HeroRoll,
    HeroWounded,
    LeaderChanged,
    Moved,
    NoteAdded,
    NoteRead,
    Overcame,
    PartiesDealt,
    PartyRecovered,
    Placed,
    Recovered,
    Reordered,
    Reshuffled,
    Rested,
    Retreated,
    Rolled,
    RollOff,
    RoomExplored,
    RoomsDealt,
    Skipped,
    SpellCast,
    SpellLearned,
    TreasureTaken,
    Wounded,
)
from rules.legend.view import LegendView


def revealed_cards(events: Iterable[Any]) -> list[str]:
    """Ids of the cards read out in these events, in order (their images go with the message)."""
    return [e.card for e in events if isinstance(e, CardRead)]


def tell(view: LegendView, events: Iterable[Any]) -> list[str]:
    """One line (or paragraph) per event worth telling, in order, as everyone may read them (``view``: the
    public view after the events)."""
    index = card_index()
    names: dict[str, str] = {room: r.name for room, r in view.rooms.items() if r.name}
    plan = board()
    mode = view.mode

    def who(seat: int) -> str:
        return view.fighters[seat].player

    def fighter(seat: int) -> str:
        if mode == "expanded":
            return _("{player}'s party", player=view.fighters[seat].player)
        return hero_name(fighter_index()[view.fighters[seat].fighter_id].name)

    def hero(hero_id: str) -> str:
        return hero_title(hero_id)

    def named(hero_id: str) -> str:
        return hero_name(hero_index()[hero_id].name)

    def where(room: str) -> str:
        return room_label(room, names)

    events = list(events)
    entered = any(isinstance(e, Entered) for e in events)
    ended = any(isinstance(e, GameEnded) for e in events)
    lines: list[str] = []
    for e in events:
        if isinstance(e, RollOff):
            for n, rolled in enumerate(e.rounds):
                shown = _p("list", ", ").join(_("{player} {roll}", player=who(s), roll=r)
                                              for s, r in sorted(rolled.items()))
                if n == 0:
                    lines.append(_("🎲 Roll-off: {rolls}.", rolls=shown))
                else:
                    lines.append(_("🎲 Tie — roll again: {rolls}.", rolls=shown))
            lines.append(_("**{player}** rolled highest and goes first.", player=who(e.first)))
        elif isinstance(e, Dealt):
            order = " → ".join(who(s) for s in e.order)
            dealt = _p("list", "; ").join(
                _("{player}: **{fighter}** ({colour}, token {letter})", player=who(s),
                  fighter=hero_name(fighter_index()[f].name), colour=colour_name(e.colours[s]),
                  letter=view.fighters[s].letter)
                for s, f in sorted(e.fighters.items())
            )
            lines.append(_("Fighters dealt — {dealt}. Turn order: {order}.", dealt=dealt, order=order))
            lines += mode_intro(view)
        elif isinstance(e, RoomsDealt):
            lines.append(_("A face-down Room card lies on each of the {rooms} rooms; {left} are set aside unseen.",
                           rooms=e.rooms, left=e.left_over))
        elif isinstance(e, Recovered):
            lines.append(_("🩹 {fighter} is fit again: the wound has healed.", fighter=fighter(e.seat)))
        elif isinstance(e, Placed):
            ent = place(plan.entrances[e.doorway].name)
            if mode == "expanded":
                lines.append(_("{party} steps in by the {entrance} and stands at **{doorway}**.",
                               party=fighter(e.seat), entrance=ent, doorway=e.doorway))
            else:
                lines.append(_("{player}'s {fighter} steps in by the {entrance} and stands at **{doorway}**.",
                               player=who(e.seat), fighter=fighter(e.seat), entrance=ent, doorway=e.doorway))
        elif isinstance(e, Moved):
            if e.via_room is None:
                lines.append(_("{player} follows the corridor from {start} to **{end}**.", player=who(e.seat),
                               start=e.frm, end=e.to))
            elif not entered:
                lines.append(_("{player} crosses {room} from {start} to **{end}**.", player=who(e.seat),
                               room=where(e.via_room), start=e.frm, end=e.to))
        elif isinstance(e, Entered):
            if e.resumed:
                lines.append(_("🚪 {fighter} goes back into {room}, where danger was left waiting.",
                               fighter=fighter(e.seat), room=where(e.room)))
            else:
                lines.append(_("🚪 {fighter} enters {room} from {doorway}.", fighter=fighter(e.seat),
                               room=where(e.room), doorway=e.came_from))
        elif isinstance(e, AwaitNarration):
            lines.append(_("📜 **{player}** is the Narrator: a **{kind}** card is in hand.", player=who(e.narrator),
                           kind=kind_name(e.kind)))
        elif isinstance(e, CardRead):
            card = index[e.card]
            title, text = card_title(card.title), _(card.text)
            if e.again and e.narrator is None:
                lines.append(_("Left here from before, still waiting — **{card}**: {text}", card=title,
                               text=text.lstrip("…")))
                continue
            body = _("**{card}.** {text}", card=title, text=text) if card.kind == "room" else text
            if e.narrator is not None:
                if e.again:
                    lines.append(_("📜 *{player} tells it:* “{words}”\n> {kind}: **{card}** (left here from before, "
                                   "still waiting)", player=who(e.narrator), words=e.words, kind=kind_name(card.kind),
                                   card=title))
                else:
                    lines.append(_("📜 *{player} tells it:* “{words}”\n> {kind}: **{card}**",
                                   player=who(e.narrator), words=e.words, kind=kind_name(card.kind), card=title))
            elif e.auto:
                lines.append(_("⏳ The Narrator was away, so Tabula reads the card.\n{text}", text=body))
            else:
                _continue(lines, body)
        elif isinstance(e, FightRoll):
            card = index[e.card]
            title = card_title(card.title)
            if e.who == "fighter":
                if not e.success:
                    line = _("🎲 {fighter} rolls **{roll}** (needs {need}): not enough.", fighter=fighter(e.seat),
                             roll=e.roll, need=e.need)
                elif card.kind == "monster":
                    line = _("🎲 {fighter} rolls **{roll}** (needs {need}): hits the {card}!",
                             fighter=fighter(e.seat), roll=e.roll, need=e.need, card=title)
                else:
                    line = _("🎲 {fighter} rolls **{roll}** (needs {need}): gets past the {card}!",
                             fighter=fighter(e.seat), roll=e.roll, need=e.need, card=title)
                lines.append(line)
            else:
                many = agree(card.title, "one", "many") == "many"
                if e.success:
                    line = (_("🎲 The {card} strike back: **{roll}** (needs {need}): a hit!", card=title, roll=e.roll,
                              need=e.need) if many else
                            _("🎲 The {card} strikes back: **{roll}** (needs {need}): a hit!", card=title,
                              roll=e.roll, need=e.need))
                else:
                    line = (_("🎲 The {card} strike back: **{roll}** (needs {need}): a miss.", card=title,
                              roll=e.roll, need=e.need) if many else
                            _("🎲 The {card} strikes back: **{roll}** (needs {need}): a miss.", card=title,
                              roll=e.roll, need=e.need))
                lines.append(line)
        elif isinstance(e, Overcame):
            _continue(lines, _(index[e.card].after))
        elif isinstance(e, TreasureTaken):
            card = index[e.card]
            lines.append(_("💰 {player} keeps the **{card}** ({gold} gold).", player=who(e.seat),
                           card=card_title(card.title), gold=e.gold))
        elif isinstance(e, Wounded):
            card = index[e.card]
            tally = _(" Wounds: {wounds} of {limit}.", wounds=e.wounds, limit=SOLO_WOUND_LIMIT) \
                if mode == "solo" else ""
            left = "" if ended else _(" The {card} card stays in {room}, face down, for whoever comes next.",
                                      card=card_title(card.title), room=where(e.room))
            lines.append(_("🩸 {fighter} is wounded and falls back to **{doorway}**.{left}{tally}",
                           fighter=fighter(e.seat), doorway=e.back_to, left=left, tally=tally))
        elif isinstance(e, RoomExplored):
            lines.append(_("✅ {room} is fully explored.", room=_cap(where(e.room))))
        elif isinstance(e, Exited):
            lines.append(_("{player} leaves {room} by **{doorway}**.", player=who(e.seat), room=where(e.room),
                           doorway=e.to))
        elif isinstance(e, Reshuffled):
            lines.append(_("The {pile} pile was empty: its {n} discards are shuffled.", pile=kind_name(e.pile),
                           n=e.cards))
        elif isinstance(e, Skipped):
            lines.append(_("{player} cannot move ({reason}) and waits a turn.", player=who(e.seat),
                           reason=retell(e.reason, SKIP_REASONS)))
        elif isinstance(e, PartiesDealt):
            for seat, party in sorted(e.parties.items()):
                line_up = _p("list", ", ").join(hero(h) for h in party)
                lines.append(_("{player}'s party, left to right: {heroes} — **{leader}** leads.", player=who(seat),
                               heroes=line_up, leader=named(party[-1])))
            if e.dealt:
                laid = _p("list", "; ").join(_("{player}: {spell}", player=who(s), spell=spell_line(sp))
                                    for s, sp in sorted(e.dealt.items()))
                lines.append(_("Each Magic User lays one Spell card face up beside him — {spells}. The rest form the "
                               "Spell Pile, face down.", spells=laid))
            else:  # the log of a game from before spells were laid face up
                lines.append(_("Each Magic User takes one Spell card ({n} dealt); the rest form the Spell Pile.",
                               n=e.spells))
        elif isinstance(e, DangerComing):
            if e.waiting:
                lines.append(_("⚠️ The **{card}** left here still waits. Before it is turned up, {player} may change "
                               "Leader — {hero} is at the front.", card=card_title(index[e.waiting].title),
                               player=who(e.seat), hero=hero(e.leader)))
            else:
                lines.append(_("⚠️ The red arrow points at the **{kind}** pile. Before the card is drawn, {player} may "
                               "change Leader — {hero} is at the front.", kind=kind_name(e.kind), player=who(e.seat),
                               hero=hero(e.leader)))
        elif isinstance(e, LeaderChanged):
            lines.append(_("🔁 {hero} steps to the front; {was} drops back.", hero=hero(e.hero), was=named(e.was)))
        elif isinstance(e, HeroRoll):
            lines.append(_hero_roll(e, index[e.card].title, hero_index()[e.hero].name))
        elif isinstance(e, SpellCast):
            spell = spell_index()[e.spell]
            card = index[e.card]
            sname = spell_name(spell.name)
            if e.result == "success":
                lines.append(_("✨ **{spell}**: {text}", spell=sname, text=_(spell.text)))
            elif e.result == "no_effect":
                if agree(card.title, "one", "many") == "many":
                    line = _("✨ **{spell}** — *No Effect*: {text} The {card} are immune, and the spell card goes "
                             "back to the Spell Pile.", spell=sname, text=_(spell.fizzle),
                             card=card_title(card.title))
                else:
                    line = _("✨ **{spell}** — *No Effect*: {text} The {card} is immune, and the spell card goes "
                             "back to the Spell Pile.", spell=sname, text=_(spell.fizzle),
                             card=card_title(card.title))
                lines.append(line)
            else:
                lines.append(_("✨ **{spell}** fails: the words come out wrong. The spell card goes back to the "
                               "Spell Pile.", spell=sname))
        elif isinstance(e, HeroWounded):
            card = index[e.card]
            tally = _(" Party wounds: {wounds} of {limit}.", wounds=e.wounds, limit=SOLO_WOUND_LIMIT) \
                if len(view.fighters) == 1 else ""
            if e.leader is None:
                lines.append(_("🩸 {hero} is wounded — the last of the party still standing.{tally}", hero=hero(e.hero),
                               tally=tally))
            else:
                lines.append(_("🩸 {hero} is wounded by the {card}: the card turns over and drops to the back of the "
                               "row. A wounded hero cannot lead or fight until a Cleric heals them. **{leader}** now "
                               "leads.{tally}", hero=hero(e.hero), card=card_title(card.title),
                               leader=named(e.leader), tally=tally))
        elif isinstance(e, Retreated):
            card = index[e.card]
            if e.overwhelmed:
                lines.append(_("🛡️ Every hero of {player}'s party is wounded. They drag each other back to "
                               "**{doorway}**, and will spend their next turn recovering: then all five are fit "
                               "again. The {card} stays in {room}, face down.", player=who(e.seat),
                               doorway=e.back_to, card=card_title(card.title), room=where(e.room)))
            else:
                lines.append(_("🏃 {player}'s party retreats to **{doorway}**. The {card} stays in {room}, face down, "
                               "for whoever comes next.", player=who(e.seat), doorway=e.back_to,
                               card=card_title(card.title), room=where(e.room)))
        elif isinstance(e, Rested):
            parts = []
            if e.healer is not None and e.healed == [e.healer]:
                parts.append(_("{hero} tends the Cleric's own wounds first (a wounded Cleric can heal no one else)",
                               hero=hero(e.healer)))
            elif e.healer is not None:
                parts.append(_("{hero} heals {heroes}", hero=hero(e.healer),
                               heroes=_p("list", ", ").join(named(h) for h in e.healed)))
            if e.studying is not None:
                parts.append(_("{hero} pores over the spell books", hero=hero(e.studying)))
            lines.append(_("🕯️ {player}'s party rests a turn: {what}.", player=who(e.seat),
                           what=_p("list", "; ").join(parts)))
        elif isinstance(e, SpellLearned):
            if e.spell in spell_index():
                lines.append(_("📖 {hero} has learned a new spell: {spell}, face up beside him.",
                               hero=named(e.hero), spell=spell_line(e.spell)))
            else:
                lines.append(_("📖 {hero} has learned a new spell.", hero=named(e.hero)))
        elif isinstance(e, PartyRecovered):
            lines.append(_("🩹 {player}'s party spends the turn recovering: every hero is fit again.",
                           player=who(e.seat)))
        elif isinstance(e, Reordered):
            lines.append(_("{player} rearranges the party: {heroes} — {leader} leads.", player=who(e.seat),
                           heroes=_p("list", ", ").join(named(h) for h in e.heroes), leader=named(e.heroes[-1])))
        elif isinstance(e, Rolled):
            shown = " + ".join(f"[{_p('list', ', ').join(map(str, d))}]" for d in e.dice if d)
            lines.append(_("🎲 {player} rolls `{expr}`: {dice} → **{total}**", player=who(e.seat), expr=e.expr,
                           dice=shown, total=e.total))
        elif isinstance(e, NoteAdded):
            lines.append(_("📝 {player} pins a scene note to {room}: “{text}”", player=who(e.seat), room=where(e.room),
                           text=e.text))
        elif isinstance(e, NoteRead):
            lines.append(_("📝 *Scene note from {player}:* “{text}”", player=who(e.by), text=e.text))
        elif isinstance(e, GameEnded):
            lines.append(_("🏁 {reason}", reason=retell(e.reason, ENDINGS)))
    return [line for line in lines if line]


def mode_intro(view: LegendView) -> list[str]:
    """What a game of this mode adds to the game's intro when it starts (nothing for a plain starter game)."""
    solo = len(view.fighters) == 1
    key = {"expanded": "solo-expanded" if solo else "expanded", "solo": "solo"}.get(view.mode)
    out = [_(MODE_INTROS[key])] if key else []
    if view.narration == "players" and not solo:
        out.append(_(MODE_INTROS["players"]))
    return out


def _hero_roll(e: HeroRoll, title: str, name: str) -> str:
    many = agree(title, "one", "many") == "many"
    card, hero = card_title(title), hero_name(name)
    if e.who == "hero":
        if e.success:
            return _("🎲 {hero} rolls **{roll}** (needs {need}): gets the better of the {card}!", hero=hero,
                     roll=e.roll, need=e.need, card=card)
        return _("🎲 {hero} rolls **{roll}** (needs {need}): not enough.", hero=hero, roll=e.roll, need=e.need)
    if e.who == "spell":
        if e.success:
            return _("🎲 {hero} casts: **{roll}** (needs {need}): the spell takes shape.", hero=hero, roll=e.roll,
                     need=e.need)
        return _("🎲 {hero} casts: **{roll}** (needs {need}): the spell fails.", hero=hero, roll=e.roll, need=e.need)
    if e.success:
        if many:
            return _("🎲 The {card} strike back at {hero}: **{roll}** (needs {need}): {hero} is hit!", card=card,
                     hero=hero, roll=e.roll, need=e.need)
        return _("🎲 The {card} strikes back at {hero}: **{roll}** (needs {need}): {hero} is hit!", card=card,
                 hero=hero, roll=e.roll, need=e.need)
    if many:
        return _("🎲 The {card} strike back at {hero}: **{roll}** (needs {need}): a miss.", card=card, hero=hero,
                 roll=e.roll, need=e.need)
    return _("🎲 The {card} strikes back at {hero}: **{roll}** (needs {need}): a miss.", card=card, hero=hero,
             roll=e.roll, need=e.need)


def spell_line(spell_id: str) -> str:
    """A Spell card in a few words: "**Ice Storm** (roll 7+; no effect on boxes B, D)"."""
    spell = spell_index()[spell_id]
    immune = [BOXES[i] for i, ok in enumerate(spell.works) if not ok]
    if not immune:
        return _("**{spell}** (roll {roll}+)", spell=spell_name(spell.name), roll=spell.roll)
    return _n("**{spell}** (roll {roll}+; no effect on box {boxes})",
              "**{spell}** (roll {roll}+; no effect on boxes {boxes})", len(immune), spell=spell_name(spell.name),
              roll=spell.roll, boxes=_p("list", ", ").join(immune))


def agree(title: str, one: str, many: str) -> str:
    """The verb for a card's title: "the Troll strikes", "the Giant Rats strike", "the Closing Walls are"."""
    last = title.split()[-1] if title.split() else title
    return many if last.endswith("s") and not last.endswith("ss") else one


def _continue(lines: list[str], text: str) -> None:
    """Card texts chain: a card ending in "…" runs straight on into the next card's "…" opening."""
    if lines and lines[-1].endswith("…") and text.startswith("…"):
        lines[-1] = run_on(lines[-1], text[1:])
    else:
        lines.append(text)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _kind(kind: str) -> str:
    return kind_name(kind)


def final_report(view: LegendView) -> list[str]:
    """Each player's treasure and gold, richest first."""
    rows = []
    for p in sorted(view.fighters, key=lambda f: -f.gold):
        found = _p("list", ", ").join(_("{card} ({gold})", card=card_title(t.title), gold=t.gold) for t in p.treasure) \
            or _("nothing")
        extra = _n(" · {n} wound", " · {n} wounds", p.wounds) if view.mode == "solo" else ""
        rows.append(_("**{player}** — {gold} gold{wounds}: {found}", player=p.player, gold=p.gold, wounds=extra,
                      found=found))
    return rows
