"""Settings, read from the environment or a ``.env`` file (see ``.env.example`` for every variable)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

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
    default_clock: Literal["1h", "12h", "24h", "3d", "none"] = Field(
        default="24h", description="The turn clock of new games when neither /game new nor the server sets one.")
    default_policy: Literal["tabula", "skip", "pause"] = Field(
        default="tabula", description="What happens when a turn clock runs out, unless the game or server says.")
    vacation_days: float = Field(default=14.0, ge=0, le=365,
                                 description="Days of /game vacation each player may take per game.")
    log_level: str = Field(default="INFO", description="DEBUG, INFO, WARNING or ERROR.")
    log_format: Literal["plain", "json"] = Field(default="plain", description="plain lines, or JSON lines.")
    picture_cache_dir: Path | None = Field(
        default=None, description="Where drawn pictures are kept between runs (PNG files; delete them any time). "
                                  "Unset: beside the SQLite file, else $XDG_CACHE_HOME/tabula/pictures.")
    health_port: int | None = Field(default=None, ge=0, le=65535,
                                    description="Serve /healthz and /metrics (Prometheus) on this port; unset: off.")
    health_host: str = Field(default="127.0.0.1", description="The address the health port listens on "
                                                              "(0.0.0.0 in a container).")
