"""Discord glue: parse the interaction, call the service, present, reply.  No game rule lives here."""
