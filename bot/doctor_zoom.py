"""doctor's checks of Zoom (issue 48): for each Zoom account Debrief takes transcripts
from, whether its app's credentials get a token, whether the webhook can check Zoom's
signatures, where the cards go, and when the webhook or the poll last brought a
transcript."""

from __future__ import annotations

from collections.abc import Iterator

from store.errors import NoDatabaseError, StoreError
from store.factory import Backend, open_store

from .doctor_check import Check
from .doctor_database import DatabaseChecks


class ZoomChecks(DatabaseChecks):
    """Zoom's part of doctor (how long ago is said as the database's checks say it)."""

    def zoom(self) -> Iterator[Check]:
        from .zoom import zoom_accounts, zoom_decrypt
        from .zoom_api import ZoomApi, ZoomError

        settings = self.settings
        if not settings.many_workspaces and not settings.zoom_account_id:
            yield self.check("zoom", "skip", "doctor_zoom_unset")
            return
        store: Backend | None = None
        try:
            store = open_store(settings.db_path, create=False)
        except (NoDatabaseError, StoreError):
            store = None
        try:
            accounts = zoom_accounts(settings, store, zoom_decrypt(settings))
            if not accounts:
                yield self.check("zoom", "skip", "doctor_zoom_unset")
                return
            for account in accounts:
                name = "zoom" if len(accounts) == 1 else f"zoom ({account.account_id})"
                if account.credentials is None:
                    yield self.check(name, "warn", "doctor_zoom_no_credentials")
                else:
                    api = ZoomApi(
                        account.credentials, settings.zoom_api_url, settings.zoom_oauth_url
                    )
                    try:
                        api.token()
                    except ZoomError as exc:
                        # refused (the credentials), or not had now (the network, Zoom down)
                        refused = exc.status in (400, 401, 403)
                        said = "doctor_zoom_token_failed" if refused else "doctor_zoom_unreachable"
                        yield self.check(name, "fail", said, error=str(exc))
                    else:
                        yield self.check(name, "ok", "doctor_zoom_token_ok")
                if not account.secret_token:
                    yield self.check(f"{name} webhook", "warn", "doctor_zoom_no_secret_token")
                if not account.channel:
                    yield self.check(f"{name} channel", "warn", "doctor_zoom_no_channel")
                last = store.in_workspace(account.ws).zoom_last_taken() if store else {}
                webhook = (
                    self.age(last["webhook"])
                    if "webhook" in last
                    else self.say("doctor_zoom_never")
                )
                poll = self.age(last["poll"]) if "poll" in last else self.say("doctor_zoom_never")
                every = (
                    self.say("doctor_zoom_poll_every", minutes=settings.zoom_poll // 60)
                    if settings.zoom_poll
                    else self.say("doctor_zoom_poll_off")
                )
                yield self.check(
                    f"{name} arrivals",
                    "ok",
                    "doctor_zoom_last",
                    webhook=webhook,
                    poll=poll,
                    every=every,
                )
        finally:
            if store is not None:
                store.close()
