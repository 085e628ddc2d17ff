"""What happened, in words: turns a step's events into the lines posted in the game's thread.

Pure text (Discord markdown is fine, no mentions: the cogs ping players separately).  The same lines are
printed by the terminal runner.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rules.legend.board import board, room_label
from rules.legend.content import BOXES, CLASS_NAMES, card_index, fighter_index, hero_index, spell_index
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

KIND_NAMES = {"room": "Room", "feature": "Feature", "monster": "Monster", "hazard": "Hazard",
              "treasure": "Treasure"}


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
            return f"{view.fighters[seat].player}'s party"
        return fighter_index()[view.fighters[seat].fighter_id].name

    def hero(hero_id: str) -> str:
        h = hero_index()[hero_id]
        return f"{h.name} the {CLASS_NAMES[h.kind]}"

    events = list(events)
    entered = any(isinstance(e, Entered) for e in events)
    ended = any(isinstance(e, GameEnded) for e in events)
    lines: list[str] = []
    for e in events:
        if isinstance(e, RollOff):
            for n, rolled in enumerate(e.rounds):
                shown = ", ".join(f"{who(s)} {r}" for s, r in sorted(rolled.items()))
                prefix = "🎲 Roll-off" if n == 0 else "🎲 Tie — roll again"
                lines.append(f"{prefix}: {shown}.")
            lines.append(f"**{who(e.first)}** rolled highest and goes first.")
        elif isinstance(e, Dealt):
            order = " → ".join(who(s) for s in e.order)
            dealt = "; ".join(
                f"{who(s)}: **{fighter_index()[f].name}** ({e.colours[s]}, token "
                f"{view.fighters[s].letter})" for s, f in sorted(e.fighters.items())
            )
            lines.append(f"Fighters dealt — {dealt}. Turn order: {order}.")
            lines += mode_intro(view)
        elif isinstance(e, RoomsDealt):
            lines.append(f"A face-down Room card lies on each of the {e.rooms} rooms; "
                         f"{e.left_over} are set aside unseen.")
        elif isinstance(e, Recovered):
            lines.append(f"🩹 {fighter(e.seat)} is fit again: the wound has healed.")
        elif isinstance(e, Placed):
            ent = plan.entrances[e.doorway]
            mover = fighter(e.seat) if mode == "expanded" else f"{who(e.seat)}'s {fighter(e.seat)}"
            lines.append(f"{mover} steps in by the {ent.name} and stands at **{e.doorway}**.")
        elif isinstance(e, Moved):
            if e.via_room is None:
                lines.append(f"{who(e.seat)} follows the corridor from {e.frm} to **{e.to}**.")
            elif not entered:
                lines.append(f"{who(e.seat)} crosses {room_label(e.via_room, names)} from {e.frm} to **{e.to}**.")
        elif isinstance(e, Entered):
            where = room_label(e.room, names)
            if e.resumed:
                lines.append(f"🚪 {fighter(e.seat)} goes back into {where}, where danger was left waiting.")
            else:
                lines.append(f"🚪 {fighter(e.seat)} enters {where} from {e.came_from}.")
        elif isinstance(e, AwaitNarration):
            lines.append(f"📜 **{who(e.narrator)}** is the Narrator: a **{KIND_NAMES[e.kind]}** card is in hand.")
        elif isinstance(e, CardRead):
            card = index[e.card]
            if e.again and e.narrator is None:
                lines.append(f"Left here from before, still waiting — **{card.title}**: {card.text.lstrip('…')}")
                continue
            body = f"**{card.title}.** {card.text}" if card.kind == "room" else card.text
            if e.narrator is not None:
                before = " (left here from before, still waiting)" if e.again else ""
                lines.append(f"📜 *{who(e.narrator)} tells it:* “{e.words}”\n> {_kind(card.kind)}: "
                             f"**{card.title}**{before}")
            elif e.auto:
                lines.append(f"⏳ The Narrator was away, so Tabula reads the card.\n{body}")
            else:
                _continue(lines, body)
        elif isinstance(e, FightRoll):
            card = index[e.card]
            if e.who == "fighter":
                verb = "hits" if card.kind == "monster" else "gets past"
                result = f"{verb} the {card.title}!" if e.success else "not enough."
                lines.append(f"🎲 {fighter(e.seat)} rolls **{e.roll}** (needs {e.need}): {result}")
            else:
                result = "a hit!" if e.success else "a miss."
                lines.append(f"🎲 The {card.title} {agree(card.title, 'strikes', 'strike')} back: **{e.roll}** "
                             f"(needs {e.need}): {result}")
        elif isinstance(e, Overcame):
            _continue(lines, index[e.card].after)
        elif isinstance(e, TreasureTaken):
            card = index[e.card]
            lines.append(f"💰 {who(e.seat)} keeps the **{card.title}** ({e.gold} gold).")
        elif isinstance(e, Wounded):
            card = index[e.card]
            tally = f" Wounds: {e.wounds} of {SOLO_WOUND_LIMIT}." if mode == "solo" else ""
            left = "" if ended else (f" The {card.title} card stays in {room_label(e.room, names)}, face down, "
                                     "for whoever comes next.")
            lines.append(f"🩸 {fighter(e.seat)} is wounded and falls back to **{e.back_to}**.{left}{tally}")
        elif isinstance(e, RoomExplored):
            lines.append(f"✅ {_cap(room_label(e.room, names))} is fully explored.")
        elif isinstance(e, Exited):
            lines.append(f"{who(e.seat)} leaves {room_label(e.room, names)} by **{e.to}**.")
        elif isinstance(e, Reshuffled):
            lines.append(f"The {KIND_NAMES.get(e.pile, e.pile)} pile was empty: its {e.cards} discards are shuffled.")
        elif isinstance(e, Skipped):
            lines.append(f"{who(e.seat)} cannot move ({e.reason}) and waits a turn.")
        elif isinstance(e, PartiesDealt):
            for seat, party in sorted(e.parties.items()):
                line_up = ", ".join(hero(h) for h in party)
                lines.append(f"{who(seat)}'s party, left to right: {line_up} — **{hero_index()[party[-1]].name}** "
                             "leads.")
            if e.dealt:
                laid = "; ".join(f"{who(s)}: {spell_line(sp)}" for s, sp in sorted(e.dealt.items()))
                lines.append(f"Each Magic User lays one Spell card face up beside him — {laid}. The rest form the "
                             "Spell Pile, face down.")
            else:  # the log of a game from before spells were laid face up
                lines.append(f"Each Magic User takes one Spell card ({e.spells} dealt); the rest form the Spell "
                             "Pile.")
        elif isinstance(e, DangerComing):
            kind = KIND_NAMES[e.kind]
            if e.waiting:
                lines.append(f"⚠️ The **{index[e.waiting].title}** left here still waits. Before it is turned up, "
                             f"{who(e.seat)} may change Leader — {hero(e.leader)} is at the front.")
            else:
                lines.append(f"⚠️ The red arrow points at the **{kind}** pile. Before the card is drawn, "
                             f"{who(e.seat)} may change Leader — {hero(e.leader)} is at the front.")
        elif isinstance(e, LeaderChanged):
            lines.append(f"🔁 {hero(e.hero)} steps to the front; {hero_index()[e.was].name} drops back.")
        elif isinstance(e, HeroRoll):
            lines.append(_hero_roll(e, index[e.card].title, hero_index()[e.hero].name))
        elif isinstance(e, SpellCast):
            spell = spell_index()[e.spell]
            card = index[e.card]
            if e.result == "success":
                lines.append(f"✨ **{spell.name}**: {spell.text}")
            elif e.result == "no_effect":
                immune = agree(card.title, "is", "are")
                lines.append(f"✨ **{spell.name}** — *No Effect*: {spell.fizzle} The {card.title} {immune} immune, "
                             "and the spell card goes back to the Spell Pile.")
            else:
                lines.append(f"✨ **{spell.name}** fails: the words come out wrong. The spell card goes back to the "
                             "Spell Pile.")
        elif isinstance(e, HeroWounded):
            card = index[e.card]
            tally = f" Party wounds: {e.wounds} of {SOLO_WOUND_LIMIT}." if len(view.fighters) == 1 else ""
            if e.leader is None:
                lines.append(f"🩸 {hero(e.hero)} is wounded — the last of the party still standing.{tally}")
            else:
                lines.append(f"🩸 {hero(e.hero)} is wounded by the {card.title}: the card turns over and drops "
                             f"to the back of the row. A wounded hero cannot lead or fight until a Cleric heals them. "
                             f"**{hero_index()[e.leader].name}** now leads.{tally}")
        elif isinstance(e, Retreated):
            card = index[e.card]
            where = room_label(e.room, names)
            if e.overwhelmed:
                lines.append(f"🛡️ Every hero of {who(e.seat)}'s party is wounded. They drag each other back to "
                             f"**{e.back_to}**, and will spend their next turn recovering: then all five are fit "
                             f"again. The {card.title} stays in {where}, face down.")
            else:
                lines.append(f"🏃 {who(e.seat)}'s party retreats to **{e.back_to}**. The {card.title} stays in "
                             f"{where}, face down, for whoever comes next.")
        elif isinstance(e, Rested):
            parts = []
            if e.healer is not None and e.healed == [e.healer]:
                parts.append(f"{hero(e.healer)} tends the Cleric's own wounds first (a wounded Cleric can heal "
                             "no one else)")
            elif e.healer is not None:
                parts.append(f"{hero(e.healer)} heals " + ", ".join(hero_index()[h].name for h in e.healed))
            if e.studying is not None:
                parts.append(f"{hero(e.studying)} pores over the spell books")
            lines.append(f"🕯️ {who(e.seat)}'s party rests a turn: " + "; ".join(parts) + ".")
        elif isinstance(e, SpellLearned):
            learned = f": {spell_line(e.spell)}, face up beside him" if e.spell in spell_index() else ""
            lines.append(f"📖 {hero_index()[e.hero].name} has learned a new spell{learned}.")
        elif isinstance(e, PartyRecovered):
            lines.append(f"🩹 {who(e.seat)}'s party spends the turn recovering: every hero is fit again.")
        elif isinstance(e, Reordered):
            lines.append(f"{who(e.seat)} rearranges the party: " + ", ".join(hero_index()[h].name for h in e.heroes)
                         + f" — {hero_index()[e.heroes[-1]].name} leads.")
        elif isinstance(e, Rolled):
            shown = " + ".join(f"[{', '.join(map(str, d))}]" for d in e.dice if d)
            lines.append(f"🎲 {who(e.seat)} rolls `{e.expr}`: {shown} → **{e.total}**")
        elif isinstance(e, NoteAdded):
            lines.append(f"📝 {who(e.seat)} pins a scene note to {room_label(e.room, names)}: “{e.text}”")
        elif isinstance(e, NoteRead):
            lines.append(f"📝 *Scene note from {who(e.by)}:* “{e.text}”")
        elif isinstance(e, GameEnded):
            lines.append(f"🏁 {e.reason}")
    return [line for line in lines if line]


def mode_intro(view: LegendView) -> list[str]:
    """What a game of this mode adds to the game's intro when it starts (nothing for a plain starter game)."""
    solo = len(view.fighters) == 1
    key = {"expanded": "solo-expanded" if solo else "expanded", "solo": "solo"}.get(view.mode)
    out = [MODE_INTROS[key]] if key else []
    if view.narration == "players" and not solo:
        out.append(MODE_INTROS["players"])
    return out


