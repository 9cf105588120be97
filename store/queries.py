"""Every concern module at store/'s top on one class: what both backends' stores are
made of, beside their own connection and full text (store/sqlite/store.py `Store`,
store/pg/store.py `PgStore`)."""

from __future__ import annotations

from .audit import AuditStore
from .candidates import CandidateStore
from .decisions import DecisionStore
from .digest import DigestStore
from .handoffs import HandoffStore
from .home import HomeStore
from .installations import WorkspaceStore
from .loops import LoopStore
from .maintenance import MaintenanceStore
from .outcomes import OutcomeStore
from .requests import RequestStore
from .spaces import SpaceStore
from .threads import ThreadStore
from .uploads import UploadStore
from .webhooks import WebhookStore
from .zoom import ZoomStore


class Queries(
    LoopStore,
    CandidateStore,
    ThreadStore,
    DecisionStore,
    OutcomeStore,
    RequestStore,
    HandoffStore,
    WebhookStore,
    ZoomStore,
    HomeStore,
    UploadStore,
    DigestStore,
    SpaceStore,
    AuditStore,
    MaintenanceStore,
    WorkspaceStore,
):
    """Candidates, threads, decisions, hiring decisions, requests and reminders, handoffs, the
    ATS's webhook events, uploads, the Home tab, the digest, the audit and erasure (of
    a candidate, of a whole data space), counts, the workspaces installed: each query
    written once, for both backends."""
