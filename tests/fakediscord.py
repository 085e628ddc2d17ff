"""A loopback fake of Discord (REST API v10 + gateway) for testing a discord.py bot end to end.

Why: dpytest cannot drive interactions, and patching ``HTTPClient`` misses interaction responses (they go
through the webhook adapter's own requests).  Instead this module runs a small aiohttp server on
127.0.0.1 that speaks enough of Discord's protocol for discord.py's *real* code paths to run: login,
gateway IDENTIFY/READY/GUILD_CREATE, INTERACTION_CREATE parsing, app command dispatch, views and
``DynamicItem`` lookup, interaction callbacks, followups, messages, threads.  Every HTTP request the bot
makes is recorded, so tests assert on what the bot actually sent.

Pieces
------
``FakeDiscord``
    The server.  Holds a small world (one guild, a ``#general`` text channel, users ``alice``, ``bob``,
    ``carol`` and ``owner``, the bot user), the messages and threads the bot created, the application
    commands it synced, and every interaction it was sent.  It also builds gateway payloads
    (:meth:`FakeDiscord.slash`, :meth:`FakeDiscord.autocomplete`, :meth:`FakeDiscord.component`,
    :meth:`FakeDiscord.modal_submit`), pushes events (:meth:`FakeDiscord.dispatch`) and runs one
    interaction to completion (:meth:`FakeDiscord.interact`), which also works for a bot running in a
    subprocess.

``FakeDiscordHarness``
    ``async with FakeDiscordHarness(make_bot) as h:`` starts a fake (or reuses one), patches discord.py's
    endpoints, logs the bot in, connects it **through the fake gateway** in a background task and waits
    for ``on_ready``.  ``await h.slash(...)``, ``h.click(...)`` ... return an :class:`InteractionReply`
    once the bot has finished handling that interaction.  ERROR log records from the ``discord`` logger
    (where discord.py reports handler exceptions) fail the test, as do requests to unknown routes.

Design choices (see also DESIGN.md §6)
--------------------------------------
* Gateway mode rather than calling ``bot._connection.parsers`` directly: it runs the same code as
  production (including ``setup_hook`` ordering, READY, GUILD_CREATE, sequence numbers, zlib-stream
  decompression) and it is the only way to drive a bot in another process.  The one concession to speed
  is lowering ``guild_ready_timeout`` (discord.py waits 2 s after the last GUILD_CREATE before
  ``on_ready``); the harness sets it to 0.05 s on the bot it starts.
* Completion of an interaction = the interaction has been acknowledged, no HTTP request has been in
  flight or arrived for ``quiet`` seconds (default 0.05) and, in-process, no discord.py handler task
  spawned since the dispatch (``CommandTree-invoker``, ``discord-ui-*``, ``discord.py: on_*``) is
  still running.  For a subprocess only the first two apply.
* Like Discord: without the GUILD_PRESENCES intent GUILD_CREATE lists only the bot's own member;
  MESSAGE_CREATE/UPDATE are sent only with GUILD_MESSAGES; the callback must come within 3 s
  (``interaction_deadline``) or it gets 404 "Unknown interaction"; a second callback gets 400
  "already acknowledged"; a followup before the callback gets 404 "Unknown Webhook"; the first followup
  after a "thinking" defer replaces the loading message; a thread started from a message has the
  message's id.  Message bodies are checked against Discord's main limits (content 2000, 10 embeds,
  embed limits, 5 rows x 5 buttons, custom_id 100, 25 choices/options ...) and answered 400 otherwise.

Subprocess bots: start a ``FakeDiscord``, run the bot with ``TABULA_FAKE_DISCORD=fake.url`` and token
``fake.token``; the bot calls ``bot.ops.testing_endpoints.patch_from_env()`` at startup.  Then
``await fake.wait_until_connected()`` and ``await fake.interact(fake.slash(fake.alice, fake.channel,
"cmd", {...}))``.

Not covered: DMs, voice, stickers, polls' results, context-menu payload builders, rate limits (no
rate-limit headers are sent, so discord.py never waits).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import datetime as _dt
import inspect
import json
import logging
import mimetypes
import re
import secrets
import struct
import time
import zlib
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Self

import aiohttp
import discord
from aiohttp import web

from bot.ops.testing_endpoints import (
    API_VERSION_PATH,
    Endpoints,
    patch_discord_endpoints,
    restore_discord_endpoints,
)

__all__ = [
    "ErrorGuard",
    "FakeAttachment",
    "FakeDiscord",
    "FakeDiscordHarness",
    "InteractionRecord",
    "InteractionReply",
    "Pings",
    "RecordedRequest",
    "SnowflakeFactory",
    "StoredMessage",
    "ThreadInfo",
    "UploadedFile",
    "compute_pings",
    "member_payload",
    "patch_discord_endpoints",
    "restore_discord_endpoints",
    "role_payload",
    "text_channel_payload",
    "thread_payload",
    "user_payload",
    "walk_components",
]

_log = logging.getLogger(__name__)

JSON = dict[str, Any]
UserLike = Mapping[str, Any] | int | str
ChannelLike = Mapping[str, Any] | int | str

DISCORD_EPOCH_MS = 1_420_070_400_000
#: Default upload limit carried in interaction payloads (25 MiB, an unboosted guild).
ATTACHMENT_SIZE_LIMIT = 25 * 1024 * 1024

# Message flags and interaction constants used below.
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_COMPONENTS_V2 = 1 << 15

INTERACTION_PING, INTERACTION_COMMAND, INTERACTION_COMPONENT = 1, 2, 3
INTERACTION_AUTOCOMPLETE, INTERACTION_MODAL_SUBMIT = 4, 5

CALLBACK_PONG, CALLBACK_MESSAGE, CALLBACK_DEFER = 1, 4, 5
CALLBACK_DEFER_UPDATE, CALLBACK_UPDATE, CALLBACK_AUTOCOMPLETE, CALLBACK_MODAL = 6, 7, 8, 9

# Gateway intents that change what the fake sends.
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_PRESENCES = 1 << 8
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_MESSAGE_CONTENT = 1 << 15

#: Permissions of @everyone in the fake guild: what a normal player can do.
EVERYONE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    read_message_history=True,
    add_reactions=True,
    embed_links=True,
    attach_files=True,
    use_application_commands=True,
    use_external_emojis=True,
)
#: Permissions of the bot's managed role (on top of @everyone).
BOT_PERMISSIONS = discord.Permissions(
    manage_messages=True,
    manage_threads=True,
    create_private_threads=True,
    mention_everyone=False,
)

#: Name prefixes of the asyncio tasks discord.py creates to run handlers for one event.
_HANDLER_TASK_PREFIXES = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch-",
    "discord-ui-dynamic-item-",
    "discord-ui-modal-dispatch-",
    "discord.py: ",
)


# --------------------------------------------------------------------------------------------------------
# Small helpers


class SnowflakeFactory:
    """Monotonic snowflakes whose timestamp part is the current time (so ``created_at`` is sensible)."""

    def __init__(self) -> None:
        self._last = 0

    def __call__(self) -> int:
        candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(candidate, self._last + 1)
        return self._last


def _now_iso() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat()


def _snowflake(value: Any) -> int:
    """Accept an int, a numeric string or a payload with an ``id``."""
    if isinstance(value, Mapping):
        value = value["id"] if "id" in value else value["user"]["id"]  # a member payload has no id
    if hasattr(value, "id") and not isinstance(value, (int, str)):
        value = value.id
    return int(value)


class _JsonResponse(web.Response):
    """A JSON response that remembers the object it encodes (for the request log)."""

    def __init__(self, data: Any, status: int) -> None:
        # discord.py only decodes a body whose Content-Type is *exactly* "application/json"
        # (no "; charset=utf-8"), so the header is set by hand.
        super().__init__(
            status=status, body=json.dumps(data).encode(), headers={"Content-Type": "application/json"}
        )
        self.fake_json = data


def _json_response(data: Any, status: int = 200) -> web.Response:
    return _JsonResponse(data, status)


def _no_content() -> web.Response:
    return web.Response(status=204)


def _error(status: int, message: str, code: int, errors: JSON | None = None) -> web.Response:
    body: JSON = {"message": message, "code": code}
    if errors:
        body["errors"] = errors
    return _json_response(body, status)


class _ApiError(Exception):
    """Raised inside handlers; turned into a Discord-shaped JSON error response."""

    def __init__(self, status: int, message: str, code: int, errors: JSON | None = None) -> None:
        super().__init__(f"{status} {message} (code {code})")
        self.status, self.message, self.code, self.errors = status, message, code, errors

    def response(self) -> web.Response:
        return _error(self.status, self.message, self.code, self.errors)


def _invalid_form(path: str, message: str) -> _ApiError:
    return _ApiError(
        400,
        "Invalid Form Body",
        50035,
        {path: {"_errors": [{"code": "BASE_TYPE_INVALID", "message": message}]}},
    )


def _png_size(data: bytes) -> tuple[int, int] | None:
    """Width and height of a PNG image, read from its IHDR chunk."""
    if len(data) >= 24 and data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    return None


def walk_components(components: Iterable[Any]) -> Iterator[JSON]:
    """Every component dict in a (possibly nested, components v2) component tree, depth first."""
    for component in components:
        if not isinstance(component, Mapping):
            continue
        yield dict(component)  # a shallow copy: callers must not mutate stored payloads by accident
        for key in ("components", "items"):
            nested = component.get(key)
            if isinstance(nested, list):
                yield from walk_components(nested)
        for key in ("accessory", "component"):
            nested = component.get(key)
            if isinstance(nested, Mapping):
                yield from walk_components([nested])


# --------------------------------------------------------------------------------------------------------
# Payload builders (plain functions; the FakeDiscord methods fill in its own ids)


def user_payload(user_id: int, username: str, *, bot: bool = False, global_name: str | None = None) -> JSON:
    """A user object as Discord sends it (new username system: discriminator "0")."""
    data: JSON = {
        "id": str(user_id),
        "username": username,
        "global_name": global_name if global_name is not None else (None if bot else username.title()),
        "discriminator": "0",
        "avatar": None,
        "avatar_decoration_data": None,
        "public_flags": 0,
        "flags": 0,
        "banner": None,
        "accent_color": None,
        "primary_guild": None,
        "collectibles": None,
    }
    if bot:
        data["bot"] = True
    return data


def member_payload(
    user: Mapping[str, Any],
    roles: Iterable[int] = (),
    *,
    joined_at: str | None = None,
    nick: str | None = None,
    permissions: int | None = None,
) -> JSON:
    """A guild member object with its ``user``; ``permissions`` is added for interaction payloads."""
    data: JSON = {
        "user": dict(user),
        "roles": [str(r) for r in roles],
        "joined_at": joined_at or _now_iso(),
        "nick": nick,
        "avatar": None,
        "banner": None,
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
        "avatar_decoration_data": None,
    }
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def role_payload(
    role_id: int,
    name: str,
    permissions: int,
    *,
    position: int = 0,
    managed: bool = False,
    tags: JSON | None = None,
) -> JSON:
    data: JSON = {
        "id": str(role_id),
        "name": name,
        "permissions": str(permissions),
        "position": position,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "managed": managed,
        "mentionable": False,
        "flags": 0,
    }
    if tags is not None:
        data["tags"] = tags
    return data


def text_channel_payload(
    channel_id: int, guild_id: int, name: str, *, position: int = 0, parent_id: int | None = None
) -> JSON:
    return {
        "id": str(channel_id),
        "type": 0,
        "guild_id": str(guild_id),
        "name": name,
        "position": position,
        "permission_overwrites": [],
        "topic": None,
        "nsfw": False,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "parent_id": str(parent_id) if parent_id else None,
        "default_auto_archive_duration": 1440,
        "default_thread_rate_limit_per_user": 0,
        "flags": 0,
    }


def thread_payload(
    thread_id: int,
    guild_id: int,
    parent_id: int,
    owner_id: int,
    name: str,
    *,
    type: int = 11,
    auto_archive_duration: int = 1440,
    rate_limit_per_user: int = 0,
    invitable: bool = True,
) -> JSON:
    """A thread channel object (type 11 public, 12 private)."""
    now = _now_iso()
    metadata: JSON = {
        "archived": False,
        "auto_archive_duration": auto_archive_duration,
        "archive_timestamp": now,
        "locked": False,
        "create_timestamp": now,
    }
    if type == 12:
        metadata["invitable"] = invitable
    return {
        "id": str(thread_id),
        "type": type,
        "guild_id": str(guild_id),
        "parent_id": str(parent_id),
        "owner_id": str(owner_id),
        "name": name,
        "last_message_id": None,
        "rate_limit_per_user": rate_limit_per_user,
        "message_count": 0,
        "member_count": 0,
        "total_message_sent": 0,
        "flags": 0,
        "thread_metadata": metadata,
    }


# --------------------------------------------------------------------------------------------------------
# Records


@dataclass
class UploadedFile:
    """One ``files[n]`` part of a multipart request."""

    index: int
    filename: str
    data: bytes
    content_type: str | None
    description: str | None = None


@dataclass
class RecordedRequest:
    """One HTTP request the bot made to the fake REST API."""

    method: str
    path: str  # relative to /api/v10, e.g. "/channels/1/messages"
    query: dict[str, str]
    json: Any  # the JSON body, or the parsed ``payload_json`` of a multipart body; None if no body
    files: list[UploadedFile]
    at: float  # loop.time() when it arrived
    status: int | None = None
    response: Any = None
    unknown_route: bool = False

    def __repr__(self) -> str:
        return f"<{self.method} {self.path} -> {self.status}>"


@dataclass
class FakeAttachment:
    """A file stored on a message (bytes kept, served back at ``url``)."""

    id: int
    filename: str
    data: bytes
    description: str | None
    content_type: str | None
    url: str

    @property
    def size(self) -> int:
        return len(self.data)

    def to_payload(self) -> JSON:
        payload: JSON = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            payload["description"] = self.description
        dims = _png_size(self.data)
        if dims is not None:
            payload["width"], payload["height"] = dims
        return payload


@dataclass(frozen=True)
class Pings:
    """Who a message notifies, per its content and ``allowed_mentions`` (Discord's rules)."""

    users: frozenset[int]
    roles: frozenset[int]
    everyone: bool

    @property
    def nobody(self) -> bool:
        return not self.users and not self.roles and not self.everyone


_USER_MENTION = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"<@&(\d+)>")


