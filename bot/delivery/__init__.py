"""What a move owes the players, and getting it to them exactly once: the public telling of a move
(``tellings``), the outbox every committed move writes, and the clock's notices kept beside it."""
