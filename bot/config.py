"""Settings, read from the environment or a ``.env`` file (see ``.env.example`` for every variable)."""

from __future__ import annotations

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = Field(default=None, description="The bot token from the Developer Portal.")
    dev_guild_id: int | None = Field(default=None, description="Sync commands to this server only (instant).")
    database_url: str = Field(default="sqlite+aiosqlite:///tabula.db", description="Where games are kept.")
    narrator_timeout_minutes: float = Field(
        default=10.0, ge=0.1, le=7 * 24 * 60,
        description="Default minutes a Narrator has before Tabula reads the card itself (per game: option).",
    )
    timeout_poll_seconds: float = Field(default=15.0, ge=0.5, description="How often deadlines are checked.")
    log_level: str = Field(default="INFO", description="DEBUG, INFO, WARNING or ERROR.")