def compute_pings(content: str, allowed_mentions: Mapping[str, Any] | None) -> Pings:
    """Apply Discord's allowed-mentions rules: no object means everything in the content pings;
    an object allows only its ``parse`` types plus its explicit ``users``/``roles`` ids."""
    users = {int(m) for m in _USER_MENTION.findall(content or "")}
    roles = {int(m) for m in _ROLE_MENTION.findall(content or "")}
    everyone = "@everyone" in (content or "") or "@here" in (content or "")
    if allowed_mentions is None:
        return Pings(frozenset(users), frozenset(roles), everyone)
    parse = set(allowed_mentions.get("parse") or [])
    allowed_users = (
        users if "users" in parse else users & {int(u) for u in allowed_mentions.get("users") or []}
    )
    allowed_roles = (
        roles if "roles" in parse else roles & {int(r) for r in allowed_mentions.get("roles") or []}
    )
    return Pings(frozenset(allowed_users), frozenset(allowed_roles), everyone and "everyone" in parse)


class _MessageFields:
    """Read-only accessors shared by a stored message and an interaction's reply data."""

    @property
    def _body(self) -> JSON:
        raise NotImplementedError

    @property
    def content(self) -> str:
        return self._body.get("content") or ""

    @property
    def embeds(self) -> list[JSON]:
        return self._body.get("embeds") or []

    @property
    def components(self) -> list[JSON]:
        return self._body.get("components") or []

    @property
    def flags(self) -> int:
        return int(self._body.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)


@dataclass
class StoredMessage(_MessageFields):
    """A message in the fake, as Discord would return it (``payload``) plus the uploaded bytes."""

    payload: JSON
    files: list[FakeAttachment]
    allowed_mentions: JSON | None = None
    deleted: bool = False
    #: Who Discord notified when the message was posted (or when a follow-up filled a deferred answer): an
    #: edit notifies nobody, whatever mentions it adds (``pings`` reads the message as it is now).
    notified: Pings | None = None
    reactions: set[str] = field(default_factory=set)
    history: list[JSON] = field(default_factory=list)  # earlier versions of ``payload`` (edits)

    @property
    def id(self) -> int:
        return int(self.payload["id"])

    @property
    def channel_id(self) -> int:
        return int(self.payload["channel_id"])

    @property
    def author_id(self) -> int:
        return int(self.payload["author"]["id"])

    @property
    def _body(self) -> JSON:
        return self.payload

    @property
    def loading(self) -> bool:
        return bool(self.flags & FLAG_LOADING)

    @property
    def attachments(self) -> list[FakeAttachment]:
        return list(self.files)

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in walk_components(self.components) if "custom_id" in c]

    def component(self, custom_id: str | None = None, *, label: str | None = None) -> JSON:
        """The first component with that custom_id (exact) or label; KeyError if none."""
        for comp in walk_components(self.components):
            if custom_id is not None and comp.get("custom_id") != custom_id:
                continue
            if label is not None and comp.get("label") != label:
                continue
            if custom_id is None and label is None:
                continue
            return comp
        raise KeyError(
            f"no component custom_id={custom_id!r} label={label!r} in message {self.id}; has {self.custom_ids}"
        )

    @property
    def pings(self) -> Pings:
        return compute_pings(self.content, self.allowed_mentions)

    def __repr__(self) -> str:
        head = self.content[:40]
        return f"<StoredMessage id={self.id} channel={self.channel_id} flags={self.flags} content={head!r}>"


@dataclass
class ThreadInfo:
    """A thread the bot created, with its members."""

    payload: JSON
    member_ids: set[int] = field(default_factory=set)
    starter_message_id: int | None = None
    deleted: bool = False

    @property
    def id(self) -> int:
        return int(self.payload["id"])

    @property
    def name(self) -> str:
        return str(self.payload["name"])

    @property
    def parent_id(self) -> int:
        return int(self.payload["parent_id"])

    @property
    def type(self) -> int:
        return int(self.payload["type"])

    @property
    def archived(self) -> bool:
        return bool(self.payload["thread_metadata"]["archived"])

    @property
    def locked(self) -> bool:
        return bool(self.payload["thread_metadata"].get("locked", False))


@dataclass
class InteractionRecord:
    """The fake's bookkeeping for one interaction it dispatched."""

    payload: JSON
    dispatched_at: float
    callback_type: int | None = None
    callback_data: JSON | None = None
    callback_files: list[FakeAttachment] = field(default_factory=list)
    original_message_id: int | None = None  # the message @original refers to
    created_original: bool = False  # whether the callback created that message (types 4/5)
    followup_ids: list[int] = field(default_factory=list)
    requests: list[RecordedRequest] = field(default_factory=list)

    @property
    def id(self) -> int:
        return int(self.payload["id"])

    @property
    def token(self) -> str:
        return str(self.payload["token"])

    @property
    def type(self) -> int:
        return int(self.payload["type"])

    @property
    def channel_id(self) -> int:
        return int(self.payload["channel_id"])

    @property
    def source_message_id(self) -> int | None:
        message = self.payload.get("message")
        return int(message["id"]) if message else None

    @property
    def user(self) -> JSON:
        user: JSON = self.payload["member"]["user"] if "member" in self.payload else self.payload["user"]
        return user


@dataclass
class InteractionReply(_MessageFields):
    """What the bot sent in answer to one interaction, once it had finished handling it."""

    interaction_id: int
    token: str
    callback_type: int | None  # 4 message, 5 defer, 6 deferred update, 7 update, 8 autocomplete, 9 modal
    data: JSON  # the callback's ``data`` object ({} if none)
    attachments: list[FakeAttachment]  # files sent with the callback (bytes + description)
    original: StoredMessage | None  # the message @original designates, in its current state
    followups: list[StoredMessage]  # followup messages, in their current state
    requests: list[RecordedRequest]  # requests made with this interaction's token
    other_requests: list[RecordedRequest]  # other requests made while it was being handled

    @property
    def _body(self) -> JSON:
        """What the person sees as the answer: the callback's message, or, after a deferral, the message that
        replaced "thinking…" (type 5) or the first follow-up (type 6)."""
        shown = self.shown
        return shown.payload if shown is not None else self.data

    @property
    def shown(self) -> StoredMessage | None:
        """The message a deferred answer was delivered in (None: not deferred, or nothing delivered yet)."""
        if self.callback_type == CALLBACK_DEFER and self.original is not None and not self.original.loading:
            return self.original
        if self.callback_type == CALLBACK_DEFER_UPDATE and self.followups:
            return self.followups[0]
        return None

    @property
    def deferred(self) -> bool:
        return self.callback_type in (CALLBACK_DEFER, CALLBACK_DEFER_UPDATE)

    @property
    def choices(self) -> list[JSON]:
        """Autocomplete choices (type 8)."""
        return self.data.get("choices") or []

    @property
    def modal(self) -> JSON | None:
        """The modal the bot opened (type 9): ``{custom_id, title, components}``."""
        return self.data if self.callback_type == CALLBACK_MODAL else None

    @property
    def messages(self) -> list[StoredMessage]:
        """The messages this interaction produced (new original, then followups), current state."""
        result: list[StoredMessage] = []
        if self.original is not None and self.callback_type in (CALLBACK_MESSAGE, CALLBACK_DEFER):
            result.append(self.original)
        result.extend(m for m in self.followups if m not in result)
        return result

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in walk_components(self.components) if "custom_id" in c]


# --------------------------------------------------------------------------------------------------------
# Gateway connection


