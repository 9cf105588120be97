"""The install's state (what Slack's OAuth flow carries from `/slack/install` to the
redirect back), and its code kept out of the log.

`DebriefStateStore` is slack_sdk's OAuthStateStore with nothing kept when a state is
handed out: `GET /slack/install` faces the internet and costs the database nothing. A
state is `<expiry>.<nonce>.<signature>`: its expiry in epoch seconds and a random nonce,
signed with SLACK_STATE_SECRET (HMAC-SHA256, checked in constant time), so a forged,
altered or run-out state is refused before the database is asked. It is good once, across
replicas: the store records the nonce when the state comes back, in the statement that
checks it was not used before (`use_oauth_state`), and forgets it when it runs out; a row
costs a completed callback, never an install page.

`CodeRedaction`: Bolt's OAuth flow logs the code Slack gave the browser (a warning when
`oauth.v2.access` refuses it, debug lines with the callback's query); the code is replaced
before the line reaches a handler.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
import secrets
import time
from datetime import UTC, datetime
from logging import Logger
from typing import Any

from slack_sdk.oauth.state_store import OAuthStateStore

from store.errors import StoreError
from store.installations import WorkspaceStore

logger = logging.getLogger("debrief.oauth")

STATE_SECONDS = 600  # an install started and not finished within 10 minutes starts again
_LONGEST = 200  # a state is about 100 characters; anything longer is not ours


class DebriefStateStore(OAuthStateStore):
    """States signed with SLACK_STATE_SECRET that carry their expiry: none is kept when
    it is handed out, and each is good once, for `seconds`."""

    def __init__(self, store: WorkspaceStore, secret: str, seconds: int = STATE_SECONDS) -> None:
        self.store = store
        self._secret = secret.encode("utf-8")
        self.seconds = seconds

    @property
    def logger(self) -> Logger:
        return logger

    def _signature(self, signed: str) -> str:
        return hmac.new(self._secret, signed.encode("ascii"), hashlib.sha256).hexdigest()

    def issue(self, *args: Any, **kwargs: Any) -> str:
        signed = f"{int(time.time()) + self.seconds}.{secrets.token_urlsafe(24)}"
        return f"{signed}.{self._signature(signed)}"

    def consume(self, state: str) -> bool:
        if not isinstance(state, str) or len(state) > _LONGEST or not state.isascii():
            return False
        signed, dot, signature = state.rpartition(".")
        expiry, _dot, nonce = signed.partition(".")
        if not dot or not hmac.compare_digest(
            signature.encode("ascii"), self._signature(signed).encode("ascii")
        ):
            return False
        if not expiry.isdigit() or int(expiry) <= time.time():
            return False
        until = datetime.fromtimestamp(int(expiry), UTC).isoformat(timespec="microseconds")
        try:
            return self.store.use_oauth_state(nonce, until)
        except StoreError:
            logger.exception("could not check an install's state")
            return False


_CODE = re.compile(r"""(\bcode\b['"]?\s*[:=]\s*\[?\s*['"]?)[^\s'"&,;\])}]+""")


class CodeRedaction(logging.Filter):
    """Every `code: …`, `code=…` and `'code': ['…']` of a log line, as Bolt's OAuth flow
    writes the code Slack sent the browser, replaced by `(redacted)`: a code is good for
    a token until it is used, and a log travels further than the database."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = _CODE.sub(r"\1(redacted)", message)
        if redacted != message:
            record.msg, record.args = redacted, None
        return True


def redact_codes(*names: str) -> None:
    """Put `CodeRedaction` on the loggers `names` (once each)."""
    for name in names:
        named = logging.getLogger(name)
        if not any(isinstance(f, CodeRedaction) for f in named.filters):
            named.addFilter(CodeRedaction())
