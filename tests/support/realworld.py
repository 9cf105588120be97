"""Where the real files other people keep are (issue 46): `../shared/realworld/` beside
the project, or the folder DEBRIEF_REALWORLD names (a checkout elsewhere, a worktree).
They are read there and never copied into the project; tests that use them skip when
the folder is absent (`REALWORLD.is_dir()`)."""

from __future__ import annotations

import os
from pathlib import Path

_PROJECT = Path(__file__).resolve().parents[2]
REALWORLD = Path(os.environ.get("DEBRIEF_REALWORLD") or _PROJECT.parent / "shared" / "realworld")