class _GatewayConnection:
    """One client websocket: serialises sends, numbers dispatches, compresses if asked."""

    def __init__(self, ws: web.WebSocketResponse, compress: str | None) -> None:
        self.ws = ws
        self.seq = 0
        self.identify: JSON | None = None
        self.ready = False
        self.session_id = secrets.token_hex(16)
        self.transport: Any = None  # the TCP connection under it (``FakeDiscord.drop_gateway`` aborts it)
        self._lock = asyncio.Lock()
        # discord.py asks for zlib-stream (or zstd-stream if the zstandard package is installed). We
        # honour zlib-stream so its decompression path runs; anything else gets plain text frames,
        # which discord.py also accepts.
        self._zlib = zlib.compressobj() if compress == "zlib-stream" else None

    @property
    def intents(self) -> int:
        return int((self.identify or {}).get("intents", 0) or 0)

    def serves(self, guild_id: Any) -> bool:
        """Like Discord: a server's events reach only the connection identified for its shard
        (``(guild_id >> 22) % shard_count``); events with no server come on shard 0."""
        shard = (self.identify or {}).get("shard")
        if not shard:
            return True
        number, count = int(shard[0]), max(1, int(shard[1]))
        return (number == 0) if guild_id is None else (int(guild_id) >> 22) % count == number

    async def send(self, frame: JSON) -> None:
        async with self._lock:
            if frame.get("op") == 0:
                self.seq += 1
                frame = {**frame, "s": self.seq}
            text = json.dumps(frame)
            if self.ws.closed:
                return
            if self._zlib is not None:
                blob = self._zlib.compress(text.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
                await self.ws.send_bytes(blob)
            else:
                await self.ws.send_str(text)


# --------------------------------------------------------------------------------------------------------
# The fake


class FakeDiscord:
    """A loopback Discord: REST API v10 + gateway on 127.0.0.1, with a one-guild world.

    Use as ``async with FakeDiscord() as fake:`` or ``await fake.start()`` / ``await fake.stop()``.
    Add users/channels (``add_user``, ``add_text_channel``) before the bot connects.
    """

    def __init__(
        self,
        *,
        token: str = "fake-token",
        guild_name: str = "Tabula Test Guild",
        bot_name: str = "Tabula",
        interaction_deadline: float | None = 3.0,
        heartbeat_interval_ms: int = 41_250,
    ) -> None:
        self.token = token
        self.interaction_deadline = interaction_deadline
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.snowflake = SnowflakeFactory()

        self.application_id = self.snowflake()
        self.bot_user = user_payload(self.application_id, bot_name.lower(), bot=True, global_name=None)
        self.bot_user.update({"verified": True, "mfa_enabled": False, "email": None, "locale": "en-US"})

        self.guild_id = self.snowflake()
        #: Each person's Discord client language (``interaction.locale``) and the server's preferred locale
        #: (``interaction.guild_locale``); a test sets them to speak to the bot in another language.
        self.user_locales: dict[int, str] = {}
        self.guild_locale = "en-US"
        self.guild_name = guild_name
        self.roles: dict[int, JSON] = {
            self.guild_id: role_payload(self.guild_id, "@everyone", EVERYONE_PERMISSIONS.value),
        }
        self.bot_role_id = self.snowflake()
        self.roles[self.bot_role_id] = role_payload(
            self.bot_role_id,
            bot_name,
            BOT_PERMISSIONS.value,
            position=1,
            managed=True,
            tags={"bot_id": str(self.application_id)},
        )
        self.channels: dict[int, JSON] = {}
        self.users: dict[int, JSON] = {self.application_id: self.bot_user}
        self.members: dict[int, JSON] = {
            self.application_id: member_payload(self.bot_user, [self.bot_role_id]),
        }
        self.general = self.add_text_channel("general")
        self.owner = self.add_user("owner")
        self.alice = self.add_user("alice")
        self.bob = self.add_user("bob")
        self.carol = self.add_user("carol")

        # State the bot creates.
        self.requests: list[RecordedRequest] = []
        self.gateway_log: list[JSON] = []  # every frame received from clients
        self.gateway_connects: list[dict[str, str]] = []  # query string of each websocket connection
        self.commands: dict[int | None, dict[int, JSON]] = {}  # scope (guild id or None) -> id -> command
        self.interactions: dict[str, InteractionRecord] = {}  # by token
        self._messages: dict[int, StoredMessage] = {}
        self._channel_messages: dict[int, list[int]] = {}
        self._threads: dict[int, ThreadInfo] = {}
        self._enforced_nonces: dict[tuple[int, str], int] = {}  # (channel, nonce) -> message (enforce_nonce)
        self.nonce_hits = 0  # resends that returned the message already made
        self._attachments: dict[int, FakeAttachment] = {}

        self._connections: set[_GatewayConnection] = set()
        #: How the gateway answers a new websocket: ``"open"`` (like Discord), ``"refuse"`` (HTTP 503 to the
        #: upgrade: Discord unreachable) or ``"silent"`` (the socket opens, and Discord never says a word: no
        #: HELLO, no answer to IDENTIFY or RESUME).  ``drop_gateway`` cuts the connections already open.
        self.gateway_mode = "open"
        self.gateway_refusals = 0  # upgrades answered 503 while the gateway was "refuse"
        self._silent: dict[web.WebSocketResponse, Any] = {}  # the silent gateway's sockets -> their transports
        self._inflight = 0
        self._last_activity = 0.0
        self._runner: web.AppRunner | None = None
        self.port: int | None = None

    # ---- lifecycle ---------------------------------------------------------------------------------

    @property
    def url(self) -> str:
        """Base URL, the value for ``TABULA_FAKE_DISCORD``."""
        if self.port is None:
            raise RuntimeError("FakeDiscord is not started")
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return self.url + API_VERSION_PATH

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    @property
    def endpoints(self) -> Endpoints:
        return Endpoints(api_base=self.api_base, gateway=self.gateway_url)

    async def start(self) -> Self:
        app = web.Application(middlewares=[self._record_middleware], client_max_size=64 * 1024 * 1024)
        self._add_routes(app)
        self._runner = web.AppRunner(app, shutdown_timeout=0.5, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        address = self._runner.addresses[0]
        self.port = int(address[1])
        self._last_activity = asyncio.get_running_loop().time()
        return self

    async def stop(self) -> None:
        for conn in list(self._connections):
            with contextlib.suppress(Exception):
                await conn.ws.close(code=1001)
        self._connections.clear()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        self.port = None

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ---- world setup --------------------------------------------------------------------------------

    def add_user(self, username: str, *, bot: bool = False, roles: Iterable[int] = ()) -> JSON:
        """Create a user who is a member of the guild; returns the user payload."""
        user = user_payload(self.snowflake(), username, bot=bot)
        self.users[int(user["id"])] = user
        self.members[int(user["id"])] = member_payload(user, roles)
        return user

    def add_role(self, name: str, permissions: int = 0) -> JSON:
        role = role_payload(self.snowflake(), name, permissions, position=len(self.roles))
        self.roles[int(role["id"])] = role
        return role

    def add_text_channel(self, name: str) -> JSON:
        channel = text_channel_payload(self.snowflake(), self.guild_id, name, position=len(self.channels))
        self.channels[int(channel["id"])] = channel
        return channel

    @property
    def channel(self) -> JSON:
        """The ``#general`` text channel."""
        return self.general

    @property
    def channel_id(self) -> int:
        return int(self.general["id"])

    def permissions_of(self, user_id: int) -> int:
        """Guild-level permissions of a member (the owner has all)."""
        if str(user_id) == str(self.owner["id"]):
            return discord.Permissions.all().value
        member = self.members.get(user_id)
        value = int(self.roles[self.guild_id]["permissions"])
        for role_id in (member or {}).get("roles", []):
            value |= int(self.roles[int(role_id)]["permissions"])
        if value & discord.Permissions(administrator=True).value:
            return discord.Permissions.all().value
        return value

    def resolve_channel(self, channel: ChannelLike) -> JSON:
        """A channel or thread payload by id (or pass a payload through)."""
        channel_id = _snowflake(channel)
        if channel_id in self.channels:
            return self.channels[channel_id]
        if channel_id in self._threads:
            return self._threads[channel_id].payload
        if isinstance(channel, Mapping):
            return dict(channel)
        raise KeyError(f"unknown channel {channel_id}")

    def resolve_user(self, user: UserLike) -> JSON:
        user_id = _snowflake(user)
        if user_id in self.users:
            return self.users[user_id]
        if isinstance(user, Mapping):
            return dict(user.get("user", user))
        raise KeyError(f"unknown user {user_id}")

    # ---- inspection ---------------------------------------------------------------------------------

    def messages(
        self,
        channel: ChannelLike | None = None,
        *,
        include_ephemeral: bool = False,
        include_deleted: bool = False,
    ) -> list[StoredMessage]:
        """Messages in a channel or thread (default ``#general``), oldest first."""
        channel_id = self.channel_id if channel is None else _snowflake(channel)
        result = []
        for message_id in self._channel_messages.get(channel_id, []):
            message = self._messages[message_id]
            if message.deleted and not include_deleted:
                continue
            if message.ephemeral and not include_ephemeral:
                continue
            result.append(message)
        return result

    def all_messages(self) -> list[StoredMessage]:
        return sorted(self._messages.values(), key=lambda m: m.id)

    def message(self, message_id: int | str) -> StoredMessage:
        return self._messages[int(message_id)]

    def threads(self, *, include_deleted: bool = False) -> list[ThreadInfo]:
        return [t for t in self._threads.values() if include_deleted or not t.deleted]

    def thread(self, thread_id: int | str) -> ThreadInfo:
        return self._threads[int(thread_id)]

    @property
    def unknown_requests(self) -> list[RecordedRequest]:
        """Requests that hit no implemented route (answered 404 ``{"message": "Unknown", "code": 0}``)."""
        return [r for r in self.requests if r.unknown_route]

    def requests_to(self, method: str, path_pattern: str) -> list[RecordedRequest]:
        """Recorded requests whose method matches and whose path matches the regex (fullmatch)."""
        pattern = re.compile(path_pattern)
        return [r for r in self.requests if r.method == method.upper() and pattern.fullmatch(r.path)]

    @property
    def connected(self) -> bool:
        return any(c.ready for c in self._connections)

    async def wait_until_connected(self, timeout: float = 10.0) -> None:
        """Wait until a client is connected and has been sent READY + GUILD_CREATE."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not self.connected:
            if loop.time() >= deadline:
                raise TimeoutError(f"no client identified with the fake gateway within {timeout}s")
            await asyncio.sleep(0.01)

    # ---- commands registry --------------------------------------------------------------------------

    def _normalise_command(
        self, body: Mapping[str, Any], guild_id: int | None, existing: JSON | None
    ) -> JSON:
        command = {
            "id": existing["id"] if existing else str(self.snowflake()),
            "application_id": str(self.application_id),
            "version": str(self.snowflake()),
            "type": int(body.get("type", 1)),
            "name": body["name"],
            "description": body.get("description", ""),
            "options": list(body.get("options") or []),
            "default_member_permissions": body.get("default_member_permissions"),
            "dm_permission": body.get("dm_permission", True),
            "nsfw": body.get("nsfw", False),
            "contexts": body.get("contexts"),
            "integration_types": body.get("integration_types", [0]),
            "name_localizations": body.get("name_localizations"),
            "description_localizations": body.get("description_localizations"),
        }
        if guild_id is not None:
            command["guild_id"] = str(guild_id)
        return command

    def register_commands(
        self, payloads: Iterable[Mapping[str, Any]], guild_id: int | None = None, *, replace: bool = True
    ) -> list[JSON]:
        """Store commands as a bulk overwrite would (ids kept for same name+type)."""
        scope = self.commands.setdefault(guild_id, {})
        by_key = {(c["name"], c["type"]): c for c in scope.values()}
        result = []
        new_scope: dict[int, JSON] = {} if replace else dict(scope)
        for body in payloads:
            existing = by_key.get((body["name"], int(body.get("type", 1))))
            command = self._normalise_command(body, guild_id, existing)
            new_scope[int(command["id"])] = command
            result.append(command)
        self.commands[guild_id] = new_scope
        return result

    def find_command(self, name: str, *, type: int = 1) -> JSON | None:
        """A synced command by name: guild commands of the fake guild first, then global."""
        for scope in (self.guild_id, None):
            for command in self.commands.get(scope, {}).values():
                if command["name"] == name and int(command.get("type", 1)) == type:
                    return command
        return None

    # ---- interaction payload builders --------------------------------------------------------------

    def _interaction_base(self, type: int, user: UserLike, channel: ChannelLike) -> JSON:
        user_data = self.resolve_user(user)
        user_id = int(user_data["id"])
        channel_data = self.resolve_channel(channel)
        member = dict(self.members.get(user_id) or member_payload(user_data))
        member["user"] = user_data
        member["permissions"] = str(self.permissions_of(user_id))
        interaction_id = self.snowflake()
        return {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": type,
            "token": f"fake-interaction-token-{interaction_id}-{secrets.token_hex(8)}",
            "version": 1,
            "guild_id": str(self.guild_id),
            "guild": {"id": str(self.guild_id), "locale": self.guild_locale, "features": []},
            "channel_id": str(channel_data["id"]),
            "channel": {**channel_data, "permissions": str(self.permissions_of(user_id))},
            "member": member,
            "app_permissions": str(self.permissions_of(self.application_id)),
            "locale": self.user_locales.get(user_id, "en-US"),
            "guild_locale": self.guild_locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": {"0": str(self.guild_id)},
            "context": 0,
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }

    def _option_value(self, option_type: int, value: Any, resolved: JSON, focused: bool) -> Any:
        """Convert a test-side value to what Discord puts in ``options[].value`` (+ ``resolved``)."""
        if focused:
            return value if isinstance(value, str) else str(value)
        if option_type == 3:
            return str(value)
        if option_type == 4:
            return int(value)
        if option_type == 5:
            return bool(value)
        if option_type == 10:
            return float(value)
        if option_type in (6, 9) and (
            (isinstance(value, Mapping)
            and ("username" in value or "user" in value))
            or _snowflake(value) in self.users
        ):
            user = self.resolve_user(value)
            user_id = int(user["id"])
            resolved.setdefault("users", {})[str(user_id)] = user
            if user_id in self.members:
                member = {k: v for k, v in self.members[user_id].items() if k != "user"}
                member["permissions"] = str(self.permissions_of(user_id))
                resolved.setdefault("members", {})[str(user_id)] = member
            return str(user_id)
        if option_type in (8, 9):
            role = self.roles[_snowflake(value)]
            resolved.setdefault("roles", {})[role["id"]] = role
            return role["id"]
        if option_type == 7:
            channel = self.resolve_channel(value)
            resolved.setdefault("channels", {})[channel["id"]] = {
                **channel,
                "permissions": str(EVERYONE_PERMISSIONS.value),
            }
            return channel["id"]
        if option_type == 11:
            filename, data = value  # (filename, bytes)
            attachment = self._new_attachment(0, filename, data, None)
            resolved.setdefault("attachments", {})[str(attachment.id)] = attachment.to_payload()
            return str(attachment.id)
        raise ValueError(f"cannot build option of type {option_type} from {value!r}")

    @staticmethod
    def _infer_option_type(value: Any) -> int:
        if isinstance(value, bool):
            return 5
        if isinstance(value, int):
            return 4
        if isinstance(value, float):
            return 10
        if isinstance(value, Mapping):
            return 6
        return 3

    def _build_options(
        self, definitions: list[JSON] | None, values: Mapping[str, Any], focused: str | None, resolved: JSON
    ) -> list[JSON]:
        by_name = {d["name"]: d for d in definitions or []}
        options = []
        for name, value in values.items():
            definition = by_name.get(name)
            if definitions is not None and definition is None:
                raise ValueError(f"option {name!r} is not one of {sorted(by_name)}")
            option_type = int(definition["type"]) if definition else self._infer_option_type(value)
            option: JSON = {
                "name": name,
                "type": option_type,
                "value": self._option_value(option_type, value, resolved, name == focused),
            }
            if name == focused:
                option["focused"] = True
            options.append(option)
        return options

    def _command_data(
        self, name: str, options: Mapping[str, Any] | None, subcommand: str | None, focused: str | None
    ) -> JSON:
        command = self.find_command(name)
        path = subcommand.split() if subcommand else []
        definitions: list[JSON] | None = command.get("options", []) if command else None
        chain: list[tuple[str, int]] = []
        for part in path:
            sub = (
                next((o for o in definitions or [] if o["name"] == part), None)
                if definitions is not None
                else None
            )
            if definitions is not None and sub is None:
                raise ValueError(f"/{name} has no subcommand or group {part!r}")
            sub_type = int(sub["type"]) if sub else (1 if part == path[-1] else 2)
            chain.append((part, sub_type))
            definitions = sub.get("options", []) if sub else None
        resolved: JSON = {}
        leaf = self._build_options(definitions, options or {}, focused, resolved)
        for part, sub_type in reversed(chain):
            leaf = [{"name": part, "type": sub_type, "options": leaf}]
        data: JSON = {
            "id": command["id"] if command else str(self.snowflake()),
            "name": name,
            "type": 1,
            "options": leaf,
        }
        if command and command.get("guild_id"):
            data["guild_id"] = command["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    def slash(
        self,
        user: UserLike,
        channel: ChannelLike,
        name: str,
        options: Mapping[str, Any] | None = None,
        subcommand: str | None = None,
    ) -> JSON:
        """An APPLICATION_COMMAND interaction payload.

        ``subcommand`` is ``"sub"`` or ``"group sub"``.  Option types and the command id come from the
        synced commands when known (else types are inferred from the Python values).  User/channel/role
        options take a payload or an id and get ``resolved`` data; attachment options take
        ``(filename, bytes)``.
        """
        payload = self._interaction_base(INTERACTION_COMMAND, user, channel)
        payload["data"] = self._command_data(name, options, subcommand, None)
        return payload

    def autocomplete(
        self,
        user: UserLike,
        channel: ChannelLike,
        name: str,
        options: Mapping[str, Any],
        subcommand: str | None = None,
        *,
        focused: str | None = None,
    ) -> JSON:
        """An APPLICATION_COMMAND_AUTOCOMPLETE payload; ``focused`` defaults to the last option."""
        if not options:
            raise ValueError("autocomplete needs at least the focused option")
        focused = focused or list(options)[-1]
        payload = self._interaction_base(INTERACTION_AUTOCOMPLETE, user, channel)
        payload["data"] = self._command_data(name, options, subcommand, focused)
        return payload

    def _message_for_interaction(self, message: StoredMessage | Mapping[str, Any] | int | str) -> JSON:
        if isinstance(message, StoredMessage):
            return message.payload
        if isinstance(message, Mapping):
            return dict(message)
        return self._messages[int(message)].payload

    def component(
        self,
        user: UserLike,
        message: StoredMessage | Mapping[str, Any] | int | str,
        custom_id: str,
        component_type: int = 2,
        values: Sequence[str] | None = None,
    ) -> JSON:
        """A MESSAGE_COMPONENT payload for a click (type 2) or a select (3, 5-8) on ``message``."""
        message_payload = self._message_for_interaction(message)
        payload = self._interaction_base(INTERACTION_COMPONENT, user, int(message_payload["channel_id"]))
        data: JSON = {"custom_id": custom_id, "component_type": component_type}
        if component_type != 2:
            data["values"] = list(values or [])
            if component_type in (5, 6, 7, 8):
                resolved: JSON = {}
                kind = {5: 6, 6: 8, 7: 9, 8: 7}[component_type]
                for value in data["values"]:
                    self._option_value(kind, value, resolved, False)
                data["resolved"] = resolved
        payload["data"] = data
        payload["message"] = message_payload
        return payload

    def modal_submit(
        self,
        user: UserLike,
        channel: ChannelLike,
        modal: Mapping[str, Any],
        values: Mapping[str, Any],
        message: StoredMessage | Mapping[str, Any] | int | str | None = None,
    ) -> JSON:
        """A MODAL_SUBMIT payload answering ``modal`` (the dict the bot sent, e.g. ``reply.modal``).

        The submitted components mirror the modal's layout; ``values`` maps a text input's custom_id
        to its text, a select's custom_id to a list of values.
        """

        def fill(component: Mapping[str, Any]) -> JSON:
            ctype = int(component["type"])
            if ctype == 1:
                return {"type": 1, "components": [fill(c) for c in component.get("components", [])]}
            if ctype == 18:
                return {"type": 18, "id": component.get("id", 0), "component": fill(component["component"])}
            custom_id = component.get("custom_id")
            out: JSON = {"type": ctype, "id": component.get("id", 0)}
            if custom_id is not None:
                out["custom_id"] = custom_id
                if ctype == 4:
                    out["value"] = str(values.get(custom_id, component.get("value") or ""))
                else:
                    out["values"] = [str(v) for v in values.get(custom_id, [])]
            return out

        payload = self._interaction_base(INTERACTION_MODAL_SUBMIT, user, channel)
        payload["data"] = {
            "custom_id": modal["custom_id"],
            "components": [fill(c) for c in modal.get("components", [])],
        }
        if message is not None:
            payload["message"] = self._message_for_interaction(message)
        return payload

    # ---- gateway ------------------------------------------------------------------------------------

    async def dispatch(self, event: str, data: JSON) -> None:
        """Send a DISPATCH (op 0) event to every identified client.

        INTERACTION_CREATE payloads are registered so the callback/followup routes know them.
        """
        if event == "INTERACTION_CREATE":
            self._register_interaction(data)
        guild = data.get("id") if event == "GUILD_CREATE" else data.get("guild_id")
        targets = [c for c in self._connections if c.ready and c.serves(guild)]
        if not targets:
            raise RuntimeError(f"cannot dispatch {event}: no client is connected to the fake gateway")
        for conn in targets:
            await conn.send({"op": 0, "t": event, "d": data})

    async def _dispatch_if(self, intent: int, event: str, data: JSON) -> None:
        """Send an event to clients whose intents include ``intent`` (no error if none)."""
        guild = data.get("id") if event == "GUILD_CREATE" else data.get("guild_id")
        for conn in [c for c in self._connections if c.ready and c.intents & intent and c.serves(guild)]:
            await conn.send({"op": 0, "t": event, "d": data})

    def _register_interaction(self, payload: JSON) -> InteractionRecord:
        record = self.interactions.get(payload["token"])
        if record is None:
            record = InteractionRecord(payload=payload, dispatched_at=asyncio.get_running_loop().time())
            self.interactions[payload["token"]] = record
        return record

    def guild_payload(self, intents: int = INTENT_GUILDS) -> JSON:
        """The GUILD_CREATE payload of the fake guild as a client with ``intents`` would get it."""
        # Without GUILD_PRESENCES Discord only lists the bot's own member (and voice users).
        if intents & INTENT_GUILD_PRESENCES:
            members = list(self.members.values())
        else:
            members = [self.members[self.application_id]]
        active_threads = [t.payload for t in self._threads.values() if not t.deleted and not t.archived]
        return {
            "id": str(self.guild_id),
            "name": self.guild_name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": self.owner["id"],
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "roles": list(self.roles.values()),
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": str(self.channel_id),
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": "en-US",
            "nsfw_level": 0,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "max_stage_video_channel_users": 50,
            "incidents_data": None,
            "widget_enabled": False,
            "hub_type": None,
            "lazy": True,
            "large": False,
            "unavailable": False,
            "joined_at": self.members[self.application_id]["joined_at"],
            "member_count": len(self.members),
            "members": members,
            "channels": [{k: v for k, v in c.items() if k != "guild_id"} for c in self.channels.values()],
            "threads": active_threads,
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "embedded_activities": [],
        }

    def _ready_payload(self, conn: _GatewayConnection) -> JSON:
        identify = conn.identify or {}
        return {
            "v": 10,
            "user": self.bot_user,
            "guilds": [{"id": str(self.guild_id), "unavailable": True}] if conn.serves(self.guild_id) else [],
            "session_id": conn.session_id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "shard": identify.get("shard", [0, 1]),
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "auth": {},
            "_trace": ["fakediscord"],
        }

    async def drop_gateway(self, *, code: int | None = None) -> int:
        """Cut every open gateway connection, as a network failure or a Discord restart does: ``code`` None
        aborts the TCP connection (the client sees 1006 and tries to resume); a code closes it with that code.
        Returns how many were cut."""
        cut = [(c.ws, c.transport) for c in self._connections] + list(self._silent.items())
        for ws, transport in cut:
            with contextlib.suppress(Exception):
                if code is None:
                    if transport is not None:
                        transport.abort()
                else:
                    await ws.close(code=code)
        self._connections.clear()
        self._silent.clear()
        return len(cut)

    async def _gateway_handler(self, request: web.Request) -> web.StreamResponse:
        if self.gateway_mode == "refuse":
            self.gateway_refusals += 1
            return web.Response(status=503, text="upstream connect error")
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self.gateway_connects.append(dict(request.query))
        if self.gateway_mode == "silent":
            self._silent[ws] = request.transport
            try:
                async for _msg in ws:  # read (and ignore) whatever the client sends; never answer
                    pass
            finally:
                self._silent.pop(ws, None)
            return ws
        conn = _GatewayConnection(ws, request.query.get("compress"))
        conn.transport = request.transport
        self._connections.add(conn)
        try:
            await conn.send(
                {"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms, "_trace": ["fakediscord"]}}
            )
            async for msg in ws:
                if msg.type is not aiohttp.WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                self.gateway_log.append(frame)
                await self._on_gateway_frame(conn, frame)
        finally:
            self._connections.discard(conn)
        return ws

    async def _on_gateway_frame(self, conn: _GatewayConnection, frame: JSON) -> None:
        op = frame.get("op")
        raw = frame.get("d")
        data: JSON = raw if isinstance(raw, dict) else {}
        if op == 1:  # heartbeat
            await conn.send({"op": 11, "d": None})
        elif op == 2:  # identify
            if self.token is not None and data.get("token") != self.token:
                await conn.ws.close(code=4004, message=b"Authentication failed.")
                return
            conn.identify = data
            conn.ready = True
            await conn.send({"op": 0, "t": "READY", "d": self._ready_payload(conn)})
            if conn.serves(self.guild_id):  # a shard that serves no server of ours gets READY alone
                await conn.send({"op": 0, "t": "GUILD_CREATE", "d": self.guild_payload(conn.intents)})
        elif op == 6:  # resume: not supported, ask for a fresh IDENTIFY
            await conn.send({"op": 9, "d": False})
        elif op == 8:  # request guild members
            await self._send_member_chunk(conn, data)
        # op 3 (presence) and anything else: recorded in gateway_log, no answer.

    async def _send_member_chunk(self, conn: _GatewayConnection, data: JSON) -> None:
        members = list(self.members.values())
        if data.get("user_ids"):
            wanted = {int(u) for u in data["user_ids"]}
            members = [m for m in members if int(m["user"]["id"]) in wanted]
        elif data.get("query"):
            query = str(data["query"]).lower()
            members = [m for m in members if m["user"]["username"].startswith(query)]
        limit = int(data.get("limit") or 0)
        if limit:
            members = members[:limit]
        chunk: JSON = {"guild_id": str(self.guild_id), "members": members, "chunk_index": 0, "chunk_count": 1}
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        if data.get("presences"):
            chunk["presences"] = []
        await conn.send({"op": 0, "t": "GUILD_MEMBERS_CHUNK", "d": chunk})

    # ---- running an interaction ---------------------------------------------------------------------

    async def interact(
        self,
        payload: JSON,
        *,
        timeout: float = 5.0,
        quiet: float = 0.05,
        expect_response: bool = True,
        busy: Callable[[], bool] | None = None,
        give_up: Callable[[], bool] | None = None,
    ) -> InteractionReply:
        """Dispatch an INTERACTION_CREATE and wait until the bot is done with it.

        Done = acknowledged (unless ``expect_response`` is False), no request in flight or arrived for
        ``quiet`` seconds, and ``busy()`` (if given) is false.  ``give_up()`` returning true (e.g. an
        error was logged) waives the acknowledgement.  Raises AssertionError if the bot did not
        acknowledge within ``timeout``.
        """
        loop = asyncio.get_running_loop()
        start_index = len(self.requests)
        record = self._register_interaction(payload)
        await self.dispatch("INTERACTION_CREATE", payload)
        deadline = loop.time() + timeout
        while True:
            await asyncio.sleep(0.005)
            now = loop.time()
            responded = record.callback_type is not None or not expect_response or bool(give_up and give_up())
            idle = self._inflight == 0 and now - max(self._last_activity, record.dispatched_at) >= quiet
            if responded and idle and not (busy and busy()):
                break
            if now >= deadline:
                if not responded:
                    raise AssertionError(
                        f"the bot did not respond to interaction {payload['id']} ({_describe(payload)}) within "
                        f"{timeout}s; requests meanwhile: {self.requests[start_index:]}"
                    )
                _log.warning(
                    "interaction %s still busy after %ss; returning what was sent so far",
                    payload["id"],
                    timeout,
                )
                break
        return self._reply_for(record, start_index)

    def _reply_for(self, record: InteractionRecord, start_index: int) -> InteractionReply:
        window = self.requests[start_index:]
        own = [r for r in window if record.token in r.path]
        original = self._messages.get(record.original_message_id) if record.original_message_id else None
        attachments = list(record.callback_files)
        followups = [self._messages[i] for i in record.followup_ids if i in self._messages]
        if record.callback_type == CALLBACK_DEFER and original is not None and not original.loading:
            attachments = list(original.files)  # a deferred answer's pictures came with the message after it
        elif record.callback_type == CALLBACK_DEFER_UPDATE and followups:
            attachments = list(followups[0].files)
        return InteractionReply(
            interaction_id=record.id,
            token=record.token,
            callback_type=record.callback_type,
            data=dict(record.callback_data or {}),
            attachments=attachments,
            original=original,
            followups=followups,
            requests=own,
            other_requests=[r for r in window if r not in own],
        )

    async def user_message(self, user: UserLike, channel: ChannelLike, content: str) -> StoredMessage:
        """A human posts a message: stored, and MESSAGE_CREATE sent to clients with GUILD_MESSAGES
        (content blanked unless MESSAGE_CONTENT intent or the bot is mentioned, as Discord does)."""
        user_data = self.resolve_user(user)
        channel_id = _snowflake(self.resolve_channel(channel))
        message = self._store_new_message(channel_id, {"content": content}, [], author=user_data)
        mentioned = f"<@{self.application_id}>" in content or f"<@!{self.application_id}>" in content
        for conn in [c for c in self._connections if c.ready and c.intents & INTENT_GUILD_MESSAGES
                     and c.serves(self.guild_id)]:
            data = self._gateway_message(message)
            if not (conn.intents & INTENT_MESSAGE_CONTENT or mentioned):
                data.update(content="", embeds=[], attachments=[], components=[])
            await conn.send({"op": 0, "t": "MESSAGE_CREATE", "d": data})
        return message

    # ---- HTTP plumbing ------------------------------------------------------------------------------

    def _add_routes(self, app: web.Application) -> None:
        p = API_VERSION_PATH
        r = app.router
        r.add_get("/gateway", self._gateway_handler)
        r.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._serve_attachment)
        r.add_get(p + "/users/@me", self._get_me)
        r.add_get(p + "/users/{user_id}", self._get_user)
        r.add_get(p + "/oauth2/applications/@me", self._get_application)
        r.add_get(p + "/applications/@me", self._get_application)
        r.add_get(p + "/gateway", self._get_gateway)
        r.add_get(p + "/gateway/bot", self._get_gateway_bot)
        for base in ("/applications/{app_id}/commands", "/applications/{app_id}/guilds/{guild_id}/commands"):
            r.add_get(p + base, self._list_commands)
            r.add_put(p + base, self._bulk_commands)
            r.add_post(p + base, self._upsert_command)
            r.add_get(p + base + "/{command_id}", self._get_command)
            r.add_patch(p + base + "/{command_id}", self._edit_command)
            r.add_delete(p + base + "/{command_id}", self._delete_command)
        r.add_get(p + "/guilds/{guild_id}", self._get_guild)
        r.add_get(p + "/guilds/{guild_id}/channels", self._get_guild_channels)
        r.add_get(p + "/guilds/{guild_id}/members/{user_id}", self._get_member)
        r.add_get(p + "/channels/{channel_id}", self._get_channel)
        r.add_patch(p + "/channels/{channel_id}", self._edit_channel)
        r.add_delete(p + "/channels/{channel_id}", self._delete_channel)
        r.add_post(p + "/channels/{channel_id}/typing", self._typing)
        r.add_get(p + "/channels/{channel_id}/messages", self._list_messages)
        r.add_post(p + "/channels/{channel_id}/messages", self._create_message)
        r.add_get(p + "/channels/{channel_id}/messages/{message_id}", self._get_message)
        r.add_patch(p + "/channels/{channel_id}/messages/{message_id}", self._edit_message)
        r.add_delete(p + "/channels/{channel_id}/messages/{message_id}", self._delete_message)
        r.add_put(
            p + "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", self._add_reaction
        )
        r.add_delete(
            p + "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", self._remove_reaction
        )
        r.add_post(p + "/channels/{channel_id}/messages/{message_id}/threads", self._thread_from_message)
        r.add_post(p + "/channels/{channel_id}/threads", self._thread_without_message)
        r.add_get(p + "/channels/{channel_id}/thread-members", self._list_thread_members)
        r.add_get(p + "/channels/{channel_id}/thread-members/{user_id}", self._get_thread_member)
        r.add_put(p + "/channels/{channel_id}/thread-members/{user_id}", self._add_thread_member)
        r.add_delete(p + "/channels/{channel_id}/thread-members/{user_id}", self._remove_thread_member)
        r.add_post(p + "/interactions/{interaction_id}/{token}/callback", self._interaction_callback)
        r.add_post(p + "/webhooks/{app_id}/{token}", self._followup_create)
        r.add_get(p + "/webhooks/{app_id}/{token}/messages/{message_id}", self._webhook_message_get)
        r.add_patch(p + "/webhooks/{app_id}/{token}/messages/{message_id}", self._webhook_message_edit)
        r.add_delete(p + "/webhooks/{app_id}/{token}/messages/{message_id}", self._webhook_message_delete)
        r.add_route("*", "/{tail:.*}", self._unknown_route)

    @web.middleware
    async def _record_middleware(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        if request.path == "/gateway" or request.path.startswith("/attachments/"):
            return await handler(request)  # the websocket and file downloads are not API calls
        loop = asyncio.get_running_loop()
        self._inflight += 1
        self._last_activity = loop.time()
        in_api = request.path.startswith(API_VERSION_PATH + "/")
        record = RecordedRequest(
            method=request.method,
            path=request.path[len(API_VERSION_PATH) :] if in_api else request.path,
            query=dict(request.query),
            json=None,
            files=[],
            at=loop.time(),
        )
        self.requests.append(record)
        context_token = _current_request.set(record)
        try:
            await self._parse_body(request, record)
            token = request.match_info.get("token")
            if token and token in self.interactions:
                self.interactions[token].requests.append(record)
            try:
                if in_api and self._needs_auth(request):
                    self._check_auth(request)
                response = await handler(request)
            except _ApiError as exc:
                response = exc.response()
            record.status = response.status
            record.response = response.fake_json if isinstance(response, _JsonResponse) else None
            return response
        finally:
            _current_request.reset(context_token)
            self._inflight -= 1
            self._last_activity = loop.time()

    @staticmethod
    def _needs_auth(request: web.Request) -> bool:
        # Interaction callbacks and interaction webhooks are authenticated by their token, not the bot token.
        return "/interactions/" not in request.path and "/webhooks/" not in request.path

    def _check_auth(self, request: web.Request) -> None:
        if self.token is not None and request.headers.get("Authorization") != f"Bot {self.token}":
            raise _ApiError(401, "401: Unauthorized", 0)

    async def _parse_body(self, request: web.Request, record: RecordedRequest) -> None:
        if not request.can_read_body:
            return
        content_type = request.content_type
        if content_type.startswith("multipart/"):
            reader = await request.multipart()
            while True:
                part = await reader.next()
                if part is None:
                    break
                name = getattr(part, "name", None)
                data = await part.read(decode=False)  # type: ignore[union-attr]
                if name == "payload_json":
                    record.json = json.loads(data.decode())
                    continue
                match = re.fullmatch(r"files\[(\d+)\]", name or "")
                if match:
                    part_type = part.headers.get("Content-Type")
                    record.files.append(
                        UploadedFile(
                            int(match.group(1)),
                            getattr(part, "filename", None) or "file",
                            bytes(data),
                            part_type,
                        )
                    )
            specs = _attachment_specs(record.json)
            for upload in record.files:
                spec = specs.get(upload.index)
                if spec is not None:
                    upload.description = spec.get("description")
                    upload.filename = spec.get("filename") or upload.filename
        else:
            raw = await request.read()
            if raw:
                try:
                    record.json = json.loads(raw.decode())
                except ValueError:
                    record.json = raw

    @staticmethod
    def _body(request: web.Request) -> JSON:
        body = _current_request.get().json
        return body if isinstance(body, dict) else {}

    @staticmethod
    def _files(request: web.Request) -> list[UploadedFile]:
        return list(_current_request.get().files)

    async def _unknown_route(self, request: web.Request) -> web.Response:
        _current_request.get().unknown_route = True
        _log.warning("fakediscord: unimplemented route %s %s", request.method, request.path)
        return _error(404, "Unknown", 0)

    async def _serve_attachment(self, request: web.Request) -> web.Response:
        attachment = self._attachments.get(int(request.match_info["attachment_id"]))
        if attachment is None:
            return web.Response(status=404)
        return web.Response(
            body=attachment.data, content_type=attachment.content_type or "application/octet-stream"
        )

    # ---- simple GETs --------------------------------------------------------------------------------

    async def _get_me(self, request: web.Request) -> web.Response:
        return _json_response(self.bot_user)

    async def _get_user(self, request: web.Request) -> web.Response:
        user = self.users.get(int(request.match_info["user_id"]))
        return _json_response(user) if user else _error(404, "Unknown User", 10013)

    async def _get_application(self, request: web.Request) -> web.Response:
        return _json_response(
            {
                "id": str(self.application_id),
                "name": self.bot_user["username"],
                "icon": None,
                "description": "",
                "summary": "",
                "type": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "flags": 0,
                "owner": self.owner,
                "team": None,
                "bot": self.bot_user,
                "tags": [],
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "approximate_guild_count": 1,
                "integration_types_config": {"0": {}},
            }
        )

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return _json_response({"url": self.gateway_url})

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        return _json_response(
            {
                "url": self.gateway_url,
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    async def _get_guild(self, request: web.Request) -> web.Response:
        self._require_guild(request)
        data = self.guild_payload(0)
        for key in ("members", "channels", "threads", "presences", "voice_states", "member_count"):
            data.pop(key, None)
        return _json_response(data)

    async def _get_guild_channels(self, request: web.Request) -> web.Response:
        self._require_guild(request)
        return _json_response(list(self.channels.values()))

    async def _get_member(self, request: web.Request) -> web.Response:
        self._require_guild(request)
        member = self.members.get(int(request.match_info["user_id"]))
        return _json_response(member) if member else _error(404, "Unknown Member", 10007)

    def _require_guild(self, request: web.Request) -> None:
        if int(request.match_info["guild_id"]) != self.guild_id:
            raise _ApiError(404, "Unknown Guild", 10004)

    # ---- application commands -----------------------------------------------------------------------

    def _command_scope(self, request: web.Request) -> int | None:
        if int(request.match_info["app_id"]) != self.application_id:
            raise _ApiError(403, "Missing Access", 50001)
        guild = request.match_info.get("guild_id")
        if guild is not None:
            self._require_guild(request)
            return int(guild)
        return None

    @staticmethod
    def _validate_command(body: Mapping[str, Any]) -> None:
        name = str(body.get("name", ""))
        if not re.fullmatch(r"[-_\w]{1,32}", name) or (
            int(body.get("type", 1)) == 1 and name != name.lower()
        ):
            raise _invalid_form("name", f"invalid command name {name!r}")
        if int(body.get("type", 1)) == 1 and not 1 <= len(str(body.get("description", ""))) <= 100:
            raise _invalid_form("description", "description must be 1-100 characters")
        if len(body.get("options") or []) > 25:
            raise _invalid_form("options", "at most 25 options")

    async def _list_commands(self, request: web.Request) -> web.Response:
        return _json_response(list(self.commands.get(self._command_scope(request), {}).values()))

    async def _bulk_commands(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        body = _current_request.get().json or []
        if len(body) > 100:
            raise _invalid_form("_", "at most 100 commands")
        for command in body:
            self._validate_command(command)
        return _json_response(self.register_commands(body, scope))

    async def _upsert_command(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        body = self._body(request)
        self._validate_command(body)
        return _json_response(self.register_commands([body], scope, replace=False)[0], 201)

    def _command_or_404(self, request: web.Request) -> tuple[int | None, JSON]:
        scope = self._command_scope(request)
        command = self.commands.get(scope, {}).get(int(request.match_info["command_id"]))
        if command is None:
            raise _ApiError(404, "Unknown application command", 10063)
        return scope, command

    async def _get_command(self, request: web.Request) -> web.Response:
        return _json_response(self._command_or_404(request)[1])

    async def _edit_command(self, request: web.Request) -> web.Response:
        scope, command = self._command_or_404(request)
        merged = {**command, **self._body(request)}
        self._validate_command(merged)
        updated = self._normalise_command(merged, scope, command)
        self.commands[scope][int(updated["id"])] = updated
        return _json_response(updated)

    async def _delete_command(self, request: web.Request) -> web.Response:
        scope, command = self._command_or_404(request)
        del self.commands[scope][int(command["id"])]
        return _no_content()

    # ---- channels & threads -------------------------------------------------------------------------

    def _channel_or_404(self, channel_id: int | str) -> JSON:
        channel_id = int(channel_id)
        if channel_id in self.channels:
            return self.channels[channel_id]
        thread = self._threads.get(channel_id)
        if thread is not None and not thread.deleted:
            return thread.payload
        raise _ApiError(404, "Unknown Channel", 10003)

    def _thread_or_404(self, channel_id: int | str) -> ThreadInfo:
        thread = self._threads.get(int(channel_id))
        if thread is None or thread.deleted:
            raise _ApiError(404, "Unknown Channel", 10003)
        return thread

    async def _get_channel(self, request: web.Request) -> web.Response:
        return _json_response(self._channel_or_404(request.match_info["channel_id"]))

    async def _edit_channel(self, request: web.Request) -> web.Response:
        channel = self._channel_or_404(request.match_info["channel_id"])
        body = self._body(request)
        thread = self._threads.get(int(channel["id"]))
        for key in ("name", "topic", "rate_limit_per_user", "nsfw", "flags", "position"):
            if key in body:
                channel[key] = body[key]
        if thread is not None:
            metadata = channel["thread_metadata"]
            for key in ("archived", "locked", "auto_archive_duration", "invitable"):
                if key in body:
                    metadata[key] = body[key]
            if "archived" in body:
                metadata["archive_timestamp"] = _now_iso()
            await self._dispatch_if(INTENT_GUILDS, "THREAD_UPDATE", dict(channel))
        else:
            await self._dispatch_if(INTENT_GUILDS, "CHANNEL_UPDATE", dict(channel))
        return _json_response(channel)

    async def _delete_channel(self, request: web.Request) -> web.Response:
        channel = self._channel_or_404(request.match_info["channel_id"])
        thread = self._threads.get(int(channel["id"]))
        if thread is None:
            raise _ApiError(403, "Missing Permissions", 50013)  # the fake's text channels are permanent
        thread.deleted = True
        await self._dispatch_if(
            INTENT_GUILDS,
            "THREAD_DELETE",
            {
                "id": channel["id"],
                "guild_id": str(self.guild_id),
                "parent_id": channel["parent_id"],
                "type": channel["type"],
            },
        )
        return _json_response(channel)

    async def _typing(self, request: web.Request) -> web.Response:
        self._channel_or_404(request.match_info["channel_id"])
        return _no_content()

    def _new_thread(
        self, parent: JSON, body: JSON, *, thread_id: int, type: int, starter: int | None
    ) -> ThreadInfo:
        name = str(body.get("name", ""))
        if not 1 <= len(name) <= 100:
            raise _invalid_form("name", "thread name must be 1-100 characters")
        if int(parent["type"]) not in (0, 5):
            raise _ApiError(400, "Cannot execute action on this channel type", 50024)
        payload = thread_payload(
            thread_id,
            self.guild_id,
            int(parent["id"]),
            self.application_id,
            name,
            type=type,
            auto_archive_duration=int(
                body.get("auto_archive_duration") or parent.get("default_auto_archive_duration") or 1440
            ),
            rate_limit_per_user=int(body.get("rate_limit_per_user") or 0),
            invitable=bool(body.get("invitable", True)),
        )
        info = ThreadInfo(payload=payload, member_ids={self.application_id}, starter_message_id=starter)
        payload["member_count"] = 1
        self._threads[thread_id] = info
        self._channel_messages.setdefault(thread_id, [])
        return info

    def _thread_member_payload(self, thread: ThreadInfo, user_id: int) -> JSON:
        return {"id": str(thread.id), "user_id": str(user_id), "join_timestamp": _now_iso(), "flags": 0}

    async def _announce_thread(self, thread: ThreadInfo) -> JSON:
        response = {**thread.payload, "member": self._thread_member_payload(thread, self.application_id)}
        await self._dispatch_if(INTENT_GUILDS, "THREAD_CREATE", {**response, "newly_created": True})
        return response

    async def _thread_from_message(self, request: web.Request) -> web.Response:
        parent = self._channel_or_404(request.match_info["channel_id"])
        message = self._message_or_404(parent, request.match_info["message_id"])
        if message.id in self._threads:
            raise _ApiError(400, "A thread has already been created for this message", 160004)
        # A thread started from a message shares the message's id.
        thread = self._new_thread(
            parent, self._body(request), thread_id=message.id, type=11, starter=message.id
        )
        message.payload["thread"] = thread.payload
        response = await self._announce_thread(thread)
        await self._dispatch_if(INTENT_GUILD_MESSAGES, "MESSAGE_UPDATE", self._gateway_message(message))
        return _json_response(response, 201)

    async def _thread_without_message(self, request: web.Request) -> web.Response:
        parent = self._channel_or_404(request.match_info["channel_id"])
        body = self._body(request)
        thread_type = int(body.get("type", 12))
        if thread_type not in (10, 11, 12):
            raise _invalid_form("type", "not a thread type")
        thread = self._new_thread(parent, body, thread_id=self.snowflake(), type=thread_type, starter=None)
        return _json_response(await self._announce_thread(thread), 201)

    def _thread_user(self, request: web.Request) -> int:
        raw = request.match_info["user_id"]
        user_id = self.application_id if raw == "@me" else int(raw)
        if user_id not in self.members:
            raise _ApiError(404, "Unknown Member", 10007)
        return user_id

    async def _list_thread_members(self, request: web.Request) -> web.Response:
        thread = self._thread_or_404(request.match_info["channel_id"])
        return _json_response([self._thread_member_payload(thread, u) for u in sorted(thread.member_ids)])

    async def _get_thread_member(self, request: web.Request) -> web.Response:
        thread = self._thread_or_404(request.match_info["channel_id"])
        user_id = self._thread_user(request)
        if user_id not in thread.member_ids:
            raise _ApiError(404, "Unknown Member", 10007)
        return _json_response(self._thread_member_payload(thread, user_id))

    async def _add_thread_member(self, request: web.Request) -> web.Response:
        thread = self._thread_or_404(request.match_info["channel_id"])
        if thread.archived:
            raise _ApiError(400, "Thread is archived", 50083)
        user_id = self._thread_user(request)
        if user_id not in thread.member_ids:
            thread.member_ids.add(user_id)
            thread.payload["member_count"] = min(len(thread.member_ids), 50)
            await self._thread_members_update(thread, added=[user_id])
        return _no_content()

    async def _remove_thread_member(self, request: web.Request) -> web.Response:
        thread = self._thread_or_404(request.match_info["channel_id"])
        user_id = self._thread_user(request)
        if user_id not in thread.member_ids:  # like Discord: removing someone who is not in the thread
            raise _ApiError(404, "Unknown Member", 10007)
        thread.member_ids.discard(user_id)
        thread.payload["member_count"] = min(len(thread.member_ids), 50)
        await self._thread_members_update(thread, removed=[user_id])
        return _no_content()

    async def _thread_members_update(
        self, thread: ThreadInfo, added: Sequence[int] = (), removed: Sequence[int] = ()
    ) -> None:
        # Discord sends THREAD_MEMBERS_UPDATE only to clients with the GUILD_MEMBERS intent.
        data = {
            "id": str(thread.id),
            "guild_id": str(self.guild_id),
            "member_count": thread.payload["member_count"],
            "added_members": [
                {**self._thread_member_payload(thread, u), "member": self.members[u]} for u in added
            ],
            "removed_member_ids": [str(u) for u in removed],
        }
        await self._dispatch_if(INTENT_GUILD_MEMBERS, "THREAD_MEMBERS_UPDATE", data)

    # ---- messages -----------------------------------------------------------------------------------

    def _message_or_404(self, channel: JSON, message_id: int | str) -> StoredMessage:
        message = self._messages.get(int(message_id)) if str(message_id).isdigit() else None
        # Ephemeral messages exist only for the interaction webhook, not for channel routes.
        if (
            message is None
            or message.deleted
            or message.ephemeral
            or message.channel_id != int(channel["id"])
        ):
            raise _ApiError(404, "Unknown Message", 10008)
        return message

    def _new_attachment(
        self, channel_id: int, filename: str, data: bytes, description: str | None
    ) -> FakeAttachment:
        attachment_id = self.snowflake()
        content_type = mimetypes.guess_type(filename)[0]
        url = f"{self.url}/attachments/{channel_id}/{attachment_id}/{filename}"
        attachment = FakeAttachment(attachment_id, filename, data, description, content_type, url)
        self._attachments[attachment_id] = attachment
        return attachment

    def _apply_attachments(
        self, channel_id: int, current: list[FakeAttachment], body: JSON, files: list[UploadedFile]
    ) -> list[FakeAttachment]:
        """New attachment list: ``attachments`` in the body lists what to keep (existing ids) and how
        to label uploads (``id`` = upload index); without it uploads are appended."""
        uploads = {f.index: f for f in files}
        total = sum(len(f.data) for f in files)
        if total > ATTACHMENT_SIZE_LIMIT:
            raise _ApiError(413, "Request entity too large", 40005)
        if len(files) > 10:
            raise _invalid_form("files", "at most 10 files")
        if "attachments" not in body or body["attachments"] is None:
            new = [self._new_attachment(channel_id, f.filename, f.data, f.description) for f in files]
            return current + new
        existing = {a.id: a for a in current}
        result: list[FakeAttachment] = []
        used: set[int] = set()
        for spec in body["attachments"]:
            spec_id = int(spec["id"])
            if spec_id in existing and spec_id not in uploads:
                kept = existing[spec_id]
                if "description" in spec:
                    kept.description = spec["description"]
                result.append(kept)
            elif spec_id in uploads:
                upload = uploads[spec_id]
                used.add(spec_id)
                filename = spec.get("filename") or upload.filename
                result.append(
                    self._new_attachment(channel_id, filename, upload.data, spec.get("description"))
                )
            else:
                raise _invalid_form("attachments", f"unknown attachment id {spec_id}")
        for index, upload in uploads.items():
            if index not in used:
                result.append(
                    self._new_attachment(channel_id, upload.filename, upload.data, upload.description)
                )
        return result

    @staticmethod
    def _validate_message_body(body: JSON, *, has_files: bool, creating: bool) -> None:
        content = body.get("content")
        if content is not None and len(str(content)) > 2000:
            raise _invalid_form("content", "Must be 2000 or fewer in length.")
        embeds = body.get("embeds") or []
        if len(embeds) > 10:
            raise _invalid_form("embeds", "Must be 10 or fewer in length.")
        total = 0
        for i, embed in enumerate(embeds):
            limits = {"title": 256, "description": 4096}
            for key, limit in limits.items():
                size = len(str(embed.get(key) or ""))
                total += size
                if size > limit:
                    raise _invalid_form(f"embeds.{i}.{key}", f"Must be {limit} or fewer in length.")
            fields = embed.get("fields") or []
            if len(fields) > 25:
                raise _invalid_form(f"embeds.{i}.fields", "Must be 25 or fewer in length.")
            for j, f in enumerate(fields):
                if (
                    not 1 <= len(str(f.get("name", ""))) <= 256
                    or not 1 <= len(str(f.get("value", ""))) <= 1024
                ):
                    raise _invalid_form(f"embeds.{i}.fields.{j}", "field name 1-256, value 1-1024")
                total += len(str(f.get("name", ""))) + len(str(f.get("value", "")))
            footer = (embed.get("footer") or {}).get("text") or ""
            author = (embed.get("author") or {}).get("name") or ""
            if len(footer) > 2048 or len(author) > 256:
                raise _invalid_form(f"embeds.{i}", "footer text <= 2048, author name <= 256")
            total += len(footer) + len(author)
        if total > 6000:
            raise _invalid_form("embeds", "Embed size exceeds maximum size of 6000")
        components = body.get("components") or []
        flags = int(body.get("flags") or 0)
        if not flags & FLAG_COMPONENTS_V2:
            if len(components) > 5:
                raise _invalid_form("components", "Must be 5 or fewer in length.")
            for i, row in enumerate(components):
                if int(row.get("type", 0)) != 1:
                    raise _invalid_form(f"components.{i}", "top-level components must be action rows")
                children = row.get("components") or []
                if not 1 <= len(children) <= 5 or (
                    any(int(c["type"]) != 2 for c in children) and len(children) != 1
                ):
                    raise _invalid_form(f"components.{i}.components", "a row holds 1-5 buttons or one select")
        elif content:
            raise _invalid_form("content", "content cannot be used with IS_COMPONENTS_V2")
        seen: set[str] = set()
        for comp in walk_components(components):
            custom_id = comp.get("custom_id")
            if custom_id is not None:
                if not 1 <= len(custom_id) <= 100:
                    raise _invalid_form("components", f"custom_id must be 1-100 characters: {custom_id!r}")
                if custom_id in seen:
                    raise _invalid_form("components", f"duplicate custom_id {custom_id!r}")
                seen.add(custom_id)
            if comp.get("type") == 2:
                if len(str(comp.get("label") or "")) > 80:
                    raise _invalid_form("components", "button label must be 80 or fewer in length")
                if int(comp.get("style", 1)) == 5 and not comp.get("url"):
                    raise _invalid_form("components", "link buttons need a url")
                if int(comp.get("style", 1)) not in (5, 6) and custom_id is None:
                    raise _invalid_form("components", "buttons need a custom_id")
            if comp.get("type") == 3 and not 1 <= len(comp.get("options") or []) <= 25:
                raise _invalid_form("components", "a string select has 1-25 options")
        if creating and not (
            content or embeds or components or has_files or body.get("poll") or body.get("sticker_ids")
        ):
            raise _ApiError(400, "Cannot send an empty message", 50006)

    def _message_payload(self, message_id: int, channel_id: int, author: JSON) -> JSON:
        return {
            "id": str(message_id),
            "channel_id": str(channel_id),
            "author": author,
            "content": "",
            "timestamp": _now_iso(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "pinned": False,
            "type": 0,
            "flags": 0,
            "components": [],
        }

    def _apply_message_body(
        self, message: StoredMessage, body: JSON, files: list[UploadedFile], *, editing: bool
    ) -> None:
        payload = message.payload
        if "content" in body:
            payload["content"] = body["content"] or ""
        if "embeds" in body:
            payload["embeds"] = [{"type": "rich", **e} for e in body["embeds"] or []]
        if "components" in body:
            payload["components"] = list(body["components"] or [])
        if "flags" in body and body["flags"] is not None:
            requested = int(body["flags"])
            keep = payload.get("flags", 0) & ~(FLAG_SUPPRESS_EMBEDS | FLAG_COMPONENTS_V2)
            settable = (
                FLAG_SUPPRESS_EMBEDS | FLAG_COMPONENTS_V2 | (0 if editing else FLAG_EPHEMERAL | (1 << 12))
            )
            payload["flags"] = keep | (requested & settable)
        if "allowed_mentions" in body:
            message.allowed_mentions = body["allowed_mentions"]
        if "attachments" in body or files:
            message.files = self._apply_attachments(message.channel_id, message.files, body, files)
            payload["attachments"] = [a.to_payload() for a in message.files]
        if body.get("poll"):
            payload["poll"] = body["poll"]
        if body.get("tts") and not editing:
            payload["tts"] = True
        pings = message.pings
        payload["mentions"] = [self.users[u] for u in sorted(pings.users) if u in self.users]
        payload["mention_roles"] = [str(r) for r in sorted(pings.roles)]
        payload["mention_everyone"] = pings.everyone

    def _store_new_message(
        self,
        channel_id: int,
        body: JSON,
        files: list[UploadedFile],
        *,
        author: JSON | None = None,
        message_type: int = 0,
        extra_flags: int = 0,
        interaction: InteractionRecord | None = None,
    ) -> StoredMessage:
        channel = self._channel_or_404(channel_id)
        thread = self._threads.get(int(channel["id"]))
        if thread is not None and thread.archived:
            if thread.locked:
                raise _ApiError(400, "Thread is locked", 50083)
            thread.payload["thread_metadata"]["archived"] = False  # sending unarchives, as on Discord
        message_id = self.snowflake()
        message = StoredMessage(
            payload=self._message_payload(message_id, channel_id, author or self.bot_user), files=[]
        )
        self._apply_message_body(message, body, files, editing=False)
        message.payload["type"] = message_type
        message.payload["flags"] = int(message.payload.get("flags", 0)) | extra_flags
        if body.get("message_reference"):
            reference = dict(body["message_reference"])
            message.payload["message_reference"] = reference
            referenced = self._messages.get(int(reference.get("message_id", 0) or 0))
            message.payload["referenced_message"] = referenced.payload if referenced else None
            if message_type == 0:
                message.payload["type"] = 19
        if "nonce" in body:
            message.payload["nonce"] = body["nonce"]
        if interaction is not None:
            message.payload["webhook_id"] = str(self.application_id)
            message.payload["application_id"] = str(self.application_id)
            message.payload["interaction_metadata"] = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": interaction.user,
                "authorizing_integration_owners": interaction.payload.get(
                    "authorizing_integration_owners", {}
                ),
            }
            if interaction.type == INTERACTION_COMMAND:
                message.payload["interaction_metadata"]["name"] = interaction.payload["data"]["name"]
            if interaction.source_message_id is not None:
                message.payload["interaction_metadata"]["interacted_message_id"] = str(
                    interaction.source_message_id
                )
        if not message.loading:
            message.notified = message.pings
        self._messages[message_id] = message
        self._channel_messages.setdefault(channel_id, []).append(message_id)
        channel["last_message_id"] = str(message_id)
        if thread is not None:
            thread.payload["message_count"] += 1
            thread.payload["total_message_sent"] += 1
        return message

    def _gateway_message(self, message: StoredMessage) -> JSON:
        data = {**message.payload, "guild_id": str(self.guild_id)}
        member = self.members.get(message.author_id)
        if member is not None and "webhook_id" not in data:
            data["member"] = {k: v for k, v in member.items() if k != "user"}
        return data

    async def _announce_message(self, message: StoredMessage, event: str = "MESSAGE_CREATE") -> None:
        if message.ephemeral:
            return  # ephemeral messages are never dispatched
        await self._dispatch_if(INTENT_GUILD_MESSAGES, event, self._gateway_message(message))

    def _edit_stored(self, message: StoredMessage, body: JSON, files: list[UploadedFile]) -> None:
        self._validate_message_body(
            {**message.payload, **body}, has_files=bool(files or message.files), creating=False
        )
        message.history.append(json.loads(json.dumps(message.payload)))
        posting = message.loading  # a deferred answer's first content is its posting, the rest are edits
        self._apply_message_body(message, body, files, editing=True)
        message.payload["flags"] = int(message.payload.get("flags", 0)) & ~FLAG_LOADING
        message.payload["edited_timestamp"] = _now_iso()
        if posting:
            message.notified = message.pings

    async def _list_messages(self, request: web.Request) -> web.Response:
        channel = self._channel_or_404(request.match_info["channel_id"])
        messages = [m for m in self.messages(int(channel["id"]))]
        query = request.query
        if "before" in query:
            messages = [m for m in messages if m.id < int(query["before"])]
        if "after" in query:
            messages = [m for m in messages if m.id > int(query["after"])]
        limit = max(1, min(100, int(query.get("limit", 50))))
        if "after" in query:
            messages = messages[:limit]
        else:
            messages = messages[-limit:]
        return _json_response([m.payload for m in reversed(messages)])

    async def _create_message(self, request: web.Request) -> web.Response:
        channel = self._channel_or_404(request.match_info["channel_id"])
        body, files = self._body(request), self._files(request)
        self._validate_message_body(body, has_files=bool(files), creating=True)
        key = (int(channel["id"]), str(body.get("nonce")))
        if body.get("enforce_nonce") and body.get("nonce") is not None:
            # As Discord: a resend with the same nonce (within a few minutes) returns the message already made.
            earlier = self._messages.get(self._enforced_nonces.get(key, 0))
            if earlier is not None and not earlier.deleted:
                self.nonce_hits += 1
                return _json_response(earlier.payload)
        message = self._store_new_message(int(channel["id"]), body, files)
        if body.get("enforce_nonce") and body.get("nonce") is not None:
            self._enforced_nonces[key] = message.id
        await self._announce_message(message)
        return _json_response(message.payload)

    async def _get_message(self, request: web.Request) -> web.Response:
        channel = self._channel_or_404(request.match_info["channel_id"])
        return _json_response(self._message_or_404(channel, request.match_info["message_id"]).payload)

    async def _edit_message(self, request: web.Request) -> web.Response:
        channel = self._channel_or_404(request.match_info["channel_id"])
        message = self._message_or_404(channel, request.match_info["message_id"])
        if message.author_id != self.application_id:
            raise _ApiError(403, "Cannot edit a message authored by another user", 50005)
        self._edit_stored(message, self._body(request), self._files(request))
        await self._announce_message(message, "MESSAGE_UPDATE")
        return _json_response(message.payload)

    async def _delete_message(self, request: web.Request) -> web.Response:
        channel = self._channel_or_404(request.match_info["channel_id"])
        message = self._message_or_404(channel, request.match_info["message_id"])
        await self._delete_stored(message)
        return _no_content()

    async def _delete_stored(self, message: StoredMessage) -> None:
        message.deleted = True
        if not message.ephemeral:
            await self._dispatch_if(
                INTENT_GUILD_MESSAGES,
                "MESSAGE_DELETE",
                {
                    "id": str(message.id),
                    "channel_id": str(message.channel_id),
                    "guild_id": str(self.guild_id),
                },
            )

    async def _add_reaction(self, request: web.Request) -> web.Response:
        channel = self._channel_or_404(request.match_info["channel_id"])
        self._message_or_404(channel, request.match_info["message_id"]).reactions.add(
            request.match_info["emoji"]
        )
        return _no_content()

    async def _remove_reaction(self, request: web.Request) -> web.Response:
        channel = self._channel_or_404(request.match_info["channel_id"])
        self._message_or_404(channel, request.match_info["message_id"]).reactions.discard(
            request.match_info["emoji"]
        )
        return _no_content()

    # ---- interactions -------------------------------------------------------------------------------

    def _interaction_for_token(self, token: str, app_id: str | None = None) -> InteractionRecord:
        if app_id is not None and int(app_id) != self.application_id:
            raise _ApiError(404, "Unknown Webhook", 10015)
        record = self.interactions.get(token)
        if record is None:
            raise _ApiError(404, "Unknown Webhook", 10015)
        return record

    @staticmethod
    def _validate_callback(kind: int, data: JSON) -> None:
        if kind == CALLBACK_AUTOCOMPLETE:
            choices = data.get("choices") or []
            if len(choices) > 25:
                raise _invalid_form("data.choices", "Must be 25 or fewer in length.")
            for i, choice in enumerate(choices):
                if not 1 <= len(str(choice.get("name", ""))) <= 100:
                    raise _invalid_form(f"data.choices.{i}.name", "Must be between 1 and 100 in length.")
                if isinstance(choice.get("value"), str) and len(choice["value"]) > 100:
                    raise _invalid_form(f"data.choices.{i}.value", "Must be 100 or fewer in length.")
        elif kind == CALLBACK_MODAL:
            if not 1 <= len(str(data.get("title", ""))) <= 45:
                raise _invalid_form("data.title", "Must be between 1 and 45 in length.")
            if not 1 <= len(data.get("components") or []) <= 5:
                raise _invalid_form("data.components", "a modal has 1-5 components")

    async def _interaction_callback(self, request: web.Request) -> web.Response:
        token = request.match_info["token"]
        record = self.interactions.get(token)
        if record is None or str(record.id) != request.match_info["interaction_id"]:
            raise _ApiError(404, "Unknown interaction", 10062)
        loop = asyncio.get_running_loop()
        if (
            self.interaction_deadline is not None
            and loop.time() - record.dispatched_at > self.interaction_deadline
        ):
            raise _ApiError(404, "Unknown interaction", 10062)
        if record.callback_type is not None:
            raise _ApiError(400, "Interaction has already been acknowledged.", 40060)
        body = self._body(request)
        files = self._files(request)
        kind = int(body.get("type", 0))
        data: JSON = dict(body.get("data") or {})
        allowed = {
            INTERACTION_PING: {CALLBACK_PONG},
            INTERACTION_COMMAND: {CALLBACK_MESSAGE, CALLBACK_DEFER, CALLBACK_MODAL},
            INTERACTION_COMPONENT: {
                CALLBACK_MESSAGE,
                CALLBACK_DEFER,
                CALLBACK_DEFER_UPDATE,
                CALLBACK_UPDATE,
                CALLBACK_MODAL,
            },
            INTERACTION_AUTOCOMPLETE: {CALLBACK_AUTOCOMPLETE},
            INTERACTION_MODAL_SUBMIT: {
                CALLBACK_MESSAGE,
                CALLBACK_DEFER,
                CALLBACK_DEFER_UPDATE,
                CALLBACK_UPDATE,
            },
        }.get(record.type, set())
        if kind not in allowed:
            raise _ApiError(
                400,
                f"Interaction callback type {kind} is not valid for interaction type {record.type}",
                50035,
            )
        if kind in (CALLBACK_DEFER_UPDATE, CALLBACK_UPDATE) and record.source_message_id is None:
            raise _ApiError(400, "This interaction has no message to update", 50035)
        self._validate_callback(kind, data)

        message: StoredMessage | None = None
        previous_files: set[int] = set()
        if kind == CALLBACK_MESSAGE:
            self._validate_message_body(data, has_files=bool(files), creating=True)
            message_type = 20 if record.type == INTERACTION_COMMAND else 0
            message = self._store_new_message(
                record.channel_id, data, files, message_type=message_type, interaction=record
            )
            record.created_original = True
        elif kind == CALLBACK_DEFER:
            flags = FLAG_LOADING | (int(data.get("flags") or 0) & FLAG_EPHEMERAL)
            message = self._new_loading_message(record, flags)
            record.created_original = True
        elif kind in (CALLBACK_DEFER_UPDATE, CALLBACK_UPDATE):
            message = self._messages.get(record.source_message_id or 0)
            if message is None:
                raise _ApiError(404, "Unknown Message", 10008)
            if kind == CALLBACK_UPDATE:
                previous_files = {a.id for a in message.files}
                self._edit_stored(message, data, files)
        record.callback_type = kind
        record.callback_data = data
        if message is not None:
            record.callback_files = [a for a in message.files if a.id not in previous_files]
        if message is not None:
            record.original_message_id = message.id
            if kind == CALLBACK_UPDATE:
                await self._announce_message(message, "MESSAGE_UPDATE")
            elif kind == CALLBACK_MESSAGE:
                await self._announce_message(message)

        if request.query.get("with_response") not in ("1", "true", "True"):
            return _no_content()
        interaction_info: JSON = {"id": str(record.id), "type": record.type}
        if message is not None:
            interaction_info.update(
                response_message_id=str(message.id),
                response_message_loading=kind == CALLBACK_DEFER,
                response_message_ephemeral=message.ephemeral,
            )
        resource: JSON = {"type": kind}
        if message is not None and kind != CALLBACK_DEFER_UPDATE:
            resource["message"] = message.payload
        return _json_response({"interaction": interaction_info, "resource": resource})

    def _new_loading_message(self, record: InteractionRecord, flags: int) -> StoredMessage:
        message_type = 20 if record.type == INTERACTION_COMMAND else 0
        return self._store_new_message(
            record.channel_id, {}, [], message_type=message_type, extra_flags=flags, interaction=record
        )

    def _webhook_target(self, record: InteractionRecord, raw_id: str) -> StoredMessage:
        if raw_id == "@original":
            if record.original_message_id is None:
                raise _ApiError(404, "Unknown Message", 10008)
            message_id = record.original_message_id
        else:
            message_id = int(raw_id)
            if message_id not in record.followup_ids and message_id != record.original_message_id:
                raise _ApiError(404, "Unknown Message", 10008)
        message = self._messages.get(message_id)
        if message is None or message.deleted:
            raise _ApiError(404, "Unknown Message", 10008)
        return message

    async def _followup_create(self, request: web.Request) -> web.Response:
        record = self._interaction_for_token(request.match_info["token"], request.match_info["app_id"])
        if record.callback_type is None:
            raise _ApiError(404, "Unknown Webhook", 10015)  # Discord: no followups before the callback
        body, files = self._body(request), self._files(request)
        self._validate_message_body(body, has_files=bool(files), creating=True)
        original = self._messages.get(record.original_message_id or 0)
        if record.callback_type == CALLBACK_DEFER and original is not None and original.loading:
            # The first followup after a "thinking" defer replaces the loading message; its
            # ephemerality was fixed by the defer.
            self._edit_stored(original, {k: v for k, v in body.items() if k != "flags"}, files)
            message = original
            await self._announce_message(message, "MESSAGE_UPDATE")
        else:
            message = self._store_new_message(record.channel_id, body, files, interaction=record)
            await self._announce_message(message)
        record.followup_ids.append(message.id)
        if request.query.get("wait") in ("1", "true", "True"):
            return _json_response(message.payload)
        return _no_content()

    async def _webhook_message_get(self, request: web.Request) -> web.Response:
        record = self._interaction_for_token(request.match_info["token"], request.match_info["app_id"])
        return _json_response(self._webhook_target(record, request.match_info["message_id"]).payload)

    async def _webhook_message_edit(self, request: web.Request) -> web.Response:
        record = self._interaction_for_token(request.match_info["token"], request.match_info["app_id"])
        message = self._webhook_target(record, request.match_info["message_id"])
        self._edit_stored(message, self._body(request), self._files(request))
        await self._announce_message(message, "MESSAGE_UPDATE")
        return _json_response(message.payload)

    async def _webhook_message_delete(self, request: web.Request) -> web.Response:
        record = self._interaction_for_token(request.match_info["token"], request.match_info["app_id"])
        await self._delete_stored(self._webhook_target(record, request.match_info["message_id"]))
        return _no_content()


#: The request being handled (set by the recording middleware, read by handlers).
_current_request: contextvars.ContextVar[RecordedRequest] = contextvars.ContextVar("fakediscord_request")


def _attachment_specs(body: Any) -> dict[int, JSON]:
    """``attachments`` entries of a payload_json keyed by id (= upload index for new files)."""
    if not isinstance(body, dict):
        return {}
    candidates = [body, body.get("data"), body.get("message")]
    for candidate in candidates:
        if isinstance(candidate, dict) and isinstance(candidate.get("attachments"), list):
            specs = {}
            for spec in candidate["attachments"]:
                with contextlib.suppress(KeyError, TypeError, ValueError):
                    specs[int(spec["id"])] = spec
            return specs
    return {}


def _describe(payload: Mapping[str, Any]) -> str:
    data = payload.get("data") or {}
    kind = {2: "command", 3: "component", 4: "autocomplete", 5: "modal submit"}.get(
        int(payload.get("type", 0)), "?"
    )
    return f"{kind} {data.get('name') or data.get('custom_id')!r}"


# --------------------------------------------------------------------------------------------------------
# Harness


class ErrorGuard(logging.Handler):
    """Collects ERROR (and above) records from the given loggers; discord.py only *logs* exceptions
    raised in event handlers, commands and views, so a test must look here to notice them."""

    def __init__(self, logger_names: Sequence[str] = ("discord",)) -> None:
        super().__init__(level=logging.ERROR)
        self.logger_names = tuple(logger_names)
        self.records: list[logging.LogRecord] = []
        self._reported = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def install(self) -> None:
        for name in self.logger_names:
            logging.getLogger(name).addHandler(self)

    def uninstall(self) -> None:
        for name in self.logger_names:
            logging.getLogger(name).removeHandler(self)

    @property
    def unreported(self) -> list[logging.LogRecord]:
        return self.records[self._reported :]

    def accept(self) -> None:
        """Mark the records so far as seen: :meth:`check` will not report them."""
        self._reported = len(self.records)

    def clear(self) -> list[logging.LogRecord]:
        """Forget (accept) the records collected so far; returns them."""
        taken, self.records, self._reported = self.records, [], 0
        return taken

    def check(self) -> None:
        """Raise AssertionError describing any records not yet reported."""
        new = self.unreported
        self._reported = len(self.records)
        if new:
            formatter = logging.Formatter("%(name)s: %(message)s")
            text = "\n\n".join(formatter.format(r) for r in new)
            raise AssertionError(f"{len(new)} error(s) logged by discord.py:\n{text}")


BotT = discord.Client
BotFactory = Callable[[], BotT | Awaitable[BotT]]


def _handler_tasks_pending(before: set[asyncio.Task[Any]]) -> bool:
    """Whether a discord.py handler task spawned after ``before`` was taken is still running."""
    for task in asyncio.all_tasks():
        if task in before or task.done():
            continue
        if task.get_name().startswith(_HANDLER_TASK_PREFIXES):
            return True
    return False


class FakeDiscordHarness:
    """Run a discord.py bot in-process against a :class:`FakeDiscord`.

    ``bot`` is a ``discord.Client``/``commands.Bot`` or a zero-argument factory (sync or async)
    returning one; a factory lets :meth:`restart` build a fresh instance.  ``fake`` reuses a running
    fake (it is then not stopped on exit).  On exit the bot is closed, discord.py's endpoints are
    restored, and the test fails if discord.py logged an error or the bot hit an unimplemented route.

    Example::

        async with FakeDiscordHarness(make_bot) as h:
            reply = await h.slash(h.alice, h.channel, "roll", {"dice": 2})
            assert reply.callback_type == 4 and not reply.ephemeral
            board = h.messages()[-1]
            click = await h.click(h.bob, board, board.custom_ids[0])
            assert click.ephemeral
    """

    def __init__(
        self,
        bot: BotT | BotFactory,
        *,
        fake: FakeDiscord | None = None,
        guild_ready_timeout: float | None = 0.05,
        ready_timeout: float = 5.0,
        interaction_timeout: float = 5.0,
        quiet: float = 0.05,
        error_loggers: Sequence[str] = ("discord",),
        allow_unknown_routes: bool = False,
    ) -> None:
        self._bot_source = bot
        self._owns_fake = fake is None or fake.port is None  # stop it on exit if we start it
        self.fake = fake or FakeDiscord()
        self.guild_ready_timeout = guild_ready_timeout
        self.ready_timeout = ready_timeout
        self.interaction_timeout = interaction_timeout
        self.quiet = quiet
        self.allow_unknown_routes = allow_unknown_routes
        self.errors = ErrorGuard(error_loggers)
        self._bot: BotT | None = None
        self._connect_task: asyncio.Task[None] | None = None
        self._previous_endpoints: Endpoints | None = None
        self._unknown_reported = 0

    # ---- lifecycle ----------------------------------------------------------------------------------

    async def __aenter__(self) -> Self:
        if self.fake.port is None:
            await self.fake.start()
        self._previous_endpoints = patch_discord_endpoints(self.fake.api_base, self.fake.gateway_url)
        self.errors.install()
        try:
            await self._start_bot(self._bot_source)
        except BaseException:
            await self._teardown()
            raise
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: object
    ) -> None:
        crash = await self._teardown()
        if exc_type is None:
            if crash is not None:
                raise RuntimeError("the bot's gateway connection failed") from crash
            self.errors.check()
            self._check_unknown_routes()

    async def _teardown(self) -> BaseException | None:
        """Stop the bot, restore discord.py, stop an owned fake; return how the bot's
        gateway loop failed, if it did."""
        try:
            return await self._stop_bot()
        finally:
            self.errors.uninstall()
            if self._previous_endpoints is not None:
                restore_discord_endpoints(self._previous_endpoints)
                self._previous_endpoints = None
            if self._owns_fake:
                await self.fake.stop()

    async def _start_bot(self, source: BotT | BotFactory) -> BotT:
        bot = source if isinstance(source, discord.Client) else source()
        if inspect.isawaitable(bot):
            bot = await bot
        assert isinstance(bot, discord.Client), f"bot factory returned {bot!r}"
        if self.guild_ready_timeout is not None:
            # discord.py waits guild_ready_timeout (2 s) after the last GUILD_CREATE before on_ready.
            bot._connection.guild_ready_timeout = self.guild_ready_timeout
        self._bot = bot
        await bot.login(self.fake.token)
        self._connect_task = asyncio.create_task(bot.connect(reconnect=False), name="fakediscord-bot-connect")
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait(
            {ready, self._connect_task}, timeout=self.ready_timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if ready not in done:
            ready.cancel()
            if self._connect_task in done:
                self._connect_task.result()  # re-raise the connection error
                raise RuntimeError("the bot's gateway connection ended before it was ready")
            raise TimeoutError(f"the bot was not ready after {self.ready_timeout}s")
        if bot.get_guild(self.fake.guild_id) is None:
            raise RuntimeError("the bot is ready but the fake guild is not in its cache")
        return bot

    async def _stop_bot(self) -> BaseException | None:
        """Close the bot and wait for its gateway loop; return the loop's exception, if any."""
        bot, task = self._bot, self._connect_task
        self._bot, self._connect_task = None, None
        if bot is not None:
            await bot.close()
        if task is None:
            return None
        try:
            await asyncio.wait_for(task, timeout=5)
        except asyncio.CancelledError:
            return None
        except Exception as exc:
            return exc
        return None

    async def restart(self, bot: BotT | BotFactory | None = None) -> BotT:
        """Close the bot and start a new one (default: call the original factory again) against the
        same fake, so stored messages, threads and synced commands survive — like a redeploy."""
        crash = await self._stop_bot()
        if crash is not None:
            raise RuntimeError("the bot's gateway connection failed before the restart") from crash
        source = bot if bot is not None else self._bot_source
        if isinstance(source, discord.Client) and source.is_closed():
            raise ValueError("restart() needs a factory or a new bot instance; this one is closed")
        return await self._start_bot(source)

    # ---- accessors ----------------------------------------------------------------------------------

    @property
    def bot(self) -> BotT:
        if self._bot is None:
            raise RuntimeError("no bot is running")
        return self._bot

    @property
    def requests(self) -> list[RecordedRequest]:
        return self.fake.requests

    @property
    def alice(self) -> JSON:
        return self.fake.alice

    @property
    def bob(self) -> JSON:
        return self.fake.bob

    @property
    def carol(self) -> JSON:
        return self.fake.carol

    @property
    def channel(self) -> JSON:
        return self.fake.channel

    def messages(self, channel: ChannelLike | None = None, **kwargs: bool) -> list[StoredMessage]:
        return self.fake.messages(channel, **kwargs)

    def threads(self) -> list[ThreadInfo]:
        return self.fake.threads()

    # ---- interactions -------------------------------------------------------------------------------

    def _ensure_command_known(self, name: str) -> None:
        """If the bot never synced ``name``, register its tree's commands in the fake (no request)
        so payloads get the right option types, ids and guild scope."""
        if self.fake.find_command(name) is not None:
            return
        tree = getattr(self.bot._connection, "_command_tree", None)
        if tree is None:
            return
        for scope in (None, self.fake.guild_id):
            guild = discord.Object(scope) if scope is not None else None
            payloads = [c.to_dict(tree) for c in tree._get_all_commands(guild=guild)]
            known = {(c["name"], c["type"]) for c in self.fake.commands.get(scope, {}).values()}
            missing = [p for p in payloads if (p["name"], p.get("type", 1)) not in known]
            if missing:
                self.fake.register_commands(missing, scope, replace=False)

    async def interact(
        self,
        payload: JSON,
        *,
        expect_response: bool = True,
        allow_errors: bool = False,
        timeout: float | None = None,
    ) -> InteractionReply:
        """Dispatch an interaction payload and wait until the bot is done with it.

        Raises AssertionError if discord.py logged an error meanwhile (unless ``allow_errors``; the
        records stay in ``self.errors.records``), if the bot called an unimplemented route, or if it
        never acknowledged the interaction (unless ``expect_response`` is False or an error explains
        why).
        """
        self._check_connection()
        before = set(asyncio.all_tasks())
        try:
            reply = await self.fake.interact(
                payload,
                timeout=timeout or self.interaction_timeout,
                quiet=self.quiet,
                expect_response=expect_response,
                busy=lambda: _handler_tasks_pending(before),
                give_up=lambda: bool(self.errors.unreported) or self._connection_lost(),
            )
        finally:
            self._check_connection()
            if allow_errors:
                self.errors.accept()
            else:
                self.errors.check()
            self._check_unknown_routes()
        return reply

    def _connection_lost(self) -> bool:
        return self._connect_task is not None and self._connect_task.done()

    def _check_connection(self) -> None:
        """Fail loudly if the bot's gateway loop died (e.g. a payload its parser could not read)."""
        task = self._connect_task
        if task is not None and task.done():
            error = None if task.cancelled() else task.exception()
            raise RuntimeError("the bot's gateway connection has ended") from error

    async def slash(
        self,
        user: UserLike,
        channel: ChannelLike,
        name: str,
        options: Mapping[str, Any] | None = None,
        subcommand: str | None = None,
        **kwargs: Any,
    ) -> InteractionReply:
        """Run ``/name [subcommand] options...`` as ``user`` in ``channel``."""
        self._ensure_command_known(name)
        return await self.interact(self.fake.slash(user, channel, name, options, subcommand), **kwargs)

    async def autocomplete(
        self,
        user: UserLike,
        channel: ChannelLike,
        name: str,
        options: Mapping[str, Any],
        subcommand: str | None = None,
        *,
        focused: str | None = None,
        **kwargs: Any,
    ) -> InteractionReply:
        """Ask for autocomplete choices (``reply.choices``); ``focused`` defaults to the last option."""
        self._ensure_command_known(name)
        payload = self.fake.autocomplete(user, channel, name, options, subcommand, focused=focused)
        return await self.interact(payload, **kwargs)

    def _stored(self, message: StoredMessage | int | str) -> StoredMessage:
        if isinstance(message, StoredMessage):
            return self.fake.message(message.id)  # the current version
        return self.fake.message(message)

    async def click(
        self, user: UserLike, message: StoredMessage | int | str, custom_id: str, **kwargs: Any
    ) -> InteractionReply:
        """Click the button ``custom_id`` on ``message`` (which must carry it, enabled)."""
        stored = self._stored(message)
        component = stored.component(custom_id)
        if component.get("disabled"):
            raise AssertionError(f"button {custom_id!r} on message {stored.id} is disabled")
        payload = self.fake.component(user, stored, custom_id, int(component["type"]))
        return await self.interact(payload, **kwargs)

    async def select(
        self,
        user: UserLike,
        message: StoredMessage | int | str,
        custom_id: str,
        values: Sequence[str],
        **kwargs: Any,
    ) -> InteractionReply:
        """Choose ``values`` in the select menu ``custom_id`` on ``message``."""
        stored = self._stored(message)
        component = stored.component(custom_id)
        if component.get("disabled"):
            raise AssertionError(f"select {custom_id!r} on message {stored.id} is disabled")
        if int(component["type"]) == 3:
            offered = {o["value"] for o in component.get("options", [])}
            unknown = [v for v in values if v not in offered]
            if unknown:
                raise AssertionError(
                    f"values {unknown} are not options of select {custom_id!r}: {sorted(offered)}"
                )
        payload = self.fake.component(user, stored, custom_id, int(component["type"]), values)
        return await self.interact(payload, **kwargs)

    async def submit_modal(
        self,
        user: UserLike,
        channel: ChannelLike,
        opened: InteractionReply | Mapping[str, Any],
        values: Mapping[str, Any],
        **kwargs: Any,
    ) -> InteractionReply:
        """Submit the modal the bot opened (``opened`` is the reply that showed it, or the modal)."""
        modal = opened.modal if isinstance(opened, InteractionReply) else opened
        if modal is None:
            raise AssertionError("that reply did not open a modal")
        message = None
        if isinstance(opened, InteractionReply) and opened.original is not None:
            message = opened.original
        payload = self.fake.modal_submit(user, channel, modal, values, message)
        return await self.interact(payload, **kwargs)

    async def dispatch(self, event: str, data: JSON) -> None:
        await self.fake.dispatch(event, data)

    def _check_unknown_routes(self) -> None:
        unknown = self.fake.unknown_requests
        new, self._unknown_reported = unknown[self._unknown_reported :], len(unknown)
        if new and not self.allow_unknown_routes:
            raise AssertionError(f"the bot called routes the fake does not implement: {new}")
