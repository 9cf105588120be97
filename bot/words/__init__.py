"""The command line's catalogue: its own words (lines for a terminal, doctor, settings,
whole workspaces' data) over Slack's (handlers/i18n.py), said with the one lookup.
Everything in bot/ says its words through `t` here."""

from __future__ import annotations

from handlers.i18n import CATALOGUE as SLACK
from handlers.i18n import Catalogue

from . import cli, doctor, loops, settings, workspaces

CATALOGUE = Catalogue(
    cli.WORDS, doctor.WORDS, settings.WORDS, workspaces.WORDS, loops.WORDS, over=SLACK
)

t = CATALOGUE.t
has = CATALOGUE.has
