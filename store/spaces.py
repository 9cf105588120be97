"""Erasing a whole data space, as `forget` erases a candidate, and naming space 0.

A workspace that uninstalled Debrief keeps its data for a grace period; then (or at
once, `debrief forget --workspace T…`) all of it goes: each candidate of the space as
`forget` erases one (`AuditStore._erase`: their rows, threads and decisions; their audit
lines kept under a pseudonym), then every other row the space holds, then the space is
marked erased and loses its Slack key, so that installing again starts a fresh space.

The erasure is a series of short transactions (`erase_space_step`), each checking that
the space is still not installed, so it never holds SQLite's one writer for long, can
stop anywhere, and goes on where it stopped when run again. Uploaded files are the
caller's to delete: a step hands their paths over, and `forget_space_files` drops them
once deleted. Space 0 (the single-workspace mode's) is erased only once an install took
it (it has a Slack key) and then uninstalled.
"""

from __future__ import annotations

import json
import time
from typing import Any

from .audit import AuditStore
from .base import Tx
from .clock import utcnow
from .installations import _WORKSPACE
from .maintenance import WORKSPACE
from .rows import LAST_INDEX_RUN
from .schema.tables import emptied_by, forgotten_by
from .workspace_models import SpaceRefusal, SpaceStep, Workspace, ZeroNaming

_W = ", ".join(f"w.{c}" for c in _WORKSPACE.split(", "))

SUBJECTS_A_STEP = 100
"""At most this many candidates erased in one transaction (fewer when `max_seconds` is up)."""
ROWS_A_STEP = 1000
"""At most this many other rows of one table deleted in one transaction."""
FILES_A_STEP = 500

_SUBJECT_SOURCES = tuple(
    f"SELECT DISTINCT {t.subject} FROM {t.name} WHERE {{space}} AND {t.subject} IS NOT NULL LIMIT ?"
    for t in forgotten_by("candidate", "rows")
)
"""Where a space's candidates are named, besides the audit: each id found is erased as
`forget` erases it, which removes it from all of these."""

_AUDIT_SUBJECTS = (
    "SELECT a.candidate_id FROM audit a WHERE a.{space} AND a.candidate_id IS NOT NULL"
    " AND a.candidate_id > ? AND NOT EXISTS (SELECT 1 FROM erased e WHERE e.ws = a.ws"
    " AND e.pseudonym = a.candidate_id) GROUP BY a.candidate_id ORDER BY a.candidate_id LIMIT ?"
)
"""Ids the audit names that no pseudonym stands for yet (someone looked up once, whose
file went): after `after`, in the database's own order, so a pass reads each once."""

SPACE_ROWS = tuple((t.name, str(t.key)) for t in emptied_by("rows"))
"""The tables whose rows of an erased space go once its candidates have (each with its
key within the space). `candidates` are empty by then, `audit` is kept (pseudonymized),
and `erased` goes last, with the mark (`finish_space_erasure`)."""


def refusal(ws: int, row: tuple[Any, ...] | None) -> SpaceRefusal | None:
    """Why space `ws`, as (slack_key, uninstalled_at, erased_at, installed) read, may not
    be erased; None when it may."""
    if row is None or row[2] is not None:
        return "erased"
    slack_key, uninstalled_at, _erased_at, installed = row
    if installed:
        return "installed"
    if ws == 0 and slack_key is None:
        return "unadopted"
    if ws == 0 and uninstalled_at is None:
        return "not_uninstalled"
    return None


