"""Games by message over days and weeks: the turn clock (``clock``) and the service that sweeps it, nudges,
hands seats over, pauses, grants vacations and takes moves back (``service``)."""
