"""The data spaces' schema steps (m017-m024 on SQLite, pg018-pg024 on PostgreSQL), each
dialect's body side by side: installs in many workspaces, a space on every row of data
and the keys within it, each workspace's settings, uninstall events, the order of the
ATS's events, each space's own ranking figures (SQLite's FTS5 tables).

Bodies only: `store/schema/steps.py` lists them in order."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import sqlite_utils

from ..clock import utcnow

if TYPE_CHECKING:
    import psycopg

    Conn = psycopg.Connection[Any]


SPACE_TABLES_M018 = (
    "candidates",
    "posts",
    "replies",
    "forgotten_threads",
    "submissions",
    "outcomes",
    "requests",
    "reminders",
    "webhook_events",
    "uploads",
    "digests",
    "audit",
    "forgotten",
    "erased",
    "retired",
)
"""The tables schema steps m018 and pg019 gave a `ws` column, as they were then (a table
added later is created with its own; `store/schema/tables.py` says which have one now)."""


SPACE_KEYS_M019 = (
    ("posts", "channel, ts"),
    ("replies", "channel, ts"),
    ("forgotten_threads", "channel, ts"),
    ("submissions", "key"),
    ("outcomes", "candidate_id"),
    ("requests", "candidate_id, reviewer"),
    ("reminders", "reviewer, day"),
    ("uploads", "key"),
    ("digests", "day"),
    ("forgotten", "id"),
    ("retired", "id"),
)
"""The keys schema steps m019 and pg020 moved into each data space: (ws, these). `erased`
keeps its key (a pseudonym names its space), `audit` and `webhook_events` theirs (a
sequence, a uuid); `candidates` is keyed on (ws, id) beside its rid."""


# -- SQLite ----------------------------------------------------------------------------


def m017_workspaces(db: sqlite_utils.Database) -> None:
    """Installs in many workspaces: the data spaces (0, the single-workspace mode's,
    with no Slack key until an install adopts it), each one's installation (the bot
    token kept as the caller's ciphertext), and the OAuth states not yet used."""
    db.execute(
        "CREATE TABLE IF NOT EXISTS workspaces (ws INTEGER PRIMARY KEY, slack_key TEXT UNIQUE,"
        " kind TEXT NOT NULL DEFAULT 'team', name TEXT NOT NULL DEFAULT '',"
        " created_at TEXT NOT NULL, uninstalled_at TEXT, erase_after TEXT, erased_at TEXT)"
    )
    db.execute(
        "INSERT INTO workspaces (ws, created_at) VALUES (0, ?) ON CONFLICT (ws) DO NOTHING",
        [utcnow()],
    )
    db.execute(
        "CREATE TABLE IF NOT EXISTS installations (ws INTEGER PRIMARY KEY"
        " REFERENCES workspaces (ws), enterprise_id TEXT, team_id TEXT,"
        " is_enterprise_install INTEGER NOT NULL DEFAULT 0, app_id TEXT, enterprise_name TEXT,"
        " enterprise_url TEXT, team_name TEXT, bot_id TEXT NOT NULL, bot_user_id TEXT NOT NULL,"
        " bot_scopes TEXT NOT NULL DEFAULT '', bot_token_enc TEXT NOT NULL,"
        " bot_refresh_token_enc TEXT, bot_token_expires_at INTEGER, installer_user_id TEXT,"
        " token_type TEXT, installed_at TEXT NOT NULL, updated_at TEXT NOT NULL,"
        " rotating_by TEXT, rotating_until TEXT)"
    )
    db.execute(
        "CREATE TABLE IF NOT EXISTS oauth_states (state TEXT PRIMARY KEY, expires_at TEXT NOT NULL)"
    )


def m018_workspace_columns(db: sqlite_utils.Database) -> None:
    """Every row of data says which data space it belongs to (m017): 0, the single-
    workspace mode's, for everything so far. Instant: SQLite adds a column with a
    constant default without rewriting a row. The keys stay as they are for now."""
    for table in SPACE_TABLES_M018:
        if "ws" not in db[table].columns_dict:
            db.execute(f"ALTER TABLE [{table}] ADD COLUMN ws INTEGER NOT NULL DEFAULT 0")


