"""Champion of the Empire, shown to people: the story of each move, the map, the cards, and the buttons for
whoever must act next.

Public buttons carry decisions everyone may see (a move, a commission, a story card's choice, a purchase);
anything secret — a hand of combat cards, a hero's first choice of sheet, standing in one's own lair — sits
behind a **Your hand** / **Your choices** button that opens the private view ``hand`` for whoever presses it.
Every button and menu entry is a command the game's codec made and labelled (the same as typing it); this
module reads only the moment: views, events, choices.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

from bot.present.base import Button, Choice, Menu, Moment, Picture, Prompt, Style, Telling, seats_acting
from render import champion as art
from rules.champion.content import CARD_TYPES, Library, library
from rules.champion.i18n import N_, N_p, _, _n, _p, comma, foe_name, local, semicolon
from rules.champion.state import CardChosen, CardPlayed, FightBegan, RoundBegan, StoryOutcome, TurnBegan
from rules.champion.telling import final_report, revealed, tell
from rules.champion.view import ChampionView
from rules.core import Event

#: What each phase asks of the players who must act (the buttons say the rest).
ASKS = {
    "action": N_("your turn: choose an action — a move from the menu (a story card follows), a button, or "
                 "**Your choices**"),
    "fate": N_("the fate track gives you the choice: pick the story card to be faced"),
    "story": N_("choose what you do"),
    "monster": N_("choose the mythological monster you will hunt"),
    "item": N_("choose the item that is given up"),
    "market": N_("the local market: buy one item, or pass"),
}
CARD_NAMES = {"torso": N_("Torso"), "head": N_("Head"), "hand": N_("Hand"), "leg": N_("Leg"),
              "inspired": N_("Inspired")}
#: What each combat step asks of the players who must act.
COMBAT_ASKS = {
    "hero_attack": N_("you attack: choose a card and a target"),
    "foe_defend": N_("the opponent must throw a card down (no matching card to defend with)"),
    "foe_attack": N_("play the opponents' attack cards"),
    "hero_defend": N_("you have no matching card: choose the card to throw down"),
    "keep": N_("the combat round is over: choose at most two cards to keep"),
}
#: How a played combat card is captioned, by its role.
HOW = {"attack": N_("{who} attacks"), "defence": N_("{who} defends"), "thrown": N_("{who} throws down")}
PLAYS = N_("{who} plays")




#: How each kind of card is drawn, and described for a screen reader.
CARD_PICTURES: dict[str, tuple[Callable[[Any], bytes], Callable[[Any], str]]] = {
    "story": (art.render_story, art.story_alt_text), "event": (art.render_event, art.event_alt_text),
    "item": (art.render_item, art.item_alt_text), "monster": (art.render_monster, art.monster_alt_text),
}


def _then(sentence: str, more: str) -> str:
    """Two sentences one after the other, as the language writes them (Japanese leaves no space)."""
    return _("{sentence} {more}", sentence=sentence, more=more) if more and sentence else sentence or more


def _card_names(kinds: Iterable[str]) -> str:
    return comma(_(CARD_NAMES[k]) if k in CARD_NAMES else k for k in kinds)


#: A card placed in front of a hero, as the sheet lists it (in English, its key).
KEEP_NAMES = {"guide": N_p("kept", "guide"), "blessing": N_p("kept", "blessing"), "fever": N_p("kept", "fever"),
              "free_passage": N_p("kept", "free_passage"), "lame": N_p("kept", "lame")}
MOVES = ("explore", "caravan", "voyage")
#: How each verb's button looks.
STYLES: dict[str, Style] = {
    "recuperate": "success", "use": "success", "lore": "primary", "buy": "primary", "choose": "primary",
    "weapon": "primary", "attack": "danger", "drop": "danger", "play": "danger",
}


def side_name(lib: Library, hero: str, side: str) -> str:
    """A side of a hero's sheet (the view keeps its English name) in the current language."""
    h = lib.hero.get(hero)
    index = next((i for i, sd in enumerate(h.side) if sd.name == side), None) if h is not None else None
    return local(lib).hero[hero].side[index].name if index is not None else side