class SpaceStore(AuditStore):
    """Whole data spaces: which are installed, which are due for erasure, erasing one,
    and giving space 0 the Slack key of the workspace it served."""

    def installed_spaces(self) -> list[Workspace]:
        """The spaces installed now (each with its Slack key), in order."""
        return [
            Workspace(**r)
            for r in self._rows(
                f"SELECT {_W} FROM workspaces w JOIN installations i ON i.ws = w.ws"
                " WHERE w.slack_key IS NOT NULL AND w.erased_at IS NULL ORDER BY w.ws"
            )
        ]

    def live_spaces(self) -> list[Workspace]:
        """Every space not erased (installed or not, space 0 among them), in order."""
        return [
            Workspace(**r)
            for r in self._rows(
                f"SELECT {_W} FROM workspaces w WHERE w.erased_at IS NULL ORDER BY w.ws"
            )
        ]

    def spaces_to_erase(self, now: str | None = None) -> list[Workspace]:
        """The spaces whose grace has passed (`erase_after` <= now, an ISO time in UTC)
        with no installation and not yet erased: the daily job's to erase, oldest first.
        Space 0 only once an install took it and then uninstalled."""
        bytewise = self.engine.bytewise
        return [
            Workspace(**r)
            for r in self._rows(
                f"SELECT {_W} FROM workspaces w WHERE w.erase_after IS NOT NULL"
                f" AND w.erase_after {bytewise} <= ? AND w.erased_at IS NULL"
                " AND NOT EXISTS (SELECT 1 FROM installations i WHERE i.ws = w.ws)"
                " AND (w.ws <> 0 OR (w.slack_key IS NOT NULL AND w.uninstalled_at IS NOT NULL))"
                " ORDER BY w.erase_after, w.ws",
                [now or utcnow()],
            )
        ]

    def _refusal(self, tx: Tx, ws: int) -> SpaceRefusal | None:
        """Why space `ws` may not be erased, read inside `tx`, where no install of it
        can happen meanwhile (the lock `save_installation` takes)."""
        self._one_at_a_time(tx, "workspaces")
        row = tx.execute(
            "SELECT slack_key, uninstalled_at, erased_at,"
            " (SELECT count(*) FROM installations i WHERE i.ws = w.ws)"
            " FROM workspaces w WHERE w.ws = ?",
            [ws],
        ).fetchone()
        return refusal(ws, None if row is None else tuple(row))

    def space_erasure_refusal(self, ws: int) -> SpaceRefusal | None:
        """Why space `ws` may not be erased now; None when it may."""
        with self.tx() as tx:
            return self._refusal(tx, ws)

    def begin_space_erasure(self, ws: int) -> SpaceRefusal | None:
        """Erase space `ws` now rather than at its date: its erasure is due from now on,
        so the daily job finishes it should this run stop half-way. Why it may not be
        erased, None when it may (and now is due)."""
        now = utcnow()
        bytewise = self.engine.bytewise
        with self.tx() as tx:
            refused = self._refusal(tx, ws)
            if refused is None:
                tx.execute(
                    "UPDATE workspaces SET erase_after = ? WHERE ws = ?"
                    f" AND (erase_after IS NULL OR erase_after {bytewise} > ?)",
                    [now, ws, now],
                )
            return refused

    def erase_space_step(
        self,
        ws: int,
        after: str = "",
        max_seconds: float = 0.25,
        limit: int = SUBJECTS_A_STEP,
    ) -> SpaceStep:
        """One short transaction of erasing space `ws`: up to `limit` of its candidates
        erased as `forget` erases them (for at most about `max_seconds`), then the ids
        only the audit names (from `after` on: pass back the step's `after`), then the
        paths of its uploaded files (the caller deletes them, then calls
        `forget_space_files`), then its other rows a table at a time; `done` when
        nothing is left but `finish_space_erasure`. `stopped` when the space was
        installed again (or erased) meanwhile: nothing was done."""
        view = self.in_workspace(ws)
        space = view.space

        def erase(tx: Tx, subjects: list[str], audit: bool) -> SpaceStep:
            step = SpaceStep(after=after)
            started = time.monotonic()
            for subject in subjects:
                view._erase(tx, subject)
                step.candidates += 1
                if audit:  # the audit's subjects are read in order from `after` on
                    step.after = subject
                if time.monotonic() - started > max_seconds:
                    break
            return step

        def write(tx: Tx) -> SpaceStep:
            refused = self._refusal(tx, ws)
            if refused is not None:
                return SpaceStep(stopped=refused)
            for sql in _SUBJECT_SOURCES:
                found = [str(r[0]) for r in tx.execute(sql.format(space=space), [limit])]
                if found:
                    return erase(tx, found, audit=False)
            found = [
                str(r[0]) for r in tx.execute(_AUDIT_SUBJECTS.format(space=space), [after, limit])
            ]
            if found:
                return erase(tx, found, audit=True)
            files = [
                str(r[0])
                for r in tx.execute(
                    f"SELECT DISTINCT path FROM uploads WHERE {space} AND path IS NOT NULL LIMIT ?",
                    [FILES_A_STEP],
                )
            ]
            if files:
                return SpaceStep(files=files, after=after)
            for table, key in SPACE_ROWS:
                gone = tx.execute(
                    f"DELETE FROM {table} WHERE {space} AND ({key}) IN"
                    f" (SELECT {key} FROM {table} WHERE {space} LIMIT ?)",
                    [ROWS_A_STEP],
                ).rowcount
                if gone:
                    return SpaceStep(rows=gone, after=after)
            return SpaceStep(done=True, after=after)

        step = self._erase_for_good(write, wipe=False)
        assert step is not None
        return step

    def forget_space_files(self, ws: int, paths: list[str]) -> None:
        """The uploaded files of space `ws` at `paths` were deleted: their rows no
        longer name them (the rows themselves go with the space's other rows)."""
        if not paths:
            return
        where, params = self.engine.in_list("path", paths)
        with self.tx() as tx:
            tx.execute(
                "UPDATE uploads SET path = NULL, candidate_id = NULL, outcome = 'forgotten'"
                f" WHERE ws = ? AND {where}",
                [ws, *params],
            )

    def finish_space_erasure(self, ws: int) -> bool:
        """Space `ws` holds nothing any more (but its audit, pseudonymized): its
        pseudonyms go, it is marked erased and loses its Slack key, so that the
        workspace, installed again, gets a fresh space; and what was deleted is wiped
        from the database's files. False when it may not be erased or something is
        left (written meanwhile): erase on, then finish again."""

        def write(tx: Tx) -> bool | None:
            if self._refusal(tx, ws) is not None:
                return None
            for t in emptied_by("forget", "rows"):
                if tx.execute(f"SELECT 1 FROM {t.name} WHERE ws = ? LIMIT 1", [ws]).fetchone():
                    return None
            tx.execute("DELETE FROM erased WHERE ws = ?", [ws])
            tx.execute("DELETE FROM meta WHERE key = ?", [f"{LAST_INDEX_RUN}:{ws:d}"])
            self._space_erased(tx, ws)
            tx.execute(
                "UPDATE workspaces SET erased_at = ?, slack_key = NULL WHERE ws = ?",
                [utcnow(), ws],
            )
            return True

        return bool(self._erase_for_good(write))

    def wipe_erased(self) -> None:
        """What erasure steps deleted is wiped from the database's files now (a space's
        erasure that stopped half-way: its finish would have)."""
        self._erase_for_good(_nothing)

    # -- space 0 named ----------------------------------------------------------------

    def name_space_zero(self, key: str, force: bool = False) -> ZeroNaming:
        """Give space 0 (the single-workspace mode's) the Slack key `key` (`T…`, or `E…`
        for an organisation), so that this workspace's first install takes it, with
        every row it holds, none rewritten. Refused when another space has the key,
        space 0 has another one or was erased, and, unless `force`, when the
        single-workspace mode recorded serving another team."""
        kind = "enterprise" if key.startswith("E") else "team"

        def write(tx: Tx) -> ZeroNaming:
            self._one_at_a_time(tx, "workspaces")
            owner = tx.execute("SELECT ws FROM workspaces WHERE slack_key = ?", [key]).fetchone()
            if owner is not None:
                return "already" if owner[0] == 0 else "taken"
            zero = tx.execute("SELECT slack_key, erased_at FROM workspaces WHERE ws = 0").fetchone()
            if zero is None or zero[1] is not None:
                return "erased"
            if zero[0] is not None:
                return "keyed"
            served = tx.execute("SELECT value FROM meta WHERE key = ?", [WORKSPACE]).fetchone()
            recorded = json.loads(served[0]) if served is not None else {}
            if recorded.get("team_id") not in (None, key) and not force:
                return "served_other"
            tx.execute("UPDATE workspaces SET slack_key = ?, kind = ? WHERE ws = 0", [key, kind])
            if recorded.get("team_id") == key and recorded.get("team"):
                tx.execute("UPDATE workspaces SET name = ? WHERE ws = 0", [str(recorded["team"])])
            return "named"

        with self.tx() as tx:
            return write(tx)


def _nothing(tx: Tx) -> bool:
    return True