def _rekeyed(db: sqlite_utils.Database, table: str, key: str) -> None:
    """`table` rebuilt with the primary key (ws, `key`), in the caller's transaction: its
    columns (names, types, NOT NULL, defaults) and indexes as they were, every row copied.
    SQLite cannot change a table's primary key in place. Nothing references these tables."""
    columns = list(db.execute(f"PRAGMA table_info([{table}])"))
    defs = []
    for _cid, name, kind, notnull, default, _pk in columns:
        part = f"[{name}] {kind}"
        if notnull:
            part += " NOT NULL"
        if default is not None:
            part += f" DEFAULT {default}"
        defs.append(part)
    names = ", ".join(f"[{c[1]}]" for c in columns)
    indexes = [
        r[0]
        for r in db.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ?"
            " AND sql IS NOT NULL",
            [table],
        )
    ]
    db.execute(f"CREATE TABLE [{table}_rekeyed] ({', '.join(defs)}, PRIMARY KEY (ws, {key}))")
    db.execute(f"INSERT INTO [{table}_rekeyed] ({names}) SELECT {names} FROM [{table}]")
    db.execute(f"DROP TABLE [{table}]")
    db.execute(f"ALTER TABLE [{table}_rekeyed] RENAME TO [{table}]")
    for sql in indexes:
        db.execute(sql)


def m019_keys_in_a_space(db: sqlite_utils.Database) -> None:
    """Each table of data keyed within its data space (m018's `ws`): the same reply, post,
    decision, claim or candidate id may exist in two workspaces. The tables are rebuilt
    (their rows copied once); candidates swap their unique index on id for one on
    (ws, id)."""
    for table, key in SPACE_KEYS_M019:
        _rekeyed(db, table, key)
    db.execute("DROP INDEX IF EXISTS idx_candidates_id")
    db.execute("CREATE UNIQUE INDEX candidates_ws_id ON candidates (ws, id)")


def m021_workspace_settings(db: sqlite_utils.Database) -> None:
    """What each workspace's admins set in App Home (installed in many workspaces): its
    own access rules, deciders, digest and reminders, kept as JSON, who saved them, when,
    and a version the serving processes compare to see a change."""
    columns = db["workspaces"].columns_dict
    for name, kind in (
        ("settings", "TEXT"),
        ("settings_by", "TEXT"),
        ("settings_at", "TEXT"),
        ("settings_version", "INTEGER NOT NULL DEFAULT 0"),
    ):
        if name not in columns:
            db.execute(f"ALTER TABLE workspaces ADD COLUMN {name} {kind}")


def m022_uninstall_events(db: sqlite_utils.Database) -> None:
    """Each uninstall event handled, kept a week, so that one Slack delivers again (late,
    after the workspace installed again) is handled once, and an older one is told from a
    newer; and `oauth_states` from now on holds the states used (until they run out), not
    the ones handed out: a state is signed and carries its expiry (bot/oauth_state.py),
    so those handed out and not used are of no use now."""
    db.execute(
        "CREATE TABLE IF NOT EXISTS uninstall_events (event_id TEXT PRIMARY KEY, ws INTEGER,"
        " event_time INTEGER NOT NULL, removed INTEGER NOT NULL DEFAULT 0,"
        " handled_at TEXT NOT NULL)"
    )
    db.execute("DELETE FROM oauth_states")


def m023_webhook_order(db: sqlite_utils.Database) -> None:
    """Issue 34: a candidate's hiring decisions reach the ATS in the order they were
    recorded. Each decision counts (`outcomes.sequence`), its event carries that count,
    and an event a newer decision replaced before it was sent is `superseded_at` (never
    sent). The events of one candidate are looked up by space and candidate."""
    for table, name, kind in (
        ("outcomes", "sequence", "INTEGER NOT NULL DEFAULT 0"),
        ("webhook_events", "sequence", "INTEGER NOT NULL DEFAULT 0"),
        ("webhook_events", "superseded_at", "TEXT"),
    ):
        if name not in db[table].columns_dict:
            db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {kind}")
    db.execute(
        "CREATE INDEX IF NOT EXISTS webhook_events_ws_candidate"
        " ON webhook_events (ws, candidate_id, sequence)"
    )


# -- PostgreSQL ------------------------------------------------------------------------


