"""What happened, in words: turns a step's events into the lines posted in the game's thread.

Pure text (Discord markdown is fine, no mentions: the cogs ping players separately).  The same lines are
printed by the terminal runner.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from rules.legend.board import Board, board, room_label
from rules.legend.content import BOXES, ActionCard, card_index, fighter_index, hero_index, spell_index
from rules.legend.i18n import (
    ENDINGS,
    SKIP_REASONS,
    _,
    _n,
    card_title,
    colour_name,
    comma,
    hero_name,
    hero_title,
    kind_name,
    place,
    retell,
    run_on,
    semicolon,
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
    Shuffled,
    Skipped,
    SpellCast,
    SpellLearned,
    TreasureTaken,
    TurnBegan,
    Wounded,
)
from rules.legend.view import LegendView
from rules.telling import Teller, by_event, silent, tell_each


def revealed_cards(events: Iterable[Any]) -> list[str]:
    """Ids of the cards read out in these events, in order (their images go with the message)."""
    return [e.card for e in events if isinstance(e, CardRead)]


@dataclass(slots=True)
class Scene:
    """One telling: the public view after the step, the step's events, the lines told so far, and the names
    every line writes (players, fighters or parties, heroes, rooms)."""

    view: LegendView
    events: list[Any]
    lines: list[str] = field(default_factory=list)
    index: dict[str, ActionCard] = field(default_factory=card_index)
    plan: Board = field(default_factory=board)

    @property
    def mode(self) -> str:
        return self.view.mode

    def add(self, line: str) -> None:
        self.lines.append(line)

    def who(self, seat: int) -> str:
        return self.view.fighters[seat].player

    def fighter(self, seat: int) -> str:
        if self.mode == "expanded":
            return _("{player}'s party", player=self.view.fighters[seat].player)
        return hero_name(fighter_index()[self.view.fighters[seat].fighter_id].name)

    def where(self, room: str) -> str:
        names = {r: v.name for r, v in self.view.rooms.items() if v.name}
        return room_label(room, names)

    def title(self, card: str) -> str:
        return card_title(self.index[card].title)

    def happened(self, kind: type) -> bool:
        return any(isinstance(e, kind) for e in self.events)


def named(hero_id: str) -> str:
    return hero_name(hero_index()[hero_id].name)


def tell(view: LegendView, events: Iterable[Any]) -> list[str]:
    """One line (or paragraph) per event worth telling, in order, as everyone may read them (``view``: the
    public view after the events)."""
    scene = Scene(view, list(events))
    tell_each(TELLERS, scene, scene.events)
    return [line for line in scene.lines if line]


# --- one function per event -------------------------------------------------------------------------


def roll_off(scene: Scene, e: RollOff) -> None:
    for n, rolled in enumerate(e.rounds):
        shown = comma(_("{player} {roll}", player=scene.who(s), roll=r) for s, r in sorted(rolled.items()))
        if n == 0:
            scene.add(_("🎲 Roll-off: {rolls}.", rolls=shown))
        else:
            scene.add(_("🎲 Tie — roll again: {rolls}.", rolls=shown))
    scene.add(_("**{player}** rolled highest and goes first.", player=scene.who(e.first)))


def dealt(scene: Scene, e: Dealt) -> None:
    order = " → ".join(scene.who(s) for s in e.order)
    fighters = semicolon(
        _("{player}: **{fighter}** ({colour}, token {letter})", player=scene.who(s),
          fighter=hero_name(fighter_index()[f].name), colour=colour_name(e.colours[s]),
          letter=scene.view.fighters[s].letter)
        for s, f in sorted(e.fighters.items())
    )
    scene.add(_("Fighters dealt — {dealt}. Turn order: {order}.", dealt=fighters, order=order))
    scene.lines += mode_intro(scene.view)


def rooms_dealt(scene: Scene, e: RoomsDealt) -> None:
    scene.add(_("A face-down Room card lies on each of the {rooms} rooms; {left} are set aside unseen.",
                rooms=e.rooms, left=e.left_over))


def recovered(scene: Scene, e: Recovered) -> None:
    scene.add(_("🩹 {fighter} is fit again: the wound has healed.", fighter=scene.fighter(e.seat)))


def placed(scene: Scene, e: Placed) -> None:
    ent = place(scene.plan.entrances[e.doorway].name)
    if scene.mode == "expanded":
        scene.add(_("{party} steps in by the {entrance} and stands at **{doorway}**.", party=scene.fighter(e.seat),
                    entrance=ent, doorway=e.doorway))
    else:
        scene.add(_("{player}'s {fighter} steps in by the {entrance} and stands at **{doorway}**.",
                    player=scene.who(e.seat), fighter=scene.fighter(e.seat), entrance=ent, doorway=e.doorway))


def moved(scene: Scene, e: Moved) -> None:
    if e.via_room is None:
        scene.add(_("{player} follows the corridor from {start} to **{end}**.", player=scene.who(e.seat),
                    start=e.frm, end=e.to))
    elif not scene.happened(Entered):
        scene.add(_("{player} crosses {room} from {start} to **{end}**.", player=scene.who(e.seat),
                    room=scene.where(e.via_room), start=e.frm, end=e.to))


def entered(scene: Scene, e: Entered) -> None:
    if e.resumed:
        scene.add(_("🚪 {fighter} goes back into {room}, where danger was left waiting.",
                    fighter=scene.fighter(e.seat), room=scene.where(e.room)))
    else:
        scene.add(_("🚪 {fighter} enters {room} from {doorway}.", fighter=scene.fighter(e.seat),
                    room=scene.where(e.room), doorway=e.came_from))


def await_narration(scene: Scene, e: AwaitNarration) -> None:
    scene.add(_("📜 **{player}** is the Narrator: a **{kind}** card is in hand.", player=scene.who(e.narrator),
                kind=kind_name(e.kind)))


def card_read(scene: Scene, e: CardRead) -> None:
    card = scene.index[e.card]
    title, text = card_title(card.title), _(card.text)
    if e.again and e.narrator is None:
        scene.add(_("Left here from before, still waiting — **{card}**: {text}", card=title, text=text.lstrip("…")))
        return
    body = _("**{card}.** {text}", card=title, text=text) if card.kind == "room" else text
    if e.narrator is not None:
        if e.again:
            scene.add(_("📜 *{player} tells it:* “{words}”\n> {kind}: **{card}** (left here from before, still "
                        "waiting)", player=scene.who(e.narrator), words=e.words, kind=kind_name(card.kind),
                        card=title))
        else:
            scene.add(_("📜 *{player} tells it:* “{words}”\n> {kind}: **{card}**", player=scene.who(e.narrator),
                        words=e.words, kind=kind_name(card.kind), card=title))
    elif e.auto:
        scene.add(_("⏳ The Narrator was away, so Tabula reads the card.\n{text}", text=body))
    else:
        _continue(scene.lines, body)


def fight_roll(scene: Scene, e: FightRoll) -> None:
    card = scene.index[e.card]
    title = card_title(card.title)
    if e.who != "fighter":
        scene.add(_strike_back(title, e, many=agree(card.title, "one", "many") == "many"))
    elif not e.success:
        scene.add(_("🎲 {fighter} rolls **{roll}** (needs {need}): not enough.", fighter=scene.fighter(e.seat),
                    roll=e.roll, need=e.need))
    elif card.kind == "monster":
        scene.add(_("🎲 {fighter} rolls **{roll}** (needs {need}): hits the {card}!", fighter=scene.fighter(e.seat),
                    roll=e.roll, need=e.need, card=title))
    else:
        scene.add(_("🎲 {fighter} rolls **{roll}** (needs {need}): gets past the {card}!",
                    fighter=scene.fighter(e.seat), roll=e.roll, need=e.need, card=title))


def _strike_back(title: str, e: FightRoll, *, many: bool) -> str:
    """The starter game's monster striking back at the fighter: a hit or a miss."""
    if e.success:
        if many:
            return _("🎲 The {card} strike back: **{roll}** (needs {need}): a hit!", card=title, roll=e.roll,
                     need=e.need)
        return _("🎲 The {card} strikes back: **{roll}** (needs {need}): a hit!", card=title, roll=e.roll,
                 need=e.need)
    if many:
        return _("🎲 The {card} strike back: **{roll}** (needs {need}): a miss.", card=title, roll=e.roll, need=e.need)
    return _("🎲 The {card} strikes back: **{roll}** (needs {need}): a miss.", card=title, roll=e.roll, need=e.need)