def _title(moment: Moment[object]) -> str:
    """The game's title and number, "Champion of the Empire · #12", in the current language."""
    return f"{_(moment.spec.title)} · #{moment.game_id}"


def _opens_hand(label: str) -> Button:
    return Button(label, view="hand", style="primary")



ChampionMoment = Moment[ChampionView]


class ChampionPresenter:
    key = "champion"

    def __init__(self) -> None:
        self.lib = library()

    # --- pictures -------------------------------------------------------------------------------

    def board(self, moment: ChampionMoment) -> Picture:
        view = moment.view()
        alt = art.board_alt_text(view) + " " + art.map_alt_text(view)
        return Picture("map.png", partial(art.render_board, view, title=_title(moment)), alt[:1000])

    def card(self, kind: str, card_id: str) -> Picture | None:
        """A card of the story, event, item or monster deck, drawn in the current language."""
        lib = local(self.lib)
        cards: dict[str, Any] = {"story": lib.story, "event": lib.event, "item": lib.item, "monster": lib.monster}
        drawn = CARD_PICTURES.get(kind)
        if drawn is None or card_id not in cards[kind]:
            return None
        render, alt = drawn
        card = cards[kind][card_id]
        return Picture(f"{kind}-{card_id}.png", partial(render, card), alt(card)[:1000])

    def warm(self) -> int:
        """Draw the static map and every card once, so no player waits for a first drawing."""
        art.warm()
        count = 1
        lib = self.lib
        for kind, ids in (("story", lib.story), ("event", lib.event), ("item", lib.item), ("monster", lib.monster)):
            for card_id in ids:
                drawn = self.card(kind, card_id)
                if drawn is not None:
                    drawn.png  # noqa: B018  (reading it draws it)
                count += 1
        return count

    # --- the message after a move ---------------------------------------------------------------

    def telling(self, moment: ChampionMoment) -> Telling:
        view = moment.view()
        events = [e for e in moment.events if isinstance(e, Event)]
        lines = tell(view, events, lib=self.lib)
        if moment.timed_out and moment.actor is not None:  # a turn timeout
            lines.insert(0, _("⏳ {player} did not answer within the game's time limit, so Tabula plays for them.",
                              player=moment.name_of(moment.actor)))
        setup = view.phase == "setup" or any(isinstance(e, RoundBegan) and e.round == 1 for e in events)
        found = [self._story(view, moment, cid, events) if kind == "story" else self.card(kind, cid)
                 for kind, cid in revealed(events, setup=setup)]
        pictures = [p for p in found if p is not None][:6]
        for e in events:  # a card answered in a later step: shown again, the outcome marked
            if isinstance(e, StoryOutcome) and all(p.filename != f"story-{e.card}.png" for p in pictures):
                marked = self._story(view, moment, e.card, events)
                if marked is not None:
                    pictures.append(marked)
        if view.phase == "market" and view.market:
            pictures += [p for cid in view.market if (p := self.card("item", cid)) is not None]
        played = self._played(view, events)
        if played:
            pictures.append(Picture("played.png", partial(art.render_played, played),
                                    art.played_alt_text(played)[:1000]))
        if moment.outcome is not None:
            lines.append(_("**The heroes at the end**\n{rows}", rows="\n".join(final_report(view, lib=self.lib))))
            lines.append(f"🏆 {moment.outcome.summary}")
        # The map comes at the end of an action (a new turn, the game's start and end), never per card.
        if view.phase in ("action", "over") or (view.phase == "setup" and moment.actor is None):
            pictures.append(self.board(moment))
        if not lines and moment.actor is not None:  # a secret choice that changes nothing anyone may see yet
            lines.append(_("{player} has chosen.", player=moment.name_of(moment.actor)))
        prompt = self._pinged(moment)
        quiet = self._unpinged(moment, prompt)
        if quiet:
            lines.append(quiet)
        # A fight is one message, edited card by card as it goes; its end (and the map) comes as a new one.
        fight = "fight" if view.phase == "combat" else None
        return Telling(text="\n".join(lines) or "—", pictures=pictures[:10], prompt=prompt, continues=fight)

    def _unpinged(self, moment: ChampionMoment, prompt: Prompt | None) -> str:
        """Who must act, said in words (no mention) when nobody is pinged: the player who goes on, or the
        players still choosing."""
        if prompt is None or prompt.users or moment.actor is None or moment.status != "active":
            return ""
        acting = sorted(moment.to_act)
        names = [f"**{moment.name_of(s)}**" for s in acting if moment.user_of(s) > 0]
        if not names or moment.view().phase == "setup":
            return ""
        if acting == [moment.actor]:
            return _("➡️ {player} goes on: {prompt}", player=names[0], prompt=prompt.text)
        return _("⏳ Still choosing: {players}.", players=comma(names))

    def _pinged(self, moment: ChampionMoment) -> Prompt | None:
        """The prompt, pinging only players the turn has just passed to: not the one who acted (they are here
        and go on), nobody after a choice that left the others choosing, and nobody while heroes are chosen
        (everyone was asked at the start)."""
        prompt = self.prompt(moment)
        if prompt is None or moment.actor is None:
            return prompt
        view = moment.view()
        actor_user = moment.user_of(moment.actor)
        if all(isinstance(e, CardChosen) for e in moment.events) or view.phase == "setup":  # others still choose
            prompt.users = []
        elif not any(isinstance(e, TurnBegan) and e.seat == moment.actor for e in moment.events):
            prompt.users = [u for u in prompt.users if u != actor_user]  # a new turn of one's own is news
        return prompt

    def _story(self, view: ChampionView, moment: ChampionMoment, card_id: str, events: list[Event]) -> Picture | None:
        """A story card as it stands: the outcome rolled or chosen marked; while the hero chooses, the options
        they cannot pay for greyed out with the reason."""
        story = local(self.lib).story.get(card_id)
        if story is None:
            return None
        outcome = next((e for e in events if isinstance(e, StoryOutcome) and e.card == card_id), None)
        closed: dict[int, str] = {}
        if outcome is None and view.phase == "story" and view.story == card_id and view.current is not None:
            gold = view.heroes[view.current].gold
            open_ = {c.command.get("option") for c in moment.choices(view.current) if c.command.verb == "choose"}
            closed = {i: _n("needs {cost} gold — you have {gold}", "needs {cost} gold — you have {gold}", -o.gold,
                             cost=-o.gold, gold=gold)
                      for i, o in enumerate(story.outcome)
                      if str(i + 1) not in open_ and o.gold < 0}
        chosen = outcome.outcome if outcome is not None else -1
        roll = outcome.roll if outcome is not None else 0
        png = partial(art.render_story, story, chosen=chosen, roll=roll, closed=closed)
        alt = art.story_alt_text(story)
        if outcome is not None and 0 <= chosen < len(story.outcome):
            o = story.outcome[chosen]
            alt = _then(_("Rolled {roll}: {text}", roll=roll, text=o.text) if roll
                        else _("Chosen: {choice} — {text}", choice=o.choice, text=o.text), alt)
        if closed:
            alt = _then(alt, _("Closed: {options}", options=semicolon(
                _("{text} ({extra})", text=story.outcome[i].choice, extra=why) for i, why in closed.items())))
        return Picture(f"story-{card_id}.png", png, alt[:1000])

    def _played(self, view: ChampionView, events: list[Event]) -> list[tuple[str, str]]:
        """The combat cards this step turned over, each with who played it and how (at most eight)."""
        hero = ""
        lib = local(self.lib)
        fighter = view.combat.hero if view.combat is not None else view.current
        if fighter is not None and 0 <= fighter < len(view.heroes):
            h = view.heroes[fighter]
            hero = lib.hero[h.hero].name if h.hero in lib.hero else h.player
        out: list[tuple[str, str]] = []
        for e in events:
            if isinstance(e, FightBegan):
                fighting = view.heroes[e.seat] if 0 <= e.seat < len(view.heroes) else None
                if fighting is not None and fighting.hero in lib.hero:
                    hero = lib.hero[fighting.hero].name
            if not isinstance(e, CardPlayed) or e.card not in CARD_TYPES:
                continue
            who = (hero or _("The hero")) if e.by == "hero" else foe_name(e.by)
            out.append((e.card, _(HOW.get(e.role, PLAYS), who=who)))
        return out[-8:]

    def status(self, moment: ChampionMoment) -> Telling:
        view = moment.view()
        rows = []
        lib = local(self.lib)
        for h in view.heroes:
            if not h.hero:
                rows.append(_("{letter} **{player}** — still choosing a hero", letter=h.letter, player=h.player))
                continue
            hero = lib.hero[h.hero].name
            where = lib.province[h.province].name if h.province else "—"
            colour = _p("colour", h.colour)
            if h.side is None:  # another player's choice while the heroes are chosen
                values = dict(letter=h.letter, player=h.player, colour=colour, hero=hero, where=where)
                rows.append(_("{letter} **{player}** ({colour}, {hero}) starts in {where} — still choosing; the side, "
                              "weapon and item are shown when everyone is ready", **values) if h.to_act else
                            _("{letter} **{player}** ({colour}, {hero}) starts in {where} — ready; the side, weapon "
                              "and item are shown when everyone is ready", **values))
                continue
            items = comma(lib.item[i].name for i in h.items) or _("no items")
            rows.append(_("{letter} **{player}** ({colour}, {hero}) in {where} — life {life}/{max_life}, combat "
                          "{combat}, initiative {initiative}, XP {xp}, gold {gold}, information {info}/{needed} · "
                          "{items}", letter=h.letter, player=h.player, colour=colour, hero=hero, where=where,
                          life=h.life, max_life=h.max_life, combat=h.combat, initiative=h.initiative, xp=h.xp,
                          gold=h.gold, info=h.info, needed=view.info_needed, items=items))
        head = _("This game was abandoned.") if moment.status == "abandoned" else view.caption
        text = f"**{_title(moment)}** — {head}\n" + "\n".join(rows)
        return Telling(text=text, pictures=[self.board(moment)], prompt=self.prompt(moment))

    # --- private views --------------------------------------------------------------------------

    def private(self, name: str, moment: ChampionMoment, seat: int) -> Telling | None:
        if name == "sheet":
            return self.sheet(moment, seat)
        if name == "hand":
            return self.hand(moment, seat)
        return None

    def sheet(self, moment: ChampionMoment, seat: int) -> Telling:
        """`/sheet`: the character sheet picture, and (for its owner only) what the information has shown."""
        view = moment.view(seat)
        hero = view.heroes[seat]
        if not hero.hero:
            return Telling(text=_("You have not chosen your hero yet — press **Your choices** in the thread."),
                           pictures=[])
        secret = view.secret
        side = hero.side or ""
        lib = local(self.lib)
        lines = [_("**{hero}** — {player}'s hero ({side} side).", hero=lib.hero[hero.hero].name, player=hero.player,
                   side=side_name(self.lib, hero.hero, side))]
        regions = [lib.region[r].name for r in secret.regions] if secret else []
        if regions:
            lines.append(_("Region cards still in your hand ({n}): {regions} — the monster is in one of them.",
                           n=len(regions), regions=semicolon(regions)))  # a name may hold commas
        if hero.monster:
            lines.append(_("Your monster: **{monster}**.", monster=lib.monster[hero.monster].name))
        if secret is not None and secret.lair:
            lines.append(_("Its lair: **{province}** — travel there and `/attack`.",
                           province=lib.province[secret.lair].name))
        kept = [_p("kept", KEEP_NAMES[k.key]) if k.key in KEEP_NAMES else k.key for k in hero.kept]
        if kept:
            lines.append(_("Cards in front of you: {cards}.", cards=comma(kept)))
        png = partial(art.render_sheet, hero, side_name=side)
        return Telling(text="\n".join(lines), pictures=[
            Picture("sheet.png", png, art.sheet_alt_text(hero, side_name=side)[:1000])])

    def hand(self, moment: ChampionMoment, seat: int) -> Telling | None:
        """What only this seat sees: the hero choice in setup, a hand of cards in a fight, the lair, with the
        controls for it."""
        if moment.status != "active" or seat not in moment.to_act:
            return None
        view = moment.view(seat)
        secret = view.secret
        lib = local(self.lib)
        if view.phase == "setup":
            me = view.heroes[seat]
            if not me.hero:
                menu = [(c.label, c.command) for c in moment.choices(seat) if c.command.verb == "hero"]
                taken = {h.hero for h in view.heroes}
                rows = [_("**{hero}** — {title}, starts in {province}", hero=h.name, title=h.title,
                          province=lib.province[h.start].name) for h in lib.heroes if h.id not in taken]
                text = _("Choose your hero, the side of the sheet (its starting numbers) and one of the two starting "
                         "weapons of the hero's people:\n{heroes}", heroes="\n".join(rows))
                return Telling(text=text, pictures=[], prompt=Prompt(
                    users=[], text="", menus=[Menu(menu[:25], placeholder=_("Choose your hero…"))]))
            offer = [lib.item[i] for i in (secret.offer if secret else ()) if i in lib.item]
            offered = [_n("**{item}** ({price} gold)", "**{item}** ({price} gold)", i.price, item=i.name, price=i.price)
                       for i in offer]
            text = _("You have {gold} gold. Two item cards are turned over for you: {items}. Buy one, or pass.",
                     gold=me.gold, items=comma(offered))
            return Telling(text=text, pictures=[x for i in offer if (x := self.card("item", i.id)) is not None],
                           prompt=self._choices(moment, seat))
        if view.phase == "combat":
            lines = []
            pictures: list[Picture] = []
            if secret is not None and secret.hand:
                lines.append(_("**Your hand:** {cards}", cards=_card_names(secret.hand)))
                cards = secret.hand_cards or secret.hand
                pictures.append(Picture("hand.png", partial(art.render_hand, cards), art.hand_alt_text(cards)[:1000]))
            for foe in secret.foe_hands if secret else ():
                name = foe_name(view.combat.foes[foe.foe].name) if view.combat else str(foe.foe + 1)
                lines.append(_("**{foe}'s hand** (you play it): {cards}", foe=name, cards=_card_names(foe.cards)))
                title = _("{foe}'s hand (you play it)", foe=name)
                pictures.append(Picture(f"hand-{foe.foe + 1}.png", partial(art.render_hand, foe.cards, title=title),
                                        art.hand_alt_text(foe.cards, title=title)[:1000]))
            lines.append(_("Your choices are the buttons below; everyone sees each card as it is played."))
            return Telling(text="\n".join(lines), pictures=pictures[:10], prompt=self._choices(moment, seat))
        own = {"lair": _("You stand in your monster's lair (only you know it): attack it now, or draw a story card "
                         "as usual."),
               "action": _("Your choices this turn: the buttons below (a shrine's lore can be learned the turn after "
                           "you end a turn at the shrine)."),
               "fate": _("The fate track gives you the choice: pick the story card to be faced."),
               "story": _("Choose what you do on the story card{hint}.", hint=self._hint(view, seat)),
               "monster": _("Choose the mythological monster you will hunt."),
               "item": _("Choose the item that is given up{hint}.", hint=self._hint(view, seat)),
               "market": _then(_("You are at the market: buy one item, or leave it."), self._market_note(view, seat))}
        phase = "lair" if secret is not None and secret.in_lair else view.phase
        return Telling(text=own.get(phase, _("Your move: the buttons below.")), pictures=[],
                       prompt=self._choices(moment, seat))

    def _market_note(self, view: ChampionView, seat: int) -> str:
        """Why only **Leave** is offered, when nothing on the market can be paid for."""
        if view.phase != "market" or not view.market:
            return ""
        gold = view.heroes[seat].gold
        prices = [max(0, self.lib.item[i].price - view.price_cut) for i in view.market if i in self.lib.item]
        if prices and min(prices) > gold:
            return _("You have {gold} gold and the cheapest item here costs {price}, so you can only leave the "
                     "market this time.", gold=gold, price=min(prices))
        return _("You have {gold} gold.", gold=gold)

    # --- who must act, and the controls they get ------------------------------------------------

    def prompt(self, moment: ChampionMoment) -> Prompt | None:
        acting, users = seats_acting(moment)  # nobody once the game is over
        if not acting:
            return None
        view = moment.view()
        if view.phase == "setup":
            picking = [s for s in acting if not view.heroes[s].hero]
            buying = [s for s in acting if view.heroes[s].hero]
            if not buying:
                what = _("choose your hero (first come, first served), the side of the sheet and a starting weapon, "
                         "then buy one of the two items turned up for you, or pass")
            elif not picking:
                what = _("buy one of the two items turned up for you, or pass")
            else:
                what = _("choose your hero (first come, first served), the side of the sheet and a starting weapon "
                         "— or, once your hero is chosen, buy one of the two items turned up for you, or pass")
            return Prompt(users=users, text=_("{what} — press **Your choices** (only you see them).", what=what),
                          buttons=[_opens_hand(_("Your choices"))])
        if view.phase == "combat":
            return self._combat_prompt(moment, view, acting, users)
        seat = acting[0]
        prompt = self._choices(moment, seat, public=True)
        prompt.users = users
        ask = _(ASKS[view.phase]) if view.phase in ASKS else _("your move")
        ask += self._hint(view, seat)
        note = self._market_note(view, seat)  # a sentence of its own after the lower-case ask
        prompt.text = _("{ask}. {note}", ask=ask, note=note) if note else ask
        if view.phase == "action":
            prompt.buttons.append(_opens_hand(_("Your choices")))
        return prompt

    def _hint(self, view: ChampionView, seat: int) -> str:
        if view.phase == "story" and view.story is not None:
            return _(" (**{title}**)", title=local(self.lib).story[view.story].title)
        if view.phase == "item" and view.losing is not None:
            owner = view.heroes[view.losing.owner].player
            return _(" ({player}'s item)", player=owner) if view.heroes[seat].player != owner else ""
        return ""

    def _choices(self, moment: ChampionMoment, seat: int, *, public: bool = False) -> Prompt:
        """Every legal action for the seat, as a menu (moves) and buttons (the rest).  In public, what would
        give the lair away is left out: attacking the monster, and drawing a story card instead of it (only
        its hunter may know that this is its lair — **Your choices** has them)."""
        choices = moment.choices(seat)
        lair = public and any(c.command.verb == "attack" for c in choices)
        here = moment.view().heroes[seat].province
        menu: list[tuple[str, Choice]] = []
        seen: set[str] = set()
        for c in choices:
            if c.command.verb == "explore":
                path = c.command.get("path").split(">")
                to = path[-1]
                if to in seen or (to == here and len(path) > 1):
                    continue
                seen.add(to)
                menu.append((c.label, c))
        menu += [(c.label, c) for c in choices if c.command.verb in ("caravan", "voyage")]
        buttons: list[Button] = []
        for c in choices:
            verb = c.command.verb
            if verb in (*MOVES, "hero") or (lair and verb in ("attack", "pass")):
                continue
            style = STYLES.get(verb, "secondary")
            if verb == "ranged" and c.command.get("item") not in ("", "none"):
                style = "danger"
            buttons.append(Button(c.label, command=c.command, style=style))
        menus = [Menu([(label, c.command) for label, c in menu][:25],
                      placeholder=_("Move: explore, caravan or sail…"))]
        return Prompt(users=[], text="", menus=menus if menu else [], buttons=buttons[:20])

    def _combat_prompt(self, moment: ChampionMoment, view: ChampionView, acting: list[int],
                       users: list[int]) -> Prompt:
        c = view.combat
        assert c is not None
        if c.step == "weapon" and acting == [c.hero]:
            p = self._choices(moment, c.hero)
            p.users, p.text = users, _("choose the weapon you fight with (it cannot be changed during the fight)")
            return p
        if c.step == "ranged" and acting == [c.hero]:
            p = self._choices(moment, c.hero)
            p.users, p.text = users, _("your one ranged attack before melee, if you want it")
            return p
        ask = _(COMBAT_ASKS[c.step]) if c.step in COMBAT_ASKS else _("your move in the fight")
        return Prompt(users=users, text=_("{ask} — press **Your hand** (only you see it).", ask=ask),
                      buttons=[_opens_hand(_("Your hand"))])


PRESENTER = ChampionPresenter()
