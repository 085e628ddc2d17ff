"""Champion of the Empire, shown to people: the story of each move, the map, the cards, and the buttons for
whoever must act next.

Public buttons carry decisions everyone may see (a move, a commission, a story card's choice, a purchase);
anything secret — a hand of combat cards, a hero's first choice of sheet, standing in one's own lair — sits
behind a **Your hand** / **Your choices** button that opens the private view ``hand`` for whoever presses it.
Every button and menu entry is a command the game's codec made and labelled (the same as typing it); this
module reads only the moment: views, events, choices.
"""

from __future__ import annotations

from bot.present.base import Button, Choice, Menu, Moment, Picture, Prompt, Style, Telling, game_title
from render import champion as art
from rules.champion.content import CARD_TYPES, library
from rules.champion.state import CardChosen, CardPlayed, FightBegan, RoundBegan, StoryOutcome, TurnBegan
from rules.champion.story import final_report, revealed, tell
from rules.champion.view import ChampionView
from rules.core import Event

#: What each phase asks of the players who must act (the buttons say the rest).
ASKS = {
    "action": "your turn: choose an action — a move from the menu (a story card follows), a button, or "
              "**Your choices**",
    "fate": "the fate track gives you the choice: pick the story card to be faced",
    "story": "choose what you do",
    "monster": "choose the mythological monster you will hunt",
    "item": "choose the item that is given up",
    "market": "the local market: buy one item, or pass",
}
CARD_NAMES = {t: t.capitalize() for t in CARD_TYPES}  # "Torso", "Head", …
MOVES = ("explore", "caravan", "voyage")
#: How each verb's button looks.
STYLES: dict[str, Style] = {
    "recuperate": "success", "use": "success", "lore": "primary", "buy": "primary", "choose": "primary",
    "weapon": "primary", "attack": "danger", "drop": "danger", "play": "danger",
}


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
        return Picture("map.png", art.render_board(view, title=game_title(moment)), alt[:1000])

    def card(self, kind: str, card_id: str) -> Picture | None:
        lib = self.lib
        if kind == "story" and card_id in lib.story:
            c = lib.story[card_id]
            return Picture(f"story-{card_id}.png", art.render_story(c), art.story_alt_text(c)[:1000])
        if kind == "event" and card_id in lib.event:
            e = lib.event[card_id]
            return Picture(f"event-{card_id}.png", art.render_event(e), art.event_alt_text(e)[:1000])
        if kind == "item" and card_id in lib.item:
            i = lib.item[card_id]
            return Picture(f"item-{card_id}.png", art.render_item(i), art.item_alt_text(i)[:1000])
        if kind == "monster" and card_id in lib.monster:
            m = lib.monster[card_id]
            return Picture(f"monster-{card_id}.png", art.render_monster(m), art.monster_alt_text(m)[:1000])
        return None

    def warm(self) -> int:
        """Draw the static map and every card once, so no player waits for a first drawing."""
        art.warm()
        count = 1
        lib = self.lib
        for kind, ids in (("story", lib.story), ("event", lib.event), ("item", lib.item), ("monster", lib.monster)):
            for card_id in ids:
                self.card(kind, card_id)
                count += 1
        return count

    # --- the message after a move ---------------------------------------------------------------

    def telling(self, moment: ChampionMoment) -> Telling:
        view = moment.view()
        events = [e for e in moment.events if isinstance(e, Event)]
        lines = tell(view, events, lib=self.lib)
        if moment.by_tabula and not moment.auto_seat and moment.actor is not None:  # a turn timeout
            lines.insert(0, f"⏳ {moment.name_of(moment.actor)} did not answer within the game's time limit, so "
                            "Tabula plays for them.")
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
            pictures.append(Picture("played.png", art.render_played(played), art.played_alt_text(played)[:1000]))
        if moment.outcome is not None:
            lines.append("**The heroes at the end**\n" + "\n".join(final_report(view, lib=self.lib)))
            lines.append(f"🏆 {moment.outcome.summary}")
        # The map comes at the end of an action (a new turn, the game's start and end), never per card.
        if view.phase in ("action", "over") or (view.phase == "setup" and moment.actor is None):
            pictures.append(self.board(moment))
        if not lines and moment.actor is not None:  # a secret choice that changes nothing anyone may see yet
            lines.append(f"{moment.name_of(moment.actor)} has chosen.")
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
            return f"➡️ {names[0]} goes on: {prompt.text}"
        return "⏳ Still choosing: " + ", ".join(names) + "."

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
        story = self.lib.story.get(card_id)
        if story is None:
            return None
        outcome = next((e for e in events if isinstance(e, StoryOutcome) and e.card == card_id), None)
        closed: dict[int, str] = {}
        if outcome is None and view.phase == "story" and view.story == card_id and view.current is not None:
            gold = view.heroes[view.current].gold
            open_ = {c.command.get("option") for c in moment.choices(view.current) if c.command.verb == "choose"}
            closed = {i: f"needs {-o.gold} gold — you have {gold}" for i, o in enumerate(story.outcome)
                      if str(i + 1) not in open_ and o.gold < 0}
        chosen = outcome.outcome if outcome is not None else -1
        roll = outcome.roll if outcome is not None else 0
        png = art.render_story(story, chosen=chosen, roll=roll, closed=closed)
        alt = art.story_alt_text(story)
        if outcome is not None and 0 <= chosen < len(story.outcome):
            o = story.outcome[chosen]
            alt = (f"Rolled {roll}: " if roll else f"Chosen: {o.choice} — ") + o.text + " " + alt
        if closed:
            alt += " Closed: " + "; ".join(f"{story.outcome[i].choice} ({why})" for i, why in closed.items())
        return Picture(f"story-{card_id}.png", png, alt[:1000])

    def _played(self, view: ChampionView, events: list[Event]) -> list[tuple[str, str]]:
        """The combat cards this step turned over, each with who played it and how (at most eight)."""
        hero = ""
        fighter = view.combat.hero if view.combat is not None else view.current
        if fighter is not None and 0 <= fighter < len(view.heroes):
            h = view.heroes[fighter]
            hero = self.lib.hero[h.hero].name if h.hero in self.lib.hero else h.player
        out: list[tuple[str, str]] = []
        for e in events:
            if isinstance(e, FightBegan):
                fighting = view.heroes[e.seat] if 0 <= e.seat < len(view.heroes) else None
                if fighting is not None and fighting.hero in self.lib.hero:
                    hero = self.lib.hero[fighting.hero].name
            if not isinstance(e, CardPlayed) or e.card not in CARD_TYPES:
                continue
            who = (hero or "The hero") if e.by == "hero" else e.by
            how = {"attack": "attacks", "defence": "defends", "thrown": "throws down"}.get(e.role, "plays")
            out.append((e.card, f"{who} {how}"))
        return out[-8:]

    def status(self, moment: ChampionMoment) -> Telling:
        view = moment.view()
        rows = []
        for h in view.heroes:
            if not h.hero:
                rows.append(f"{h.letter} **{h.player}** — still choosing a hero")
                continue
            hero = self.lib.hero[h.hero].name
            where = self.lib.province[h.province].name if h.province else "—"
            if h.side is None:  # another player's choice while the heroes are chosen
                ready = "still choosing" if h.to_act else "ready"
                rows.append(f"{h.letter} **{h.player}** ({h.colour}, {hero}) starts in {where} — {ready}; the side, "
                            "weapon and item are shown when everyone is ready")
                continue
            items = ", ".join(self.lib.item[i].name for i in h.items) or "no items"
            rows.append(f"{h.letter} **{h.player}** ({h.colour}, {hero}) in {where} — life {h.life}/{h.max_life}, "
                        f"combat {h.combat}, initiative {h.initiative}, XP {h.xp}, gold {h.gold}, information "
                        f"{h.info}/{view.info_needed} · {items}")
        head = "This game was abandoned." if moment.status == "abandoned" else view.caption
        text = f"**{game_title(moment)}** — {head}\n" + "\n".join(rows)
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
            return Telling(text="You have not chosen your hero yet — press **Your choices** in the thread.",
                           pictures=[])
        secret = view.secret
        side = hero.side or ""
        lines = [f"**{self.lib.hero[hero.hero].name}** — {hero.player}'s hero ({side} side)."]
        regions = [self.lib.region[r].name for r in secret.regions] if secret else []
        if regions:
            lines.append(f"Region cards still in your hand ({len(regions)}): {', '.join(regions)} — the monster is "
                         "in one of them.")
        if hero.monster:
            lines.append(f"Your monster: **{self.lib.monster[hero.monster].name}**.")
        if secret is not None and secret.lair:
            lines.append(f"Its lair: **{self.lib.province[secret.lair].name}** — travel there and `/attack`.")
        kept = [k.key for k in hero.kept]
        if kept:
            lines.append("Cards in front of you: " + ", ".join(kept) + ".")
        png = art.render_sheet(hero, side_name=side)
        return Telling(text="\n".join(lines), pictures=[
            Picture("sheet.png", png, art.sheet_alt_text(hero, side_name=side)[:1000])])

    def hand(self, moment: ChampionMoment, seat: int) -> Telling | None:
        """What only this seat sees: the hero choice in setup, a hand of cards in a fight, the lair, with the
        controls for it."""
        if moment.status != "active" or seat not in moment.to_act:
            return None
        view = moment.view(seat)
        secret = view.secret
        lib = self.lib
        if view.phase == "setup":
            me = view.heroes[seat]
            if not me.hero:
                menu = [(c.label, c.command) for c in moment.choices(seat) if c.command.verb == "hero"]
                taken = {h.hero for h in view.heroes}
                text = ("Choose your hero, the side of the sheet (its starting numbers) and one of the two starting "
                        "weapons of the hero's people:\n" + "\n".join(
                            f"**{h.name}** — {h.title}, starts in {lib.province[h.start].name}"
                            for h in lib.heroes if h.id not in taken))
                return Telling(text=text, pictures=[], prompt=Prompt(
                    users=[], text="", menus=[Menu(menu[:25], placeholder="Choose your hero…")]))
            offer = [lib.item[i] for i in (secret.offer if secret else ()) if i in lib.item]
            text = (f"You have {me.gold} gold. Two item cards are turned over for you: "
                    + ", ".join(f"**{i.name}** ({i.price} gold)" for i in offer) + ". Buy one, or pass.")
            return Telling(text=text, pictures=[x for i in offer if (x := self.card("item", i.id)) is not None],
                           prompt=self._choices(moment, seat))
        if view.phase == "combat":
            lines = []
            pictures: list[Picture] = []
            if secret is not None and secret.hand:
                lines.append("**Your hand:** " + ", ".join(CARD_NAMES.get(k, k) for k in secret.hand))
                cards = secret.hand_cards or secret.hand
                pictures.append(Picture("hand.png", art.render_hand(cards), art.hand_alt_text(cards)[:1000]))
            for foe in secret.foe_hands if secret else ():
                name = view.combat.foes[foe.foe].name if view.combat else str(foe.foe + 1)
                lines.append(f"**{name}'s hand** (you play it): " + ", ".join(CARD_NAMES.get(k, k) for k in foe.cards))
                title = f"{name}'s hand (you play it)"
                pictures.append(Picture(f"hand-{foe.foe + 1}.png", art.render_hand(foe.cards, title=title),
                                        art.hand_alt_text(foe.cards, title=title)[:1000]))
            lines.append("Your choices are the buttons below; everyone sees each card as it is played.")
            return Telling(text="\n".join(lines), pictures=pictures[:10], prompt=self._choices(moment, seat))
        own = {"lair": "You stand in your monster's lair (only you know it): attack it now, or draw a story card "
                       "as usual.",
               "action": "Your choices this turn: the buttons below (a shrine's lore can be learned the turn after "
                         "you end a turn at the shrine).",
               "fate": "The fate track gives you the choice: pick the story card to be faced.",
               "story": "Choose what you do on the story card" + self._hint(view, seat) + ".",
               "monster": "Choose the mythological monster you will hunt.",
               "item": "Choose the item that is given up" + self._hint(view, seat) + ".",
               "market": "You are at the market: buy one item, or leave it." + self._market_note(view, seat)}
        phase = "lair" if secret is not None and secret.in_lair else view.phase
        return Telling(text=own.get(phase, "Your move: the buttons below."), pictures=[],
                       prompt=self._choices(moment, seat))

    def _market_note(self, view: ChampionView, seat: int) -> str:
        """Why only **Leave** is offered, when nothing on the market can be paid for."""
        if view.phase != "market" or not view.market:
            return ""
        gold = view.heroes[seat].gold
        prices = [max(0, self.lib.item[i].price - view.price_cut) for i in view.market if i in self.lib.item]
        if prices and min(prices) > gold:
            return (f" You have {gold} gold and the cheapest item here costs {min(prices)}, so you can only leave "
                    "the market this time.")
        return f" You have {gold} gold."

    # --- who must act, and the controls they get ------------------------------------------------

    def prompt(self, moment: ChampionMoment) -> Prompt | None:
        if moment.status != "active":
            return None
        view = moment.view()
        acting = sorted(moment.to_act)
        if view.phase == "over" or not acting:
            return None
        users = [moment.user_of(s) for s in acting]
        if view.phase == "setup":
            picking = [s for s in acting if not view.heroes[s].hero]
            buying = [s for s in acting if view.heroes[s].hero]
            pick = "choose your hero (first come, first served), the side of the sheet and a starting weapon"
            buy = "buy one of the two items turned up for you, or pass"
            if not buying:
                what = f"{pick}, then {buy}"
            elif not picking:
                what = buy
            else:
                what = f"{pick} — or, once your hero is chosen, {buy}"
            return Prompt(users=users, text=f"{what} — press **Your choices** (only you see them).",
                          buttons=[_opens_hand("Your choices")])
        if view.phase == "combat":
            return self._combat_prompt(moment, view, acting, users)
        seat = acting[0]
        prompt = self._choices(moment, seat, public=True)
        prompt.users = users
        prompt.text = ASKS.get(view.phase, "your move") + self._hint(view, seat) + self._market_note(view, seat)
        if view.phase == "action":
            prompt.buttons.append(_opens_hand("Your choices"))
        return prompt

    def _hint(self, view: ChampionView, seat: int) -> str:
        if view.phase == "story" and view.story is not None:
            return f" (**{self.lib.story[view.story].title}**)"
        if view.phase == "item" and view.losing is not None:
            owner = view.heroes[view.losing.owner].player
            return f" ({owner}'s item)" if view.heroes[seat].player != owner else ""
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
        menus = [Menu([(label, c.command) for label, c in menu][:25], placeholder="Move: explore, caravan or sail…")]
        return Prompt(users=[], text="", menus=menus if menu else [], buttons=buttons[:20])

    def _combat_prompt(self, moment: ChampionMoment, view: ChampionView, acting: list[int],
                       users: list[int]) -> Prompt:
        c = view.combat
        assert c is not None
        if c.step == "weapon" and acting == [c.hero]:
            p = self._choices(moment, c.hero)
            p.users, p.text = users, "choose the weapon you fight with (it cannot be changed during the fight)"
            return p
        if c.step == "ranged" and acting == [c.hero]:
            p = self._choices(moment, c.hero)
            p.users, p.text = users, "your one ranged attack before melee, if you want it"
            return p
        texts = {
            "hero_attack": "you attack: choose a card and a target",
            "foe_defend": "the opponent must throw a card down (no matching card to defend with)",
            "foe_attack": "play the opponents' attack cards",
            "hero_defend": "you have no matching card: choose the card to throw down",
            "keep": "the combat round is over: choose at most two cards to keep",
        }
        return Prompt(users=users, text=texts.get(c.step, "your move in the fight") + " — press **Your hand** "
                                                                                     "(only you see it).",
                      buttons=[_opens_hand("Your hand")])


PRESENTER = ChampionPresenter()
