"""The web server: a read-only aiohttp application on the bot's own event loop (``WEB_PORT``; off unless set).

Routes (``<t>`` is a game's public token, ``<p>`` a personal part, see ``bot.web.links``)::

    GET /g/<t>[/s/<p>]                     the page (``?step=N``: the board after log entry N)
    GET /g/<t>[/s/<p>]/step?step=N         the same step as JSON, for the page's script (no reload)
    GET /g/<t>[/s/<p>]/pic/<N>/<digest>.png  a picture of that step
    GET /g/<t>[/s/<p>]/live                server-sent events: one line per move, and the end
    GET /static/board.js | board.css       the page's only script and style sheet

Anything else, a token that names no game, a personal link that is forged, expired, revoked or whose seat changed
hands: a plain 404.  Only GET and HEAD; no request body is read (any is refused); each address may ask
``rate`` requests a minute (a burst of half that); every answer carries a strict Content-Security-Policy (no
inline script or style), ``nosniff``, ``no-referrer`` (a personal link never leaks through a Referer) and
``frame-ancestors 'none'``."""

from __future__ import annotations

import asyncio
import hashlib
import ipaddress
import json
import logging
import struct
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp import web
from jinja2 import Environment, FileSystemLoader, select_autoescape
from sqlalchemy import text

from bot.service.records import Records
from bot.web import live
from bot.web.links import Links, PageRow, check_personal, personal_url
from bot.web.pages import Step, step
from rules.i18n import NATIVE, _, _p, using

log = logging.getLogger("tabula.web")
HERE = Path(__file__).parent
STATIC = {"board.js": "text/javascript", "board.css": "text/css"}
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
HEADERS = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
           "X-Frame-Options": "DENY", "Cross-Origin-Opener-Policy": "same-origin",
           "Cross-Origin-Resource-Policy": "same-origin",
           "Permissions-Policy": "camera=(), microphone=(), geolocation=(), interest-cohort=()"}
MAX_STEP = 10_000_000
MAX_STREAMS = 5_000  # live streams one process holds open at most
HEARTBEAT = 15.0  # seconds between the live stream's keep-alive comments
CACHED_STEPS = 12  # steps kept drawn (a step with its pictures is a few hundred KB at most)
FRESH = 1.0  # seconds a page's token and seats, and a game's version, are trusted without reading them again


#: A step asked for: ("step", log entry) or ("at", place among the steps); None: the newest.
Wanted = tuple[str, int] | None


@dataclass(frozen=True, slots=True)
class GameNow:
    """The few columns of a game a request needs first (one small query): they key the drawn steps."""

    version: int
    status: str
    language: str
    clock_deadline: float | None
    paused: int


def png_size(png: bytes) -> tuple[int, int]:
    """A PNG's width and height, from its header."""
    if len(png) >= 24 and png[:8] == b"\x89PNG\r\n\x1a\n":
        width, height = struct.unpack(">II", png[16:24])
        return int(width), int(height)
    return 0, 0


