"""`debrief doctor`: check a deployment and say, line by line, what is wrong and which
setting to fix.

`Doctor.checks()` puts the checks together, each a small method yielding `Check`s, in
the words of the catalogue (bot/words/): the team's language for a terminal,
English for `--json`, whose output is the same whatever DEBRIEF_LOCALE says. Nothing
here changes anything: the database is opened without being created, the transcripts
folder is parsed but not indexed, and Slack is only asked questions.

Each group of checks is a module of its own: Slack's (bot/doctor_slack.py), the
database's (bot/doctor_database.py), the files' (bot/doctor_files.py), on what they share
(bot/doctor_check.py).
"""

from __future__ import annotations

from slack_sdk import WebClient

from store.models import Locale

from .doctor_check import Check
from .doctor_database import DatabaseChecks
from .doctor_files import FileChecks
from .doctor_slack import SlackChecks
from .doctor_zoom import ZoomChecks
from .settings import Settings


class Doctor(ZoomChecks, SlackChecks, DatabaseChecks, FileChecks):
    """The checks of one deployment, said in `locale`."""

    def checks(self) -> list[Check]:
        slack = self.installs() if self.settings.many_workspaces else self.bot_token()
        return [
            *slack,
            self.deciders(),
            *self.app_token(),
            *self.signing_secret(),
            self.mode(),
            *self.database(),
            *self.permissions(),
            *self.transcripts(),
            *self.zoom(),
        ]


def run_checks(settings: Settings, client: WebClient | None, locale: Locale = "en") -> list[Check]:
    return Doctor(settings, client, locale).checks()