def overcame(scene: Scene, e: Overcame) -> None:
    _continue(scene.lines, _(scene.index[e.card].after))


def treasure_taken(scene: Scene, e: TreasureTaken) -> None:
    scene.add(_("💰 {player} keeps the **{card}** ({gold} gold).", player=scene.who(e.seat), card=scene.title(e.card),
                gold=e.gold))


def wounded(scene: Scene, e: Wounded) -> None:
    tally = _(" Wounds: {wounds} of {limit}.", wounds=e.wounds, limit=SOLO_WOUND_LIMIT) if scene.mode == "solo" else ""
    left = "" if scene.happened(GameEnded) else _(
        " The {card} card stays in {room}, face down, for whoever comes next.", card=scene.title(e.card),
        room=scene.where(e.room))
    scene.add(_("🩸 {fighter} is wounded and falls back to **{doorway}**.{left}{tally}", fighter=scene.fighter(e.seat),
                doorway=e.back_to, left=left, tally=tally))


def room_explored(scene: Scene, e: RoomExplored) -> None:
    scene.add(_("✅ {room} is fully explored.", room=_cap(scene.where(e.room))))


def exited(scene: Scene, e: Exited) -> None:
    scene.add(_("{player} leaves {room} by **{doorway}**.", player=scene.who(e.seat), room=scene.where(e.room),
                doorway=e.to))


