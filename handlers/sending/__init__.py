"""Sending, one way: a plan (a list of `Outgoing`) carried out in order; the outbox, posting once, pacing. Nothing here calls back into what made the plan."""
