"""doctor's checks of the files on this machine: the transcripts folder (parsed as an
index run would, nothing written), and files of personal data others may read."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from handlers.i18n import reason_text
from store.factory import is_pg_url
from store.private import others_can_read
from store.transcripts.files import collect, prepare

from .doctor_check import Check, Checks, Status


class FileChecks(Checks):
    """The files' part of doctor."""

    def permissions(self) -> Iterator[Check]:
        """Files of personal data that other users of this machine can read."""
        exposed: list[str] = []
        db = self.settings.db_path
        if not is_pg_url(db):
            exposed += [p for p in (db, db + "-wal", db + "-shm") if _readable_by_others(p)]
        uploads = str(self.settings.uploads_dir)
        if _readable_by_others(uploads):
            exposed.append(uploads)
        if exposed:
            fixes = "; ".join(f"chmod {'700' if os.path.isdir(p) else '600'} {p}" for p in exposed)
            yield self.check("permissions", "warn", "doctor_permissions_open", fixes=fixes)
        else:
            yield self.check("permissions", "ok", "doctor_permissions_ok")

    def transcripts(self) -> Iterator[Check]:
        settings = self.settings
        if not settings.transcripts:
            yield self.check("transcripts", "skip", "doctor_transcripts_unset")
            return
        folder = Path(settings.transcripts).expanduser()
        if not folder.is_dir() or not os.access(folder, os.R_OK | os.X_OK):
            yield self.check("transcripts", "fail", "doctor_transcripts_unreadable", path=folder)
            return
        counts = {"transcripts": 0, "skipped": 0, "failing": 0}
        first_failure = ""
        # the same walk and the same reading as an index run: .debriefignore honoured,
        # FIFOs and devices skipped from stat, nothing written
        found, _roots, missing = collect([folder])
        for failure in missing:
            counts["failing"] += 1
            why = reason_text(self.locale, failure.error, failure.code, failure.params)
            first_failure = first_failure or self.say("labelled", label=failure.path, text=why)
        for f in found:
            prepared = prepare(f.path)
            if prepared.skipped is not None:
                counts["skipped"] += 1
            elif prepared.failure is not None:
                counts["failing"] += 1
                where = prepared.failure.path + (
                    f":{prepared.failure.line}" if prepared.failure.line else ""
                )
                failed = prepared.failure
                why = reason_text(self.locale, failed.error, failed.code, failed.params)
                first_failure = first_failure or self.say("labelled", label=where, text=why)
            else:
                counts["transcripts"] += 1
        detail = self.say("doctor_transcripts", path=folder, **counts)
        if first_failure:
            detail += self.say("doctor_transcripts_first", failure=first_failure)
        status: Status = "warn" if counts["failing"] else "ok"
        yield Check(name="transcripts", status=status, detail=detail)


def _readable_by_others(path: str) -> bool:
    try:
        return others_can_read(path)
    except OSError:
        return False  # not there (yet): nothing to read