def pg018_workspaces(conn: Conn) -> None:
    """SQLite's m017: the data spaces, their installations, the unused OAuth states."""
    conn.execute(
        "CREATE TABLE workspaces (ws INTEGER GENERATED BY DEFAULT AS IDENTITY (START WITH 1)"
        " PRIMARY KEY, slack_key TEXT COLLATE \"C\" UNIQUE, kind TEXT NOT NULL DEFAULT 'team',"
        " name TEXT NOT NULL DEFAULT '', created_at TEXT NOT NULL, uninstalled_at TEXT,"
        ' erase_after TEXT COLLATE "C", erased_at TEXT)'
    )
    conn.execute("INSERT INTO workspaces (ws, created_at) VALUES (0, %s)", [utcnow()])
    conn.execute(
        "CREATE TABLE installations (ws INTEGER PRIMARY KEY REFERENCES workspaces (ws),"
        " enterprise_id TEXT, team_id TEXT, is_enterprise_install INTEGER NOT NULL DEFAULT 0,"
        " app_id TEXT, enterprise_name TEXT, enterprise_url TEXT, team_name TEXT,"
        " bot_id TEXT NOT NULL, bot_user_id TEXT NOT NULL, bot_scopes TEXT NOT NULL DEFAULT '',"
        " bot_token_enc TEXT NOT NULL, bot_refresh_token_enc TEXT, bot_token_expires_at BIGINT,"
        " installer_user_id TEXT, token_type TEXT, installed_at TEXT NOT NULL,"
        ' updated_at TEXT NOT NULL, rotating_by TEXT, rotating_until TEXT COLLATE "C")'
    )
    conn.execute(
        'CREATE TABLE oauth_states (state TEXT COLLATE "C" PRIMARY KEY,'
        ' expires_at TEXT COLLATE "C" NOT NULL)'
    )


def pg019_workspace_columns(conn: Conn) -> None:
    """SQLite's m018: a data space on every row of data, 0 so far. Instant: PostgreSQL
    keeps a constant default in the catalogue instead of rewriting the tables."""
    for table in SPACE_TABLES_M018:
        conn.execute(f"ALTER TABLE {table} ADD COLUMN ws INTEGER NOT NULL DEFAULT 0")


def pg020_keys_in_a_space(conn: Conn) -> None:
    """SQLite's m019: each table of data keyed within its data space. PostgreSQL swaps
    the primary keys in place (each rebuilt as a new index, in this transaction)."""
    for table, key in SPACE_KEYS_M019:
        conn.execute(
            f"ALTER TABLE {table} DROP CONSTRAINT {table}_pkey, ADD PRIMARY KEY (ws, {key})"
        )
    conn.execute("ALTER TABLE candidates DROP CONSTRAINT candidates_id_key")
    conn.execute("CREATE UNIQUE INDEX candidates_ws_id ON candidates (ws, id)")


def pg021_no_audit_candidate(conn: Conn) -> None:
    """pg001's index on the audit's subject alone: m020's by space and subject replaces
    it (every query names a space)."""
    conn.execute("DROP INDEX IF EXISTS audit_candidate")


def pg022_workspace_settings(conn: Conn) -> None:
    """SQLite's m021: each workspace's own settings from App Home, and their version."""
    conn.execute(
        "ALTER TABLE workspaces ADD COLUMN settings TEXT, ADD COLUMN settings_by TEXT,"
        " ADD COLUMN settings_at TEXT, ADD COLUMN settings_version INTEGER NOT NULL DEFAULT 0"
    )


def pg023_uninstall_events(conn: Conn) -> None:
    """SQLite's m022: the uninstall events handled (a week), and `oauth_states` holding
    the states used instead of those handed out."""
    conn.execute(
        'CREATE TABLE uninstall_events (event_id TEXT COLLATE "C" PRIMARY KEY, ws INTEGER,'
        " event_time BIGINT NOT NULL, removed INTEGER NOT NULL DEFAULT 0,"
        ' handled_at TEXT COLLATE "C" NOT NULL)'
    )
    conn.execute("DELETE FROM oauth_states")


def pg024_webhook_order(conn: Conn) -> None:
    """SQLite's m023: each decision's count, on its event too, and the events a newer
    decision superseded before they were sent."""
    conn.execute("ALTER TABLE outcomes ADD COLUMN sequence INTEGER NOT NULL DEFAULT 0")
    conn.execute(
        "ALTER TABLE webhook_events ADD COLUMN sequence INTEGER NOT NULL DEFAULT 0,"
        " ADD COLUMN superseded_at TEXT"
    )
    conn.execute(
        "CREATE INDEX webhook_events_ws_candidate ON webhook_events (ws, candidate_id, sequence)"
    )