def reshuffled(scene: Scene, e: Reshuffled) -> None:
    scene.add(_("The {pile} pile was empty: its {n} discards are shuffled.", pile=kind_name(e.pile), n=e.cards))


def skipped(scene: Scene, e: Skipped) -> None:
    scene.add(_("{player} cannot move ({reason}) and waits a turn.", player=scene.who(e.seat),
                reason=retell(e.reason, SKIP_REASONS)))


def parties_dealt(scene: Scene, e: PartiesDealt) -> None:
    for seat, party in sorted(e.parties.items()):
        scene.add(_("{player}'s party, left to right: {heroes} — **{leader}** leads.", player=scene.who(seat),
                    heroes=comma(hero_title(h) for h in party), leader=named(party[-1])))
    if e.dealt:
        laid = semicolon(_("{player}: {spell}", player=scene.who(s), spell=spell_line(sp))
                         for s, sp in sorted(e.dealt.items()))
        scene.add(_("Each Magic User lays one Spell card face up beside him — {spells}. The rest form the Spell "
                    "Pile, face down.", spells=laid))
    else:  # the log of a game from before spells were laid face up
        scene.add(_("Each Magic User takes one Spell card ({n} dealt); the rest form the Spell Pile.", n=e.spells))


def danger_coming(scene: Scene, e: DangerComing) -> None:
    if e.waiting:
        scene.add(_("⚠️ The **{card}** left here still waits. Before it is turned up, {player} may change Leader — "
                    "{hero} is at the front.", card=scene.title(e.waiting), player=scene.who(e.seat),
                    hero=hero_title(e.leader)))
    else:
        scene.add(_("⚠️ The red arrow points at the **{kind}** pile. Before the card is drawn, {player} may change "
                    "Leader — {hero} is at the front.", kind=kind_name(e.kind), player=scene.who(e.seat),
                    hero=hero_title(e.leader)))


def leader_changed(scene: Scene, e: LeaderChanged) -> None:
    scene.add(_("🔁 {hero} steps to the front; {was} drops back.", hero=hero_title(e.hero), was=named(e.was)))


def hero_roll(scene: Scene, e: HeroRoll) -> None:
    scene.add(_hero_roll(e, scene.index[e.card].title, hero_index()[e.hero].name))


def spell_cast(scene: Scene, e: SpellCast) -> None:
    spell = spell_index()[e.spell]
    card = scene.index[e.card]
    sname = spell_name(spell.name)
    if e.result == "success":
        scene.add(_("✨ **{spell}**: {text}", spell=sname, text=_(spell.text)))
    elif e.result == "no_effect" and agree(card.title, "one", "many") == "many":
        scene.add(_("✨ **{spell}** — *No Effect*: {text} The {card} are immune, and the spell card goes back to the "
                    "Spell Pile.", spell=sname, text=_(spell.fizzle), card=card_title(card.title)))
    elif e.result == "no_effect":
        scene.add(_("✨ **{spell}** — *No Effect*: {text} The {card} is immune, and the spell card goes back to the "
                    "Spell Pile.", spell=sname, text=_(spell.fizzle), card=card_title(card.title)))
    else:
        scene.add(_("✨ **{spell}** fails: the words come out wrong. The spell card goes back to the Spell Pile.",
                    spell=sname))


def hero_wounded(scene: Scene, e: HeroWounded) -> None:
    tally = _(" Party wounds: {wounds} of {limit}.", wounds=e.wounds, limit=SOLO_WOUND_LIMIT) \
        if len(scene.view.fighters) == 1 else ""
    if e.leader is None:
        scene.add(_("🩸 {hero} is wounded — the last of the party still standing.{tally}", hero=hero_title(e.hero),
                    tally=tally))
    else:
        scene.add(_("🩸 {hero} is wounded by the {card}: the card turns over and drops to the back of the row. A "
                    "wounded hero cannot lead or fight until a Cleric heals them. **{leader}** now leads.{tally}",
                    hero=hero_title(e.hero), card=scene.title(e.card), leader=named(e.leader), tally=tally))


