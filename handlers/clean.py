"""Text from Slack, cleaned once at the edge, before any listener sees it.

Slack's JSON may carry what no database can keep: a lone surrogate (a `"\\ud800"`
escape, which Python's json turns into a str that cannot be encoded as UTF-8) or a NUL
(PostgreSQL's text cannot hold it). Every string in a request's body, keys included,
is cleaned the same way, whichever backend and whichever mode (HTTP or Socket Mode):
a lone surrogate becomes U+FFFD (a surrogate pair split into two code points is joined
again), and the C0 control characters other than tab, newline and carriage return are
removed. So what a listener reads is what the store keeps and what Slack is shown.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable

from slack_bolt import BoltRequest, BoltResponse

logger = logging.getLogger(__name__)

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def clean_text(text: str) -> str:
    """`text` with lone surrogates as U+FFFD and no C0 controls but tab, LF and CR."""
    if _SURROGATE.search(text):
        text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return _CONTROL.sub("", text)


def clean(value: object) -> object:
    """Every string in `value` (nested dicts and lists, dict keys too) cleaned; `value`
    itself, unchanged, when there was nothing to clean."""
    if isinstance(value, str):
        cleaned = clean_text(value)
        return value if cleaned == value else cleaned
    if isinstance(value, dict):
        items = [(clean(k), clean(v)) for k, v in value.items()]
        if all(k is k0 and v is v0 for (k, v), (k0, v0) in zip(items, value.items(), strict=True)):
            return value
        return dict(items)
    if isinstance(value, list):
        values = [clean(v) for v in value]
        if all(v is v0 for v, v0 in zip(values, value, strict=True)):
            return value
        return values
    return value


def clean_request(req: BoltRequest, next: Callable[[], BoltResponse]) -> BoltResponse:
    """The Bolt middleware: the request's body cleaned before any other middleware or
    listener reads it. Over HTTP, Bolt hands a lazy listener a copy parsed again from
    the raw body, so the raw body is replaced by the cleaned body's JSON as well."""
    try:
        cleaned = clean(req.body)
    except RecursionError:  # nested deeper than any of Slack's payloads
        logger.warning("a request nested too deep to read was ignored")
        return BoltResponse(status=200, body="")
    if cleaned is not req.body and isinstance(cleaned, dict):
        req.body = cleaned
        if req.mode == "http":
            req.raw_body = json.dumps(cleaned)  # Bolt parses a body opening with `{` as JSON
    return next()
