"""Games, seats and the action log."""

import sqlalchemy as sa
from alembic import op

from bot.store.migrating import game_table, moment, optional, required, row_id

revision = "0001"
down_revision = None


def upgrade() -> None:
    op.create_table(
        "game",
        row_id(),
        optional("guild_id", sa.BigInteger),
        optional("channel_id", sa.BigInteger),
        optional("thread_id", sa.BigInteger),
        optional("lobby_message_id", sa.BigInteger),
        required("host_id", sa.BigInteger),
        required("ruleset", sa.String),
        required("options", sa.String, server_default="{}"),
        required("status", sa.String, server_default="lobby"),
        required("seed", sa.BigInteger, server_default="0"),
        optional("state", sa.Text),
        required("version", sa.Integer, server_default="0"),
        optional("deadline", sa.Float),
        moment("created_at"),
        moment("updated_at"),
    )
    op.create_index("ix_game_guild_id", "game", ["guild_id"])
    op.create_index("ix_game_thread_id", "game", ["thread_id"])
    op.create_index("ix_game_deadline", "game", ["deadline"])
    game_table("seat",
               required("user_id", sa.BigInteger),
               required("seat", sa.Integer),
               required("name", sa.String),
               sa.UniqueConstraint("game_id", "user_id"),
               sa.UniqueConstraint("game_id", "seat"))
    op.create_index("ix_seat_game_id", "seat", ["game_id"])
    game_table("action",
               required("seq", sa.Integer),
               required("user_id", sa.BigInteger),
               optional("seat", sa.Integer),
               required("action", sa.String),
               required("events", sa.String),
               moment("created_at"))
    op.create_index("ix_action_game_seq", "action", ["game_id", "seq"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_action_game_seq", "action")
    op.drop_table("action")
    op.drop_index("ix_seat_game_id", "seat")
    op.drop_table("seat")
    op.drop_index("ix_game_deadline", "game")
    op.drop_index("ix_game_thread_id", "game")
    op.drop_index("ix_game_guild_id", "game")
    op.drop_table("game")
