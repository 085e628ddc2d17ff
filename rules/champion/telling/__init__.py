"""Champion of the Empire, in words: turns a step's events into the lines posted in the game's public thread,
one small function per event type (``TELLERS``; the fights' in ``fights``, the names they write in ``words``).

Pure text (Discord markdown, no mentions: the cogs ping players separately).  ``tell`` is given the public
view *after* the step and the step's events; every fact it needs about the moment of an event comes from the
events themselves (or from that view where nothing in between can have changed it).

What is public and what stays secret (the same split as the typed view, ``view.build_view``):

- **Public** — everything on the table: heroes, sides, weapons and items, positions and moves, every
  attribute track, the event card, story cards drawn (both cards on offer under the fate track), their
  d6 rolls, outcomes and choices, cards placed in front of a hero, the market's three cards, the two item
  cards turned up for a player at setup (they lie face up beside the sheet), combat cards *played* (attack,
  defence, the card thrown down), how many combat cards each side holds, rolls and wounds, the *number* of
  pieces of information a hero has and how many region cards are left, which shrines a hero has used, and the
  name of the monster a hero hunts (its sheet lies face up; the bot posts its picture).
- **Secret** — a hand of combat cards (only counts are told), which region card was set aside with each
  piece of information (so: which regions are still in hand), the icon on a drawn province card, the lair
  these point to, and the monster sheets offered but not taken.  Lines about information, the province
  card, the lost trail and the monster never name a region, an icon or a province.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.champion.content import Library, Outcome, library
from rules.champion.i18n import N_, _, _n, _p, and_list, comma, local, semicolon
from rules.champion.state import (
    Bought,
    CardKept,
    CardsDrawn,
    Champion,
    Defeated,
    Developed,
    FateMoved,
    Gained,
    GoldForAll,
    Information,
    ItemGained,
    ItemLost,
    KeptUsed,
    MonsterOffer,
    MonsterTaken,
    Moved,
    Offered,
    Passed,
    Picked,
    ProvinceCard,
    Reshuffled,
    Rolled,
    RoundBegan,
    Seated,
    Shipwreck,
    Shuffled,
    StoryChosen,
    StoryDrawn,
    StoryOutcome,
    TrailLost,
    TurnBegan,
    Used,
)
from rules.champion.telling import fights
from rules.champion.telling.words import (
    ATTRIBUTE_NAMES,
    CARD_NAMES,
    EFFECT_WORDS,
    KEEP_WORDS,
    Scene,
    _safe,
    _signed,
    revealed,
)
from rules.champion.view import ChampionView
from rules.core import Event
from rules.telling import Teller, by_event


def tell(view: ChampionView, events: Iterable[Event], *, lib: Library | None = None) -> list[str]:
    """One line (or short paragraph) per event worth telling, in order; ``view`` is the public view after them."""
    scene = Scene(view, list(events), lib or library())
    for i, e in enumerate(scene.ev):
        if i in scene.skip:
            continue
        scene.at = i
        teller = TELLERS.get(type(e))
        if teller is not None:
            teller(scene, e)
    return [line for line in scene.lines if line.strip()]


# --- events told together with the next ----------------------------------------------------------


def moved(scene: Scene, e: Moved) -> None:
    """A move, with what it gained (a caravan's gold, an exploration's XP, a voyage's fare) in the same line."""
    nxt = scene.nxt
    if isinstance(nxt, Gained) and nxt.seat == e.seat and nxt.why == e.by:
        scene.skip.add(scene.at + 1)
        moved_by(scene, e, nxt)
    else:
        moved_by(scene, e, None)


def rolled(scene: Scene, e: Rolled) -> None:
    """The sea roll of a voyage (with the shipwreck that follows it); a story card's roll is told with its
    outcome."""
    if e.why != "voyage":
        return
    if isinstance(scene.nxt, Shipwreck):
        scene.skip.add(scene.at + 1)
        scene.add(_("🎲 Sea roll: **{roll}** — 🌊 shipwreck! {hero} is washed ashore in **{province}**.", roll=e.roll,
                    hero=scene.hero_name(e.seat), province=scene.province(scene.pos.get(e.seat, ''))))
    else:
        scene.add(_("🎲 Sea roll: **{roll}** — {hero} lands safely.", roll=e.roll, hero=scene.hero_name(e.seat)))


def cards_drawn(scene: Scene, e: CardsDrawn) -> None:
    """Every side's combat cards of one deal, in one line (a reshuffle on the way is told first)."""
    group = [e]
    index = scene.at
    for j in range(index + 1, len(scene.ev)):
        later = scene.ev[j]
        if isinstance(later, CardsDrawn):
            group.append(later)
        elif isinstance(later, Reshuffled):  # the deck ran out while dealing: told first
            reshuffled(scene, later)
        else:
            break
        scene.skip.add(j)
    fights.drawn(scene, group, index)


def moved_by(scene: Scene, e: Moved, gain: Gained | None) -> None:
    who = scene.who(e.seat)
    start = scene.province(e.path[0]) if e.path else "?"
    end = e.path[-1] if e.path else ""
    extra = _(" ({changes})", changes=scene.changes(gain.changes)) if gain is not None and gain.changes else ""
    to = scene.province(end)
    if e.by == "caravan":
        if len(e.path) < 2:
            scene.add(_("🐪 {who} escorts a caravan around {start} without leaving it{extra}.", who=who,
                       start=start, extra=extra))
        else:
            scene.add(_("🐪 {who} escorts a caravan from {start} to **{to}**{extra}.", who=who, start=start, to=to,
                       extra=extra))
    elif e.by == "explore":
        if len(e.path) < 2:
            scene.add(_("🧭 {who} explores around {start}{extra}.", who=who, start=start, extra=extra))
        else:
            via = [scene.province(p) for p in e.path[1:-1]]
            if via:
                # the stops on the way, as a route reads (Greek writes them A → B, as around them)
                stops = via[0] if len(via) == 1 else _p("route", "{items} and {last}", items=_p(
                    "route", ", ").join(via[:-1]), last=via[-1])
                scene.add(_("🧭 {who} explores from {start} through {via} to **{to}**{extra}.", who=who,
                           start=start, via=stops, to=to, extra=extra))
            else:
                scene.add(_("🧭 {who} explores from {start} to **{to}**{extra}.", who=who, start=start, to=to,
                           extra=extra))
    elif e.by == "voyage":
        cost = extra if extra else _(" (free passage)")
        scene.add(_("⛵ {who} sails from {start} to **{to}**{cost}.", who=who, start=start, to=to, cost=cost))
    else:
        scene.add(_("{who} moves from {start} to **{to}**{extra}.", who=who, start=start, to=to, extra=extra))
    if end:
        scene.pos[e.seat] = end


def shuffled(scene: Scene, e: Shuffled) -> None:
    prev, nxt = scene.prev, scene.nxt
    if isinstance(prev, Shuffled):
        return
    if isinstance(nxt, Shuffled):
        scene.add(_("🔀 Tabula shuffles the decks: events, the three story decks, items, combat cards, "
                   "province cards and monster sheets."))
    elif e.pile == "item" and isinstance(nxt, RoundBegan):
        scene.add(_("🔀 Every hero is ready: the item cards nobody bought are shuffled back into the item deck. "
                   "The heroes set out:\n{heroes}", heroes="\n".join(ready_lines(scene))))
    elif e.pile != "item":
        scene.add(_n("🔀 The {pile} is shuffled ({cards} card).", "🔀 The {pile} is shuffled ({cards} cards).",
                    e.cards, pile=scene.pile(e.pile), cards=e.cards))


# --- one function per event --------------------------------------------------------------------------


def seated(scene: Scene, e: Seated) -> None:
    order = " → ".join(scene.player(s) for s in e.order)
    tokens = comma(_("{player} {colour} ({letter})", player=scene.player(s), colour=_p("colour", colour),
                     letter=scene.s.heroes[s].letter)
                   for s, colour in sorted(e.colours.items()) if 0 <= s < len(scene.s.heroes))
    scene.add(_("🎲 Tabula draws lots: {first} goes first. Turn order: {order}. Tokens: {tokens}.",
                first=scene.player(e.first), order=order, tokens=tokens))


def picked(scene: Scene, e: Picked) -> None:
    hero = scene.loc.hero.get(e.hero)
    if hero is None:
        scene.add(_("{player} chooses a hero.", player=scene.player(e.seat)))
        return
    # first come, first served: the hero is public at once; the side and the weapon when all are ready
    scene.add(_("🛡️ {player} takes **{hero}**, {title}. The journey starts in **{province}**; the side of the sheet, "
                "the weapon and the item stay private until everyone has chosen.", player=scene.player(e.seat),
                hero=hero.name, title=hero.title, province=scene.province(hero.start)))


def offered(scene: Scene, e: Offered) -> None:
    if e.where == "setup":
        return  # the two cards are the player's own to see (under **Your choices**)
    lib = scene.loc
    prices = {c: lib.item[c].price if c in lib.item else 0 for c in e.cards}
    cards = comma(_n("{item} ({price} gold)", "{item} ({price} gold)", prices[c], item=scene.item(c), price=prices[c])
                  for c in e.cards)
    prov = lib.province.get(scene.pos.get(e.seat, ""))
    if prov is not None and prov.city:
        scene.add(_("🏛️ The market of **{city}** lays out {cards}. {hero} may buy one or pass.", city=prov.city,
                    cards=cards, hero=scene.hero_name(e.seat)))
    else:
        scene.add(_("🏛️ The market of **the city** lays out {cards}. {hero} may buy one or pass.", cards=cards,
                    hero=scene.hero_name(e.seat)))


def bought(scene: Scene, e: Bought) -> None:
    scene.bought.add((e.seat, e.item))
    if scene.in_setup:
        scene.add(_("✅ {player} is ready.", player=scene.player(e.seat)))
    elif e.price:
        scene.add(_n("💰 {who} buys the {item} for {price} gold.", "💰 {who} buys the {item} for {price} gold.",
                     e.price, who=scene.who(e.seat), item=scene.item(e.item), price=e.price))
    else:
        scene.add(_("💰 {who} buys the {item} for nothing.", who=scene.who(e.seat), item=scene.item(e.item)))


def passed(scene: Scene, e: Passed) -> None:
    if scene.in_setup:
        scene.add(_("✅ {player} is ready.", player=scene.player(e.seat)))
    elif e.what == "market":
        scene.add(_("🏛️ {who} leaves the market without buying.", who=scene.who(e.seat)))
    else:
        scene.add(_("{who} passes on the item offer.", who=scene.who(e.seat)))


def round_began(scene: Scene, e: RoundBegan) -> None:
    scene.in_setup = False
    ev = scene.loc.event.get(e.event)
    if ev is None:
        scene.add(_("**Round {round}** begins.", round=e.round))
        return
    effect = _(EFFECT_WORDS[ev.effect]) if ev.effect in EFFECT_WORDS else ev.effect
    scene.add(_("🗓️ **Round {round}** — **{event}**: {effect}.", round=e.round, event=ev.name, effect=effect))


def gold_for_all(scene: Scene, e: GoldForAll) -> None:
    scene.add(_n("💰 Every hero gains {gold} gold.", "💰 Every hero gains {gold} gold.", e.gold, gold=e.gold))


def turn_began(scene: Scene, e: TurnBegan) -> None:
    scene.add(_("▶️ {player}'s turn: {hero} is in **{province}**.", player=scene.player(e.seat),
                hero=scene.hero_name(e.seat), province=scene.province(scene.pos.get(e.seat, ''))))


def shipwreck(scene: Scene, e: Shipwreck) -> None:
    scene.add(_("🌊 Shipwreck! {hero} is washed ashore in **{province}**.", hero=scene.hero_name(e.seat),
                province=scene.province(scene.pos.get(e.seat, ''))))


def developed(scene: Scene, e: Developed) -> None:
    attribute = _(ATTRIBUTE_NAMES[e.attribute]) if e.attribute in ATTRIBUTE_NAMES else e.attribute
    scene.add(_("📈 {who} spends {cost} XP: {attribute} +1.", who=scene.who(e.seat), cost=e.cost, attribute=attribute))


def used(scene: Scene, e: Used) -> None:
    scene.add(_("🩹 {who} uses the {item}: +{life} life.", who=scene.who(e.seat), item=scene.item(e.item),
                life=e.life))


def item_gained(scene: Scene, e: ItemGained) -> None:
    if (e.seat, e.item) in scene.bought:
        scene.bought.discard((e.seat, e.item))
        return
    scene.add(_("🎁 {who} gains the {item}.", who=scene.who(e.seat), item=scene.item(e.item)))


def information(scene: Scene, e: Information) -> None:
    if e.info >= scene.target:
        scene.add(_("📜 {who} gains a piece of information ({info} of {target}): the trail is complete.",
                    who=scene.who(e.seat), info=e.info, target=scene.target))
    else:
        scene.add(_("📜 {who} gains a piece of information ({info} of {target}).", who=scene.who(e.seat), info=e.info,
                    target=scene.target))


def province_card(scene: Scene, e: ProvinceCard) -> None:
    scene.add(_("📜 {player} draws a province card: {hero} now knows where the monster lairs. The place stays "
                "secret.", player=scene.player(e.seat), hero=scene.hero_name(e.seat)))


def monster_offer(scene: Scene, e: MonsterOffer) -> None:
    scene.add(_("🐉 {player} draws {n} monster sheets and chooses which beast {hero} will hunt.",
                player=scene.player(e.seat), n=len(e.monsters), hero=scene.hero_name(e.seat)))


def monster_taken(scene: Scene, e: MonsterTaken) -> None:
    if e.chosen:
        scene.add(_("🐉 {who} chooses to hunt **{monster}**.", who=scene.who(e.seat), monster=scene.monster(e.monster)))
    else:
        scene.add(_("🐉 {who} must hunt **{monster}**.", who=scene.who(e.seat), monster=scene.monster(e.monster)))


def trail_lost(scene: Scene, e: TrailLost) -> None:
    scene.add(_("📜 {who} loses the trail: the province card goes back and information falls to {info} of "
                "{target}.", who=scene.who(e.seat), info=e.info, target=scene.target))


def card_kept(scene: Scene, e: CardKept) -> None:
    words = _(KEEP_WORDS[e.key]) if e.key in KEEP_WORDS else e.key
    scene.add(_("📌 {hero} places **{card}** in front of them: {words}.", hero=scene.hero_name(e.seat),
                card=scene.story(e.card), words=words))


def kept_used(scene: Scene, e: KeptUsed) -> None:
    words = _(KEEP_WORDS[e.key]) if e.key in KEEP_WORDS else e.key
    scene.add(_("📌 **{card}** takes effect for {who} ({words}) and is discarded.", card=scene.story(e.card),
                who=scene.who(e.seat), words=words))


def fate_moved(scene: Scene, e: FateMoved) -> None:
    name = scene.hero_name(e.seat)
    now = _signed(e.fate) if e.fate else '0'
    if e.mark == "reset":
        scene.add(_("⚖️ {hero}'s fate marker returns to the middle of the track.", hero=name))
    elif e.mark == "laurel":
        scene.add(_("⚖️ {hero}'s fate marker moves toward the laurel 🌿 (now {now}).", hero=name, now=now))
    else:
        scene.add(_("⚖️ {hero}'s fate marker moves toward the skull 💀 (now {now}).", hero=name, now=now))


def reshuffled(scene: Scene, e: Reshuffled) -> None:
    scene.add(_n("🔀 The {pile} ran out: {n} discard shuffled into a new pile.",
                 "🔀 The {pile} ran out: {n} discards shuffled into a new pile.", e.cards, pile=scene.pile(e.pile)))


def defeated(scene: Scene, e: Defeated) -> None:
    if e.gold_lost:
        scene.add(_n("🩸 {who} is left for dead and comes round with {life} life, {gold} gold poorer.",
                     "🩸 {who} is left for dead and comes round with {life} life, {gold} gold poorer.",
                     e.gold_lost, who=scene.who(e.seat), life=e.life, gold=e.gold_lost))
    else:
        scene.add(_("🩸 {who} is left for dead and comes round with {life} life, with no gold to lose.",
                    who=scene.who(e.seat), life=e.life))


def champion(scene: Scene, e: Champion) -> None:
    scene.add(_("👑 {who} has slain **{monster}** and is the **Champion of the Empire**!", who=scene.who(e.seat),
                monster=scene.monster(e.monster)))


def ready_lines(scene: Scene) -> list[str]:
    """Each hero as they set out: the side and its numbers, the weapon and the item bought at setup."""
    rows = []
    for h in scene.s.heroes:
        hero = scene.lib.hero.get(h.hero or "")
        if hero is None:
            continue
        local_hero = scene.loc.hero[hero.id]
        index = next((i for i, sd in enumerate(hero.side) if sd.name == h.side), None)
        side = hero.side[index] if index is not None else None
        side_name = local_hero.side[index].name if index is not None else h.side
        stats = ""
        if side is not None:
            stats = _(": combat {combat} · initiative {initiative} · life {life}", combat=side.combat,
                      initiative=side.initiative, life=side.life)
            if side.xp:
                stats += _(" · {xp} XP", xp=side.xp)
        bought = [scene.item(i) for i in h.items if i != h.weapon]
        extra = _(", bought the {items}", items=and_list(bought)) if bought else ""
        rows.append(_n("• {player}: **{hero}**, {side} side{stats} — the {weapon}{extra}; {gold} gold.",
                       "• {player}: **{hero}**, {side} side{stats} — the {weapon}{extra}; {gold} gold.", h.gold,
                      player=scene.player(h.seat), hero=local_hero.name, side=side_name, stats=stats,
                      weapon=scene.item(h.weapon or ''), extra=extra, gold=h.gold))
    return rows


def gained(scene: Scene, e: Gained) -> None:
    who = scene.who(e.seat)
    what = scene.changes(e.changes)
    if e.why == "commission":
        scene.add(_("🔨 {who} takes local commissions: {what}.", who=who, what=what))
    elif e.why == "recuperate":
        life = e.changes.get("life", 0)
        prov = scene.loc.province.get(scene.pos.get(e.seat, ""))
        if prov is not None and prov.city:
            scene.add(_("🛌 {who} rests in {city}: +{life} life.", who=who, city=prov.city, life=life) if life
                     else _("🛌 {who} rests in {city}: life is already full.", who=who, city=prov.city))
        else:
            scene.add(_("🛌 {who} rests: +{life} life.", who=who, life=life) if life
                     else _("🛌 {who} rests: life is already full.", who=who))
    elif e.why == "lore":
        prov = scene.loc.province.get(scene.pos.get(e.seat, ""))
        if prov is not None and prov.shrine:
            scene.add(_("🏛️ {who} pays the priests at the shrine of {shrine} for their secret lore ({what}).",
                       who=who, shrine=prov.shrine, what=what))
        else:
            scene.add(_("🏛️ {who} pays the priests for their secret lore ({what}).", who=who, what=what))
    elif e.why in ("caravan", "explore", "voyage"):
        scene.add(_("{who}: {what}.", who=who, what=what))
    elif e.why in scene.lib.story:
        scene.add(_("↳ {hero}: {what}.", hero=scene.hero_name(e.seat), what=what))
    else:
        scene.add(_("{who}: {what}.", who=who, what=what))


#: Why an item was lost, in a line (a defeat names who chose it).
LOSSES = {"limit": N_("🎒 {who} can carry four items at most and gives up the {item}."),
          "shipwreck": N_("🎒 {who} loses the {item} to the sea."),
          "story": N_("🎒 {who} loses the {item} on the road."),
          "": N_("🎒 {who} loses the {item}.")}


def item_lost(scene: Scene, e: ItemLost) -> None:
    item = scene.item(e.item)
    if e.why != "defeat":
        scene.add(_(LOSSES.get(e.why, LOSSES[""]), who=scene.who(e.seat), item=item))
    elif e.chooser < 0:
        scene.add(_("🎒 Tabula, for the player to the left, chooses: {hero} loses the {item} after the defeat.",
                    hero=scene.hero_name(e.seat), item=item))
    else:
        scene.add(_("🎒 {chooser} (to the left) chooses: {hero} loses the {item} after the defeat.",
                    chooser=scene.player(e.chooser), hero=scene.hero_name(e.seat), item=item))


def story_drawn(scene: Scene, e: StoryDrawn) -> None:
    deck = e.deck if e.deck in ("easy", "medium", "hard") else ""
    who = scene.who(e.seat)
    if len(e.cards) >= 2:
        # TRANSLATORS: a story card's title inside a sentence: quote it the way the language quotes a title
        titles = and_list([_("**{title}**", title=scene.story(c)) for c in e.cards])
        if e.chooser == e.seat:
            chooser = _("{player} chooses which one {hero} faces", player=scene.player(e.seat),
                        hero=scene.hero_name(e.seat))
        elif scene.s.opponents == "bot":
            chooser = _("Tabula chooses for the player to the right")
        else:
            chooser = _("{player} (to the right) chooses which one {hero} faces", player=scene.player(e.chooser),
                        hero=scene.hero_name(e.seat))
        line = {"easy": N_("⚖️ Fate: two easy story cards are drawn for {who} — {titles}. {chooser}."),
                "medium": N_("⚖️ Fate: two medium story cards are drawn for {who} — {titles}. {chooser}."),
                "hard": N_("⚖️ Fate: two hard story cards are drawn for {who} — {titles}. {chooser}."),
                "": N_("⚖️ Fate: two story cards are drawn for {who} — {titles}. {chooser}.")}[deck]
        scene.add(_(line, who=who, titles=titles, chooser=chooser))
        return
    lead = {"easy": N_("{who} draws an easy story card"), "medium": N_("{who} draws a medium story card"),
            "hard": N_("{who} draws a hard story card"), "": N_("{who} draws a story card")}[deck]
    for c in e.cards:
        read(scene, e.seat, c, _(lead, who=who))


def story_chosen(scene: Scene, e: StoryChosen) -> None:
    hero = scene.hero_name(e.seat)
    if e.auto and e.by != e.seat:
        lead = _("Tabula chooses (the harder card) what {hero} faces", hero=hero)
    else:
        lead = _("{player} chooses what {hero} faces", player=scene.player(e.by), hero=hero)
    read(scene, e.seat, e.card, lead)


def read(scene: Scene, seat: int, card: str, lead: str) -> None:
    st = scene.loc.story.get(card)
    if st is None:
        scene.add(_("📜 {lead}.", lead=lead))
        return
    text = _("📜 {lead}: **{title}**\n> {text}", lead=lead, title=st.title, text=st.text)
    if not st.roll and len(st.outcome) > 1:
        options = " · ".join(_option(i, o) for i, o in enumerate(st.outcome))
        text += "\n" + _("{hero} must choose one: {options}", hero=scene.hero_name(seat), options=options)
    scene.add(text)


def _option(index: int, o: Outcome) -> str:
    """A story card's option as the choice asks it: its number and label, and what it costs or risks (gold
    paid, a fight and the opponent's numbers), as the card's picture shows them."""
    terms = []
    if o.gold < 0:
        terms.append(_("costs {gold} gold", gold=-o.gold))
    for foe in o.opponent:
        terms.append(_("fight {foe}: combat {combat}, life {life}", foe=foe.name, combat=foe.combat, life=foe.life))
    if o.fate:
        terms.append(_("laurel") if o.fate == "laurel" else _("skull"))
    head = f"**{index + 1}.** {o.choice}"
    return _("{option} ({terms})", option=head, terms=semicolon(terms)) if terms else head


def story_outcome(scene: Scene, e: StoryOutcome) -> None:
    st = scene.loc.story.get(e.card)
    if st is None or not 0 <= e.outcome < len(st.outcome):
        scene.add(_("🎲 {hero} rolls **{roll}**: nothing comes of it.", hero=scene.hero_name(e.seat), roll=e.roll)
                 if e.roll else _("nothing comes of it."))
        return
    o = st.outcome[e.outcome]
    if e.roll:
        scene.add(_("🎲 {hero} rolls **{roll}** — {text}", hero=scene.hero_name(e.seat), roll=e.roll, text=o.text))
    elif o.choice:
        scene.add(_("{hero} chooses **{choice}** — {text}", hero=scene.hero_name(e.seat), choice=o.choice,
                   text=o.text))
    else:
        scene.add(f"> {o.text}")


#: Every event of the game and the function that tells it (the fights' in ``fights``).
TELLERS: dict[type, Teller[Scene]] = by_event(
    seated, shuffled, picked, offered, bought, passed, round_began, gold_for_all, turn_began, moved, gained, rolled,
    shipwreck, developed, used, item_gained, item_lost, information, province_card, monster_offer, monster_taken,
    trail_lost, story_drawn, story_chosen, story_outcome, card_kept, kept_used, fate_moved, reshuffled, cards_drawn,
    defeated, champion, fights.fight_began, fights.weapon_chosen, fights.ranged, fights.initiative, fights.no_roll,
    fights.card_chosen, fights.played, fights.wound, fights.foe_died, fights.combat_round_ended, fights.regenerated,
    fights.gazed, fights.fight_ended,
)


def final_report(view: ChampionView, *, lib: Library | None = None) -> list[str]:
    """The end: the champion first, then each hero's sheet in one line (information, XP, gold, items)."""
    lib = lib or library()
    loc = local(lib)
    target = view.info_needed
    winner = view.winner if view.winner is not None else -1
    rows: list[str] = []
    order = sorted(range(len(view.heroes)), key=lambda i: (i != winner, -view.heroes[i].info, i))
    for i in order:
        h = view.heroes[i]
        hero = loc.hero[h.hero].name if h.hero in loc.hero else _("no hero")
        items = comma(loc.item[x].name if x in loc.item else x for x in h.items) or _("no items")
        crown = "👑 " if i == winner else ""
        monster = h.monster or ""
        beast = Scene(view, [], lib).monster(monster)
        hunt = _(" · hunting {monster}", monster=beast) if monster in lib.monster else ""
        if i == winner and monster in lib.monster:
            hunt = _(" · slew {monster}", monster=beast)
        rows.append(crown + _("**{player}** — {hero}: information {info}/{target} · {xp} XP · {gold} gold · life "
                              "{life}/{max_life}{hunt} · {items}", player=_safe(h.player), hero=hero, info=h.info,
                              target=target, xp=h.xp, gold=h.gold, life=h.life, max_life=h.max_life, hunt=hunt,
                              items=items))
    return rows



__all__ = ["CARD_NAMES", "EFFECT_WORDS", "KEEP_WORDS", "TELLERS", "final_report", "revealed", "tell"]
