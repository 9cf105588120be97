"""The seam between the store and the rest: what bot/ and handlers/ may ask of a store.

`store.db.Store` (SQLite) implements both protocols; a second backend (PostgreSQL,
say) would implement them too, and handlers can be annotated with `StoreAPI` rather
than the SQLite class. `IndexTarget` is what an index run (`store/indexer.py`) needs.
Only implementations of these speak SQL.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, ClassVar, Protocol

from .models import (
    AuditEntry,
    Candidate,
    CandidateSummary,
    Decision,
    DigestCategory,
    DigestData,
    DigestLine,
    SearchHit,
    Transcript,
)

if TYPE_CHECKING:
    from .fulltext import Sort
    from .resolve import Resolution
    from .threads import ReplyOutcome


class StoreAPI(Protocol):
    """Every store method that bot/ and handlers/ call."""

    DIGEST_CATEGORIES: ClassVar[tuple[DigestCategory, ...]]

    # candidates and search
    def get_candidate(self, candidate_id: str) -> Candidate | None: ...
    def count(self, position: str | None = None) -> int: ...
    def count_unanswered(self) -> int: ...
    def list_candidates(
        self,
        position: str | None = None,
        limit: int | None = None,
        offset: int = 0,
        unanswered_only: bool = False,
    ) -> list[CandidateSummary]: ...
    def resolve(self, text: str, limit: int = 25) -> Resolution: ...
    def search(
        self, query: str, limit: int = 10, snippets: bool = True, sort: Sort = "relevance"
    ) -> list[SearchHit]: ...

    # Slack threads
    def record_post(self, channel: str, ts: str, candidate_id: str, kind: str) -> None: ...
    def post_candidate(self, channel: str, ts: str) -> str | None: ...
    def record_reply(
        self, channel: str, ts: str, thread_ts: str, candidate_id: str, reviewer: str, text: str
    ) -> ReplyOutcome: ...
    def delete_reply(self, channel: str, ts: str) -> bool: ...
    def claim_submission(self, key: str) -> bool: ...
    def record_decision(
        self,
        channel: str,
        ts: str,
        thread_ts: str,
        candidate_id: str,
        reviewer: str,
        decision: Decision,
        text: str,
    ) -> bool: ...
    def current_decision(self, candidate_id: str, reviewer: str) -> Decision | None: ...

    # transcripts shared in Slack
    def claim_upload(self, key: str, file_id: str, channel: str, ts: str, user: str) -> bool: ...
    def release_upload(self, key: str) -> None: ...
    def finish_upload(
        self, key: str, outcome: str, candidate_id: str | None = None, path: str | None = None
    ) -> None: ...
    def candidate_with_hash(self, content_hash: str) -> str | None: ...
    def uploaded_files(self, candidate_id: str) -> list[str]: ...
    def forget_uploads(self, candidate_id: str) -> list[str]: ...

    # the App Home tab
    def verdict_channels(self) -> list[str]: ...
    def waiting_for(
        self, channels: list[str], reviewer: str, limit: int, offset: int = 0
    ) -> tuple[list[DigestLine], int]: ...
    def recent_decisions(
        self, reviewer: str, limit: int, offset: int = 0
    ) -> tuple[list[tuple[DigestLine, Decision]], int]: ...

    # the daily digest
    def digest_lines(
        self, category: str, since: str, limit: int, offset: int = 0
    ) -> tuple[list[DigestLine], int]: ...
    def digest_data(self, since: str, per_category: int) -> DigestData: ...
    def last_digest_sent_at(self) -> str | None: ...
    def claim_digest(self, day: str, channel: str, claimer: str, stale_after_s: float) -> bool: ...
    def finish_digest(self, day: str, claimer: str, ts: str | None) -> None: ...
    def release_digest(self, day: str, claimer: str) -> None: ...

    # audit and erasure
    def audit(
        self, actor: str, action: str, candidate_id: str | None = None, channel: str | None = None
    ) -> None: ...
    def audit_log(self, since: str | None = None) -> list[AuditEntry]: ...
    def forget(self, candidate_id: str) -> dict[str, int] | None: ...
    def restore(self, candidate_id: str) -> str | None: ...


class IndexTarget(Protocol):
    """What an index run writes through: file states, saves, removals, batches."""

    def file_state(self) -> dict[str, tuple[str, str, int, int]]: ...
    def forgotten(self) -> dict[str, tuple[str, str]]: ...
    def batch(self, max_seconds: float = 0.25) -> AbstractContextManager[Callable[[], None]]: ...
    def save(
        self,
        t: Transcript,
        mtime_ns: int = 0,
        size: int = 0,
        prepared: tuple[str, str] | None = None,
    ) -> None: ...
    def touch_file(self, candidate_id: str, mtime_ns: int, size: int) -> None: ...
    def remove(self, candidate_id: str) -> bool: ...
    def unforget(self, candidate_id: str) -> None: ...


__all__ = ["IndexTarget", "StoreAPI"]
