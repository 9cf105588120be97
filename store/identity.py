"""Whose data a data space holds, as an ATS is told it (issue 34): the Slack workspace
(`team_id`, `team_name`) or Enterprise Grid organisation (`enterprise_id`,
`enterprise_name`), as Slack's installation calls them.

A space installed through OAuth is its workspace's or organisation's (`workspaces`, and
the installation's names while installed: a workspace of an Enterprise Grid carries its
organisation too). Space 0 before any install adopted it is the workspace the
single-workspace `serve` recorded (`MaintenanceStore.remember_workspace`), or nobody
known yet: every value None.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .maintenance import WORKSPACE

Fetch = Callable[[str, Sequence[Any]], list[dict[str, Any]]]


@dataclass(frozen=True)
class Owner:
    team_id: str | None = None
    team_name: str | None = None
    enterprise_id: str | None = None
    enterprise_name: str | None = None


def space_owner(fetch: Fetch, ws: int) -> Owner:
    """`team_id`, `team_name`, `enterprise_id`, `enterprise_name` of space `ws`, read
    with `fetch` (the store's reads, or a transaction's)."""
    found = fetch(
        "SELECT w.slack_key, w.kind, w.name, i.team_id, i.team_name, i.enterprise_id,"
        " i.enterprise_name FROM workspaces w LEFT JOIN installations i ON i.ws = w.ws"
        " WHERE w.ws = ?",
        [ws],
    )
    if found and found[0]["slack_key"]:
        r = found[0]
        if r["kind"] == "enterprise":
            return Owner(
                enterprise_id=r["slack_key"],
                enterprise_name=r["enterprise_name"] or r["name"] or None,
            )
        return Owner(
            team_id=r["slack_key"],
            team_name=r["team_name"] or r["name"] or None,
            enterprise_id=r["enterprise_id"],
            enterprise_name=r["enterprise_name"],
        )
    if ws != 0:
        return Owner()
    served = fetch("SELECT value FROM meta WHERE key = ?", [WORKSPACE])
    if not served:
        return Owner()
    value = json.loads(str(served[0]["value"]))
    return Owner(team_id=value.get("team_id"), team_name=value.get("team") or None)