def retreated(scene: Scene, e: Retreated) -> None:
    if e.overwhelmed:
        scene.add(_("🛡️ Every hero of {player}'s party is wounded. They drag each other back to **{doorway}**, and "
                    "will spend their next turn recovering: then all five are fit again. The {card} stays in {room}, "
                    "face down.", player=scene.who(e.seat), doorway=e.back_to, card=scene.title(e.card),
                    room=scene.where(e.room)))
    else:
        scene.add(_("🏃 {player}'s party retreats to **{doorway}**. The {card} stays in {room}, face down, for "
                    "whoever comes next.", player=scene.who(e.seat), doorway=e.back_to, card=scene.title(e.card),
                    room=scene.where(e.room)))


def rested(scene: Scene, e: Rested) -> None:
    parts = []
    if e.healer is not None and e.healed == [e.healer]:
        parts.append(_("{hero} tends the Cleric's own wounds first (a wounded Cleric can heal no one else)",
                       hero=hero_title(e.healer)))
    elif e.healer is not None:
        parts.append(_("{hero} heals {heroes}", hero=hero_title(e.healer), heroes=comma(named(h) for h in e.healed)))
    if e.studying is not None:
        parts.append(_("{hero} pores over the spell books", hero=hero_title(e.studying)))
    scene.add(_("🕯️ {player}'s party rests a turn: {what}.", player=scene.who(e.seat), what=semicolon(parts)))


def spell_learned(scene: Scene, e: SpellLearned) -> None:
    if e.spell in spell_index():
        scene.add(_("📖 {hero} has learned a new spell: {spell}, face up beside him.", hero=named(e.hero),
                    spell=spell_line(e.spell)))
    else:
        scene.add(_("📖 {hero} has learned a new spell.", hero=named(e.hero)))


def party_recovered(scene: Scene, e: PartyRecovered) -> None:
    scene.add(_("🩹 {player}'s party spends the turn recovering: every hero is fit again.", player=scene.who(e.seat)))


def reordered(scene: Scene, e: Reordered) -> None:
    scene.add(_("{player} rearranges the party: {heroes} — {leader} leads.", player=scene.who(e.seat),
                heroes=comma(named(h) for h in e.heroes), leader=named(e.heroes[-1])))


def rolled(scene: Scene, e: Rolled) -> None:
    shown = " + ".join(f"[{comma(map(str, d))}]" for d in e.dice if d)
    scene.add(_("🎲 {player} rolls `{expr}`: {dice} → **{total}**", player=scene.who(e.seat), expr=e.expr, dice=shown,
                total=e.total))


def note_added(scene: Scene, e: NoteAdded) -> None:
    scene.add(_("📝 {player} pins a scene note to {room}: “{text}”", player=scene.who(e.seat),
                room=scene.where(e.room), text=e.text))


def note_read(scene: Scene, e: NoteRead) -> None:
    scene.add(_("📝 *Scene note from {player}:* “{text}”", player=scene.who(e.by), text=e.text))


def game_ended(scene: Scene, e: GameEnded) -> None:
    scene.add(_("🏁 {reason}", reason=retell(e.reason, ENDINGS)))


#: Every event of the game and the function that tells it.
TELLERS: dict[type, Teller[Scene]] = by_event(
    roll_off, dealt, rooms_dealt, recovered, placed, moved, entered, await_narration, card_read, fight_roll, overcame,
    treasure_taken, wounded, room_explored, exited, reshuffled, skipped, parties_dealt, danger_coming, leader_changed,
    hero_roll, spell_cast, hero_wounded, retreated, rested, spell_learned, party_recovered, reordered, rolled,
    note_added, note_read, game_ended,
) | {
    Shuffled: silent,  # the shuffles at the start: the rooms dealt and the fighters tell the table
    TurnBegan: silent,  # whose turn it is goes in the prompt, with the ping
}


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
              roll=spell.roll, boxes=comma(immune))


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


def final_report(view: LegendView) -> list[str]:
    """Each player's treasure and gold, richest first."""
    rows = []
    for p in sorted(view.fighters, key=lambda f: -f.gold):
        found = comma(_("{card} ({gold})", card=card_title(t.title), gold=t.gold) for t in p.treasure) \
            or _("nothing")
        extra = _n(" · {n} wound", " · {n} wounds", p.wounds) if view.mode == "solo" else ""
        rows.append(_("**{player}** — {gold} gold{wounds}: {found}", player=p.player, gold=p.gold, wounds=extra,
                      found=found))
    return rows
