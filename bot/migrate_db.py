"""`debrief migrate-db --to postgresql://...`: move a SQLite database to PostgreSQL.

Attached to the `debrief` group in bot/cli.py. The SQLite database (from
`--db` or DEBRIEF_DB) is only read; the PostgreSQL one must be empty. Every table is
copied in one transaction, then each table's rows are counted on both sides: a
difference is an error (exit 1). Then point DEBRIEF_DB at the URL and start the bot.
"""

from __future__ import annotations

import click

from store.factory import is_shared, open_store

from .cli_common import BadUsage, Failure, db_option, echo_json, json_option, settings_for
from .words import t


@click.command("migrate-db")
@click.option("--to", "target", required=True, metavar="URL", help="The PostgreSQL database.")
@db_option
@json_option
def migrate_db(target: str, db_path: str | None, as_json: bool) -> None:
    """Copy the SQLite database into an empty PostgreSQL one and check the counts."""
    from store.pg import PgStore
    from store.pg.copy import copy_sqlite
    from store.sqlite.store import Store

    settings = settings_for(db_path)
    source, loc = settings.db_path, settings.locale
    if is_shared(source):
        raise BadUsage("cli_migrate_from", source=source)
    if not is_shared(target):
        raise BadUsage("cli_migrate_to", target=target)
    src = open_store(source, create=False)
    dst = open_store(target)
    assert isinstance(src, Store) and isinstance(dst, PgStore)
    try:
        counts = copy_sqlite(src, dst)
    finally:
        src.close()
        dst.close()
    wrong = {t: c for t, c in counts.items() if c[0] != c[1]}
    if as_json:
        echo_json(
            {
                "from": source,
                "to": dst.path,
                "tables": {t: {"sqlite": a, "postgresql": b} for t, (a, b) in counts.items()},
                "ok": not wrong,
            }
        )
    else:
        mismatch = "  " + t(loc, "migrate_mismatch")
        for table, (a, b) in counts.items():
            click.echo(f"{table:18} {a:>9} -> {b:>9}" + ("" if a == b else mismatch))
    if wrong:
        raise Failure("cli_migrate_differ", tables=", ".join(wrong))
    if not as_json:
        click.echo(t(loc, "migrate_done", source=source, target=dst.path))
