"""Games, seats and the action log."""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None


def upgrade() -> None:
    op.create_table(
        "game",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("guild_id", sa.BigInteger, nullable=True),
        sa.Column("channel_id", sa.BigInteger, nullable=True),
        sa.Column("thread_id", sa.BigInteger, nullable=True),
        sa.Column("lobby_message_id", sa.BigInteger, nullable=True),
        sa.Column("host_id", sa.BigInteger, nullable=False),
        sa.Column("ruleset", sa.String, nullable=False),
        sa.Column("options", sa.String, nullable=False, server_default="{}"),
        sa.Column("status", sa.String, nullable=False, server_default="lobby"),
        sa.Column("seed", sa.BigInteger, nullable=False, server_default="0"),
        sa.Column("state", sa.Text, nullable=True),
        sa.Column("version", sa.Integer, nullable=False, server_default="0"),
        sa.Column("deadline", sa.Float, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False, server_default="0"),
        sa.Column("updated_at", sa.Float, nullable=False, server_default="0"),
    )
    op.create_index("ix_game_guild_id", "game", ["guild_id"])
    op.create_index("ix_game_thread_id", "game", ["thread_id"])
    op.create_index("ix_game_deadline", "game", ["deadline"])
    op.create_table(
        "seat",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("game.id"), nullable=False),
        sa.Column("user_id", sa.BigInteger, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("name", sa.String, nullable=False),
        sa.UniqueConstraint("game_id", "user_id"),
        sa.UniqueConstraint("game_id", "seat"),
    )
    op.create_index("ix_seat_game_id", "seat", ["game_id"])
    op.create_table(
        "action",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("game.id"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("user_id", sa.BigInteger, nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("action", sa.String, nullable=False),
        sa.Column("events", sa.String, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False, server_default="0"),
    )
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