class RateLimit:
    """A token bucket per client address: ``per_minute`` requests a minute, bursts of half that."""

    def __init__(self, per_minute: int, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = per_minute / 60.0
        self.burst = max(4.0, per_minute / 2)
        self.clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def allow(self, who: str) -> bool:
        now = self.clock()
        tokens, then = self._buckets.pop(who, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        allowed = tokens >= 1.0
        self._buckets[who] = (tokens - 1.0 if allowed else tokens, now)
        while len(self._buckets) > 10_000:  # forget the oldest addresses first
            self._buckets.popitem(last=False)
        return allowed


def client_address(request: web.Request) -> str:
    """The asking address: the peer, or the last hop a reverse proxy on this machine names."""
    peer = request.remote or "?"
    try:
        local = ipaddress.ip_address(peer).is_loopback
    except ValueError:
        local = False
    forwarded = request.headers.get("X-Forwarded-For", "")
    if local and forwarded:
        return forwarded.split(",")[-1].strip()[:64] or peer
    return peer


def labels() -> dict[str, str]:
    """The page's own words, in the language of the moment."""
    return {
        "board": _("The board"), "zoom_in": _("Zoom in"), "zoom_out": _("Zoom out"), "fit": _("Fit the board"),
        "viewer": _("The board: drag or use the arrow keys to move it, + and − to zoom, 0 to fit it again."),
        "history": _("History"), "first": _("First"), "previous": _("Previous"), "next": _("Next"),
        "last": _("Newest"), "slider": _("Step through the game"), "players": _("Players"),
        "to_act": _("to act"), "you": _("you"), "recent": _("The last moves"), "none_yet": _("No moves yet."),
        "words": _("The board in words"), "yours": _("Only you see this part: your personal link."),
        "private": _("Your own view"), "live": _("Live: this page follows the game."),
        "offline": _("Not live: reload the page to follow the game again."),
        "newer": _("There are newer moves: press Newest to see them."),
        "read_only": _("This page only shows the game: moves are made on Discord."),
    }


def where_text(shown: Step) -> str:
    if shown.number == 0:
        return _("The start (step 1 of {steps})", steps=len(shown.steps))
    return _("Step {step} of {steps}: after move {move} of {moves}", step=shown.index + 1, steps=len(shown.steps),
             move=shown.number, moves=shown.total)


def status_text(status: str) -> str:
    return _p("status", "running") if status == "active" else _p("status", status)


class WebServer:
    """The game pages of one process (any process serves any game: everything is read from the database)."""

    def __init__(self, db: Any, *, base_url: str, link_days: float = 30.0, rate_per_minute: int = 240,
                 poll: float = 1.0, clock: Callable[[], float] = time.time) -> None:
        self.db, self.base_url, self.clock = db, base_url.rstrip("/"), clock
        self.links = Links(db.engine, link_days=link_days, clock=clock)
        self.records = Records(db.sessions)
        self.hub = live.Hub(db.engine, poll=poll)
        self.limit = RateLimit(rate_per_minute)
        self.runner: web.AppRunner | None = None
        self._steps: OrderedDict[tuple[Any, ...], Step] = OrderedDict()
        self._drawing: dict[tuple[Any, ...], asyncio.Future[Step]] = {}
        self._tokens: dict[int, str] = {}
        #: token -> (when read, the page, its seats' players): a revocation made by another process is honoured
        #: within ``FRESH`` seconds (at once in this one)
        self._pages: OrderedDict[str, tuple[float, PageRow, dict[int, int]]] = OrderedDict()
        #: game -> (when read, its version and the rest): dropped at once when the hub hears of a move
        self._games: dict[int, tuple[float, GameNow]] = {}
        self._json: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()  # the step JSON, per step and page
        self.env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html"]),
                               trim_blocks=True, lstrip_blocks=True)
        self.static = {name: (HERE / "static" / name).read_bytes() for name in STATIC}
        self.versions = {name: hashlib.sha256(data).hexdigest()[:10] for name, data in self.static.items()}
        self.hub.render = self._pushed
        live.watch_moves(db, self._moved)

    # --- what the bot asks of it -------------------------------------------------------------------------

    async def public_url(self, game_id: int) -> str:
        """The game's public page (its token is read once per process, then kept: it never changes)."""
        token = self._tokens.get(game_id)
        if token is None:
            token = (await self.links.page(game_id)).token
            if len(self._tokens) > 50_000:
                self._tokens.clear()
            self._tokens[game_id] = token
        return f"{self.base_url}/g/{token}"

    async def personal_url(self, game_id: int, seat: int, user_id: int) -> tuple[str, int]:
        row, part, expires = await self.links.personal(game_id, seat, user_id)
        return personal_url(self.base_url, row, part), expires

    async def revoke(self, game_id: int, seat: int) -> None:
        await self.links.revoke(game_id, seat)
        for token in [t for t, (_at, row, _s) in self._pages.items() if row.game_id == game_id]:
            del self._pages[token]

    def _moved(self, game_id: int) -> None:
        self._games.pop(game_id, None)
        self.hub.moved(game_id)

    # --- running ------------------------------------------------------------------------------------------

    async def start(self, host: str, port: int) -> int:
        """Listen on ``host:port`` (0: any free port); returns the port."""
        self.runner = web.AppRunner(self.application(), access_log=None, handle_signals=False, shutdown_timeout=2.0)
        await self.runner.setup()
        await web.TCPSite(self.runner, host, port).start()
        bound = next((int(a[1]) for a in self.runner.addresses if isinstance(a, tuple) and len(a) >= 2), port)
        log.info("game pages on http://%s:%d (links say %s)", host, bound, self.base_url)
        return bound

    async def close(self) -> None:
        await self.hub.close()
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None

    def application(self) -> web.Application:
        app = web.Application(client_max_size=1024, middlewares=[self._guard])
        for suffix, handler in (("", self._page), ("/step", self._step_json), ("/live", self._live),
                                ("/pic/{step:[0-9]{1,8}}/{digest:[0-9a-f]{16}}.png", self._picture)):
            app.router.add_get("/g/{token}" + suffix, handler)
            app.router.add_get("/g/{token}/s/{personal}" + suffix, handler)
        app.router.add_get("/static/{name}", self._static)
        return app

    # --- the guard every request passes ---------------------------------------------------------------------

    @web.middleware
    async def _guard(self, request: web.Request,
                     handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        try:
            if request.method not in ("GET", "HEAD"):
                response: web.StreamResponse = web.Response(status=405, text="405: Method Not Allowed",
                                                            headers={"Allow": "GET, HEAD"})
            elif request.content_length or request.body_exists:
                response = web.Response(status=413, text="413: Request Entity Too Large")
            elif not self.limit.allow(client_address(request)):
                response = web.Response(status=429, text="429: Too Many Requests", headers={"Retry-After": "10"})
            else:
                response = await handler(request)
        except web.HTTPException as err:
            response = web.Response(status=err.status, text=f"{err.status}: {err.reason}")
        except (asyncio.CancelledError, ConnectionResetError):
            raise
        except Exception:
            log.exception("web: %s failed", request.path[:80])
            response = web.Response(status=500, text="500: Internal Server Error")
        if not response.prepared:  # (a live stream set its headers itself)
            response.headers.update(HEADERS)
        return response

    # --- finding the game and the step ------------------------------------------------------------------------

    async def _page_of(self, token: str) -> tuple[PageRow, dict[int, int]] | None:
        """The page a token names and its seats' players (read at most every ``FRESH`` seconds)."""
        kept = self._pages.get(token)
        if kept is not None and time.monotonic() - kept[0] < FRESH:
            return kept[1], kept[2]
        row = await self.links.find(token)
        if row is None:
            return None
        async with self.db.engine.connect() as conn:
            seats = (await conn.execute(text("SELECT seat, user_id FROM seat WHERE game_id = :g"),
                                        {"g": row.game_id})).all()
        users = {int(s): int(u) for s, u in seats}
        self._pages[token] = (time.monotonic(), row, users)
        while len(self._pages) > 2_000:
            self._pages.popitem(last=False)
        return row, users

    async def _found(self, request: web.Request) -> tuple[PageRow, int | None, str]:
        """The page, the seat a personal part opens (None: the public page) and the page's own path."""
        found = await self._page_of(request.match_info["token"])
        if found is None:
            raise web.HTTPNotFound()
        row, users = found
        part = request.match_info.get("personal")
        if part is None:
            return row, None, f"/g/{row.token}"
        seat = check_personal(row, part, users, self.clock())
        if seat is None:
            raise web.HTTPNotFound()
        return row, seat, f"/g/{row.token}/s/{part}"

    async def _now(self, game_id: int) -> GameNow:
        """The game's version and the rest (kept for ``FRESH`` seconds, or until the hub hears of a move)."""
        kept = self._games.get(game_id)
        if kept is not None and time.monotonic() - kept[0] < FRESH:
            return kept[1]
        async with self.db.engine.connect() as conn:
            row = (await conn.execute(text("SELECT version, status, language, clock_deadline, paused FROM game "
                                           "WHERE id = :g"), {"g": game_id})).first()
        if row is None or row[1] == "lobby":
            raise web.HTTPNotFound()
        now = GameNow(int(row[0]), str(row[1]), str(row[2] or "en"), row[3], int(row[4] or 0))
        if len(self._games) > 10_000:
            self._games.clear()
        self._games[game_id] = (time.monotonic(), now)
        return now

    async def shown(self, row: PageRow, seat: int | None, number: Wanted) -> tuple[Step, GameNow]:
        """The step to show (drawn once per game version, step and seat, whoever asks and however many do)."""
        now = await self._now(row.game_id)
        key = (row.game_id, now, number, seat)
        found = self._steps.get(key)
        if found is not None:
            self._steps.move_to_end(key)
            return found, now
        pending = self._drawing.get(key)
        if pending is None:
            pending = asyncio.ensure_future(self._draw(row, seat, number, now))
            self._drawing[key] = pending
            pending.add_done_callback(lambda _f: self._drawing.pop(key, None))
        made = await asyncio.shield(pending)
        self._steps[key] = made
        while len(self._steps) > CACHED_STEPS:
            self._steps.popitem(last=False)
        return made, now

    async def _draw(self, row: PageRow, seat: int | None, number: Wanted, now: GameNow) -> Step:
        with using(now.language):
            game = await self.records.game(row.game_id, row.guild_id)
            lines = await self.records.lines(game)
            at = number[1] if number is not None and number[0] == "step" else None
            index = number[1] if number is not None and number[0] == "at" else None
            return await asyncio.to_thread(step, game, lines, at, seat, language=now.language, index=index,
                                           clock_deadline=now.clock_deadline, paused=now.paused)

    @staticmethod
    def _number(request: web.Request) -> Wanted:
        """The step asked for: ``?step=N`` (the board after log entry N) or ``?at=I`` (the I-th step, from 0:
        what the slider asks), else the newest."""
        for name in ("step", "at"):
            raw = request.query.get(name)
            if raw is None or raw == "":
                continue
            if not raw.isascii() or not raw.isdigit() or len(raw) > 8:
                raise web.HTTPNotFound()
            return name, min(int(raw), MAX_STEP)
        return None

    # --- the routes ------------------------------------------------------------------------------------------

    def _state(self, path: str, shown: Step, now: GameNow) -> dict[str, Any]:
        """What the page's script reads: the step, its neighbours, the board and the fragment below it."""
        board = shown.pictures[0] if shown.pictures else None
        width, height = png_size(board.picture.png) if board else (0, 0)
        return {
            "version": now.version, "step": shown.number, "first": shown.first, "previous": shown.previous,
            "next": shown.next,
            "last": shown.last, "index": shown.index, "count": len(shown.steps), "status": now.status,
            "statusText": status_text(now.status),
            "where": where_text(shown), "board": f"{path}/pic/{shown.number}/{board.digest}.png" if board else None,
            "alt": board.alt if board else "", "width": width, "height": height}

    async def _page(self, request: web.Request) -> web.Response:
        row, seat, path = await self._found(request)
        shown, now = await self.shown(row, seat, self._number(request))
        with using(now.language):
            state = self._state(path, shown, now)
            html = self.env.get_template("page.html").render(
                s=shown, state=state, path=path, L=labels(), lang=now.language, seat=seat,
                status=status_text(now.status), static=self.versions, language=NATIVE.get(now.language, ""),
                state_json=json.dumps(state))
        return web.Response(text=html, content_type="text/html", charset="utf-8",
                            headers={"Cache-Control": "no-store"})

    async def _step_json(self, request: web.Request) -> web.Response:
        row, seat, path = await self._found(request)
        body = await self.step_json(row, seat, path, self._number(request))
        return web.Response(body=body, content_type="application/json", headers={"Cache-Control": "no-store"})

    async def step_json(self, row: PageRow, seat: int | None, path: str, number: Wanted) -> bytes:
        """A step as the page's script reads it (made once per step and page, whoever asks)."""
        shown, now = await self.shown(row, seat, number)
        key = (row.game_id, now, number, seat, path)
        body = self._json.get(key)
        if body is None:
            with using(now.language):
                state = self._state(path, shown, now)
                state["html"] = self.env.get_template("frame.html").render(s=shown, path=path, L=labels(), seat=seat)
            body = json.dumps(state).encode()
            self._json[key] = body
            while len(self._json) > 2 * CACHED_STEPS:
                self._json.popitem(last=False)
        return body

    async def _pushed(self, game_id: int) -> str | None:
        """What the live stream carries after a move: the public page's newest step itself, so that public pages
        following the game need no request of their own (personal pages fetch theirs)."""
        self._games.pop(game_id, None)
        row = await self.links.page(game_id)
        return (await self.step_json(row, None, f"/g/{row.token}", None)).decode()

    async def _picture(self, request: web.Request) -> web.Response:
        row, seat, _path = await self._found(request)
        shown, _now = await self.shown(row, seat, ("step", int(request.match_info["step"])))
        digest = request.match_info["digest"]
        pictures = [*shown.pictures, *(p for view in shown.private for p in view.pictures)]
        for picture in pictures:
            if picture.digest == digest:
                cache = ("private" if seat is not None else "public") + ", max-age=31536000, immutable"
                return web.Response(body=picture.picture.png, content_type="image/png",
                                    headers={"Cache-Control": cache})
        raise web.HTTPNotFound()

    async def _live(self, request: web.Request) -> web.StreamResponse:
        row, _seat, _path = await self._found(request)
        now = await self._now(row.game_id)
        if request.method == "HEAD":
            return web.Response(content_type="text/event-stream", headers={"Cache-Control": "no-store"})
        if self.hub.open_streams() >= MAX_STREAMS:  # the page falls back to "not live" and can be reloaded
            return web.Response(status=503, text="503: Service Unavailable", headers={"Retry-After": "30"})
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store",
                                               "X-Accel-Buffering": "no", **HEADERS})
        await response.prepare(request)
        queue = self.hub.subscribe(row.game_id)
        try:
            # the version the stream starts from: a page drawn before it (or reconnecting) catches up at once
            await response.write(b"retry: 3000\nevent: hello\ndata: " + json.dumps({"version": now.version}).encode()
                                 + b"\n\n")
            while True:
                try:
                    data = await asyncio.wait_for(queue.get(), HEARTBEAT)
                except TimeoutError:
                    await response.write(b": beat\n\n")
                    continue
                if not data:  # the server is closing
                    break
                await response.write(data)
        except ConnectionResetError:
            pass
        finally:
            self.hub.unsubscribe(row.game_id, queue)
        return response

    async def _static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in STATIC:
            raise web.HTTPNotFound()
        return web.Response(body=self.static[name], content_type=STATIC[name],
                            headers={"Cache-Control": "public, max-age=86400"})


__all__ = ["CSP", "HEADERS", "RateLimit", "WebServer", "client_address", "labels", "png_size"]
