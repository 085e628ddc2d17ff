"""A server's default level for Tabula's seats (``/game defaults tabula_level:``), beside its clock and policy."""

import sqlalchemy as sa

from bot.store.migrating import add_columns, drop_columns, optional

revision = "0008"
down_revision = "0007"


def upgrade() -> None:
    add_columns("guild_setting", optional("tabula_level", sa.String))


def downgrade() -> None:
    drop_columns("guild_setting", "tabula_level")
