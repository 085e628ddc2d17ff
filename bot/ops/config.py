"""Settings, read from the environment or a ``.env`` file (see ``.env.example`` for every variable)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AliasChoices, Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict


class Settings(BaseSettings):
    # An empty value (`DEV_GUILD_ID=` in .env.example, `HEALTH_PORT=` in the environment) means "not set": the
    # setting keeps its default, so .env.example copied unchanged plus a token starts the bot.
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore",
                                      env_ignore_empty=True)

    discord_token: SecretStr | None = Field(default=None, description="The bot token from the Developer Portal.")
    dev_guild_id: int | None = Field(default=None, description="Sync commands to this server only (instant).")
    database_url: str = Field(default="sqlite+aiosqlite:///tabula.db", description="Where games are kept.")
    turn_timeout_minutes: float = Field(
        default=10.0, ge=0.1, le=7 * 24 * 60,
        validation_alias=AliasChoices("turn_timeout_minutes", "narrator_timeout_minutes"),
        description="Default minutes a player (a Narrator, an opponents' player) has before Tabula acts for "
                    "them (per game: the turn_timeout option). NARRATOR_TIMEOUT_MINUTES, its old name, still works.",
    )
    timeout_poll_seconds: float = Field(default=15.0, ge=0.5, description="How often deadlines are checked.")
    guild_ready_timeout: float = Field(default=0.5, ge=0.0, le=60.0,
                                       description="Seconds to wait for the servers' data at start-up before "
                                                   "ready (then owed posts are told and clocks swept).")
    default_clock: Literal["1h", "12h", "24h", "3d", "none"] = Field(
        default="24h", description="The turn clock of new games when neither /game new nor the server sets one.")
    default_policy: Literal["tabula", "skip", "pause"] = Field(
        default="tabula", description="What happens when a turn clock runs out, unless the game or server says.")
    vacation_days: float = Field(default=14.0, ge=0, le=365,
                                 description="Days of /game vacation each player may take per game.")
    tabula_workers: int = Field(default=1, ge=1, le=64, description=(
        "Processes that think for Tabula's seats at the normal and strong levels (easy plays inline)."))
    tabula_think_seconds: float = Field(default=2.0, ge=0.05, le=60, description=(
        "Wall-time budget of one move of a Tabula seat at the strong level (normal thinks a third of it)."))
    log_level: str = Field(default="INFO", description="DEBUG, INFO, WARNING or ERROR.")
    log_format: Literal["plain", "json"] = Field(default="plain", description="plain lines, or JSON lines.")
    # --- several processes (see bot/ops/shards.py and the README's "Several processes on one PostgreSQL") ---
    shard_count: int | None = Field(default=None, ge=1, le=10_000, description=(
        "Discord shards of the whole deployment; unset: one process runs every shard (Discord's recommendation)."))
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = Field(default=None, description=(
        "The shards this process runs, e.g. 0,1 (needs SHARD_COUNT); unset: all of them."))
    shard_lease_seconds: float = Field(default=30.0, ge=2, le=600, description=(
        "A process's claim on its shards lasts this long without a heartbeat (a crashed process's shards are "
        "free again after it)."))

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _split_ids(cls, value: Any) -> Any:
        if isinstance(value, str):  # SHARD_IDS="0,1" (or "0 1")
            parts = [p for p in value.replace(",", " ").split() if p]
            return tuple(int(p) for p in parts) if parts else None
        return value

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        if self.shard_ids is not None:
            if self.shard_count is None:
                raise ValueError("SHARD_IDS needs SHARD_COUNT (the shards of the whole deployment)")
            wrong = [i for i in self.shard_ids if not 0 <= i < self.shard_count]
            if wrong:
                raise ValueError(f"SHARD_IDS must be between 0 and {self.shard_count - 1} (SHARD_COUNT is "
                                 f"{self.shard_count}); {', '.join(map(str, wrong))} is not")
            if len(set(self.shard_ids)) != len(self.shard_ids):
                raise ValueError("SHARD_IDS names a shard twice")
        return self
    picture_cache_dir: Path | None = Field(
        default=None, description="Where drawn pictures are kept between runs (PNG files; delete them any time). "
                                  "Unset: beside the SQLite file, else $XDG_CACHE_HOME/tabula/pictures.")
    health_port: int | None = Field(default=None, ge=0, le=65535,
                                    description="Serve /healthz and /metrics (Prometheus) on this port; unset: off.")
    health_host: str = Field(default="127.0.0.1", description="The address the health port listens on "
                                                              "(0.0.0.0 in a container).")
    # --- the games' web pages (bot/web; see docs/web.md) ---
    web_port: int | None = Field(default=None, ge=0, le=65535,
                                 description="Serve every game's live web page on this port; unset: off.")
    web_host: str = Field(default="127.0.0.1", description="The address the web pages' port listens on "
                                                           "(0.0.0.0 in a container, behind a reverse proxy).")
    web_base_url: str | None = Field(default=None, description=(
        "The pages' public address as players reach it (https://tabula.example.org behind a reverse proxy); "
        "unset: http://WEB_HOST:WEB_PORT."))
    web_link_days: float = Field(default=30.0, gt=0, le=365, description=(
        "Days a personal link (/game web, sent privately) opens its seat's own view; /game web revoke ends "
        "them sooner."))
    web_rate_per_minute: int = Field(default=240, ge=10, le=100_000, description=(
        "Requests a minute each address may make of the web pages (in bursts of half that)."))

    def web_url(self, port: int | None = None) -> str:
        """The base of the pages' links."""
        if self.web_base_url:
            return self.web_base_url.rstrip("/")
        host = "127.0.0.1" if self.web_host in ("0.0.0.0", "::", "") else self.web_host
        return f"http://{host}:{port if port is not None else self.web_port}"