def _hero_roll(e: HeroRoll, title: str, name: str) -> str:
    if e.who == "hero":
        result = f"gets the better of the {title}!" if e.success else "not enough."
        return f"🎲 {name} rolls **{e.roll}** (needs {e.need}): {result}"
    if e.who == "spell":
        result = "the spell takes shape." if e.success else "the spell fails."
        return f"🎲 {name} casts: **{e.roll}** (needs {e.need}): {result}"
    result = f"{name} is hit!" if e.success else "a miss."
    return f"🎲 The {title} {agree(title, 'strikes', 'strike')} back at {name}: **{e.roll}** (needs {e.need}): {result}"


def spell_line(spell_id: str) -> str:
    """A Spell card in a few words: "**Ice Storm** (roll 7+; no effect on boxes B, D)"."""
    spell = spell_index()[spell_id]
    immune = [BOXES[i] for i, ok in enumerate(spell.works) if not ok]
    boxes = f"; no effect on box{'es' if len(immune) > 1 else ''} {', '.join(immune)}" if immune else ""
    return f"**{spell.name}** (roll {spell.roll}+{boxes})"


def agree(title: str, one: str, many: str) -> str:
    """The verb for a card's title: "the Troll strikes", "the Giant Rats strike", "the Closing Walls are"."""
    last = title.split()[-1] if title.split() else title
    return many if last.endswith("s") and not last.endswith("ss") else one


def _continue(lines: list[str], text: str) -> None:
    """Card texts chain: a card ending in "…" runs straight on into the next card's "…" opening."""
    if lines and lines[-1].endswith("…") and text.startswith("…"):
        lines[-1] = lines[-1] + " " + text[1:]
    else:
        lines.append(text)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _kind(kind: str) -> str:
    return KIND_NAMES.get(kind, kind)


def final_report(view: LegendView) -> list[str]:
    """Each player's treasure and gold, richest first."""
    rows = []
    for p in sorted(view.fighters, key=lambda f: -f.gold):
        found = ", ".join(f"{t.title} ({t.gold})" for t in p.treasure) or "nothing"
        extra = f" · {p.wounds} wound{'' if p.wounds == 1 else 's'}" if view.mode == "solo" else ""
        rows.append(f"**{p.player}** — {p.gold} gold{extra}: {found}")
    return rows
