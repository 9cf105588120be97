"""Who the fake Slack workspace is: its team, the bot, the app, the channels the bot is in."""

from __future__ import annotations

TEAM_ID = "T0001"
TEAM_NAME = "Test"
TEAM_URL = "https://test.slack.com/"
BOT_USER_ID = "UBOT"
BOT_ID = "BBOT"
APP_ID = "A1"

# Channels the bot is a member of unless a test says otherwise: the ones the tests use.
MEMBER_CHANNELS = frozenset({"C0", "C1", "C9", "C123", "CHIRE", "CRANDOM", "COTHER", "CX"})
