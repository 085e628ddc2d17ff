"""The game service, transport-free: acting on a game (``play``), the lobby, history and replay (``records``),
reading the log (``gamelog``), the moment presenters read, and the command surface and guide built from the
games' specs.  Discord's cogs, the terminal runner and the tests all go through it."""
