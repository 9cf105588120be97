"""The schema, as an ordered registry of migrations (after simonw/llm's migrations.py).

Each migration runs once, in order, inside one transaction with its record in
`_migrations`, so a database is always at a known step and two processes starting
at once do not both migrate.
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlite_utils

from ..clock import utcnow
from ..registry import REPARSE_MTIME, SPACE_KEYS_M019, SPACE_TABLES_M018, Registry

REGISTRY: Registry[sqlite_utils.Database] = Registry()
MIGRATIONS = REGISTRY.migrations
migration = REGISTRY.migration
known = REGISTRY.known


def unknown_applied(db: sqlite_utils.Database) -> list[str]:
    """Migrations recorded in the database that this release does not have."""
    if "_migrations" not in db.table_names():
        return []
    return REGISTRY.unknown(r[0] for r in db.execute("SELECT name FROM _migrations ORDER BY name"))


def applied(db: sqlite_utils.Database) -> list[str]:
    """This release's migrations that the database has, in the order they ran."""
    if "_migrations" not in db.table_names():
        return []
    done = {r[0] for r in db.execute("SELECT name FROM _migrations")}
    return [name for name in known() if name in done]


def pending(db: sqlite_utils.Database) -> list[str]:
    """This release's migrations not yet applied to the database."""
    if "_migrations" not in db.table_names():
        return known()
    return REGISTRY.pending(r[0] for r in db.execute("SELECT name FROM _migrations"))


def migrate(db: sqlite_utils.Database) -> list[str]:
    """Apply what is missing; return the names applied. A database that has migrations
    this release does not know was written by a newer Debrief: NewerSchemaError, and
    nothing is changed."""
    REGISTRY.refuse_newer(unknown_applied(db))
    db.execute(
        "CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
    )
    applied: list[str] = []
    for fn in MIGRATIONS:
        name = fn.__name__
        db.execute("BEGIN IMMEDIATE")
        try:
            done = db.execute("SELECT 1 FROM _migrations WHERE name = ?", [name]).fetchone()
            if not done:
                fn(db)
                db.execute(
                    "INSERT INTO _migrations (name, applied_at) VALUES (?, ?)",
                    [name, datetime.now(UTC).isoformat(timespec="seconds")],
                )
                applied.append(name)
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
    return applied


@migration
def m001_transcripts(db: sqlite_utils.Database) -> None:
    db.table("candidates").create(
        {
            "rid": int,
            "id": str,
            "position": str,
            "years": int,
            "intro": str,
            "summary": str,
            "verdict": str,
            "source": str,
            "hash": str,
            "mtime_ns": int,
            "size": int,
            "question_count": int,
            "unanswered_count": int,
            "first_indexed_at": str,
            "indexed_at": str,
        },
        pk="rid",
        not_null={"id", "hash", "first_indexed_at", "indexed_at"},
    )
    db.table("candidates").create_index(["id"], unique=True)
    db.table("candidates").create_index(["first_indexed_at"])
    db.table("candidates").create_index(["source"])
    db.execute(
        """
        CREATE TABLE questions (
            candidate_rid INTEGER NOT NULL REFERENCES candidates(rid) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            number INTEGER NOT NULL,
            question TEXT NOT NULL,
            goal TEXT NOT NULL,
            answer TEXT NOT NULL,
            answered INTEGER NOT NULL
        )
        """
    )
    # A rowid table: rows hold long answers, which WITHOUT ROWID tables store poorly.
    db.execute("CREATE UNIQUE INDEX questions_order ON questions (candidate_rid, seq)")
    # Full text, as store/fulltext.py explains: trigrams for terms of 3+ characters,
    # each candidate's distinct CJK bigrams for 2-character words. Both contentless:
    # the text lives once, in the tables above.
    db.execute(
        "CREATE VIRTUAL TABLE candidates_fts USING fts5(text, tokenize='trigram', content='')"
    )
    # A bigger in-memory hash before each flush: index runs go about twice as fast.
    db.execute("INSERT INTO candidates_fts (candidates_fts, rank) VALUES ('hashsize', 67108864)")
    db.execute("CREATE VIRTUAL TABLE candidates_fts_vocab USING fts5vocab(candidates_fts, 'row')")
    db.execute(
        "CREATE VIRTUAL TABLE candidates_bigrams USING fts5("
        "bigrams, tokenize='unicode61', content='', detail='none', columnsize=0)"
    )


@migration
def m002_posts(db: sqlite_utils.Database) -> None:
    """Every message the bot posts about a candidate: replies in its thread belong to them."""
    db.execute(
        """
        CREATE TABLE posts (
            channel TEXT NOT NULL,
            ts TEXT NOT NULL,
            candidate_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            posted_at TEXT NOT NULL,
            PRIMARY KEY (channel, ts)
        )
        """
    )
    db.execute("CREATE INDEX posts_candidate ON posts (candidate_id)")


@migration
def m003_replies(db: sqlite_utils.Database) -> None:
    """Reviewers' replies in threads under the bot's posts: notes, decisions, follow-ups."""
    db.execute(
        """
        CREATE TABLE replies (
            channel TEXT NOT NULL,
            ts TEXT NOT NULL,
            thread_ts TEXT NOT NULL,
            candidate_id TEXT NOT NULL,
            reviewer TEXT NOT NULL,
            text TEXT NOT NULL,
            decision TEXT,
            followup_number INTEGER,
            followup_answer TEXT,
            recorded_at TEXT NOT NULL,
            edited_at TEXT,
            reacted INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (channel, ts)
        )
        """
    )
    db.execute("CREATE INDEX replies_candidate ON replies (candidate_id, ts)")
    db.execute("CREATE INDEX replies_recorded ON replies (recorded_at)")


@migration
def m004_digests(db: sqlite_utils.Database) -> None:
    """One row a day: the claim that makes the daily digest go out exactly once."""
    db.execute(
        """
        CREATE TABLE digests (
            day TEXT PRIMARY KEY,
            channel TEXT NOT NULL,
            status TEXT NOT NULL,
            claimed_by TEXT NOT NULL,
            claimed_at TEXT NOT NULL,
            sent_at TEXT,
            ts TEXT
        )
        """
    )


@migration
def m005_audit_and_forgotten(db: sqlite_utils.Database) -> None:
    """Who looked at or decided what, and the candidates erased on request."""
    db.execute(
        """
        CREATE TABLE audit (
            seq INTEGER PRIMARY KEY,
            at TEXT NOT NULL,
            actor TEXT NOT NULL,
            action TEXT NOT NULL,
            candidate_id TEXT,
            channel TEXT
        )
        """
    )
    db.execute("CREATE INDEX audit_at ON audit (at)")
    db.execute(
        """
        CREATE TABLE forgotten (
            id TEXT PRIMARY KEY,
            hash TEXT NOT NULL,
            source TEXT NOT NULL,
            forgotten_at TEXT NOT NULL
        )
        """
    )


@migration
def m006_meta(db: sqlite_utils.Database) -> None:
    """Small facts about the database itself: the last index run, for `stats` and `doctor`."""
    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")


@migration
def m007_erasure(db: sqlite_utils.Database) -> None:
    """What erasure keeps: the threads of forgotten candidates (so late replies in them are
    not recorded), the pseudonyms that stand for their ids in the audit, and settings such
    as the pseudonyms' key."""
    db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    db.execute(
        "CREATE TABLE forgotten_threads (channel TEXT NOT NULL, ts TEXT NOT NULL,"
        " PRIMARY KEY (channel, ts))"
    )
    db.execute("CREATE TABLE erased (pseudonym TEXT PRIMARY KEY)")


@migration
def m008_search_terms(db: sqlite_utils.Database) -> None:
    """Search ranks by bm25 over every match: the 2-character table keeps every CJK bigram
    occurrence with positions (bm25 needs their counts) plus short Latin words (AI, Go,
    C#) as whole-word tokens. Rebuilt from the stored text (see store/fulltext.py)."""
    from .. import fulltext
    from .space_index import indexed_questions

    db.execute("DROP TABLE IF EXISTS candidates_bigrams")
    db.execute(
        "CREATE VIRTUAL TABLE candidates_bigrams USING fts5("
        "bigrams, tokenize=\"unicode61 tokenchars '#+'\", content='')"
    )
    db.execute(
        "INSERT INTO candidates_bigrams (candidates_bigrams, rank) VALUES ('hashsize', 67108864)"
    )
    rows = db.execute("SELECT rid, position, intro, summary, verdict FROM candidates").fetchall()
    for rid, position, intro, summary, verdict in rows:
        text = fulltext.doc_text(
            position, intro or "", summary or "", indexed_questions(db.execute, rid), verdict
        )
        db.execute(
            "INSERT INTO candidates_bigrams (rowid, bigrams) VALUES (?, ?)",
            [rid, fulltext.bigrams(text)],
        )


@migration
def m009_transcript_facts(db: sqlite_utils.Database) -> None:
    """What the parser now keeps: the years as the file said them (`years_text`; `years`
    itself may now be 1.5, which its INTEGER-affinity column stores as REAL, unchanged)
    and why each unanswered question is unanswered (empty, skipped, dont_know).

    Rows indexed before are given the reason their answer text shows, and marked for a
    re-parse, so the next index run fills `years_text`, the new label names and years
    like `1年半` from the files themselves."""
    from ..transcripts.parser import unanswered_reason

    db.execute("ALTER TABLE candidates ADD COLUMN years_text TEXT NOT NULL DEFAULT ''")
    db.execute("ALTER TABLE questions ADD COLUMN unanswered_reason TEXT")
    rows = db.execute("SELECT rowid, answer FROM questions WHERE answered = 0").fetchall()
    db.conn.executemany(
        "UPDATE questions SET unanswered_reason = ? WHERE rowid = ?",
        [(unanswered_reason(answer) or "empty", rowid) for rowid, answer in rows],
    )
    db.execute("UPDATE candidates SET mtime_ns = ?", [REPARSE_MTIME])


@migration
def m010_button_decisions(db: sqlite_utils.Database) -> None:
    """Decisions made with the verdict post's buttons: each modal submission is claimed
    once (by the modal's view id), so a retried submission is recorded once."""
    db.execute("CREATE TABLE IF NOT EXISTS submissions (key TEXT PRIMARY KEY, at TEXT NOT NULL)")


@migration
def m011_uploads(db: sqlite_utils.Database) -> None:
    """Transcripts shared in Slack: each shared file claimed once (a retried event is
    indexed once), who shared it where, the file saved and the candidate it became."""
    db.execute(
        """
        CREATE TABLE IF NOT EXISTS uploads (
            key TEXT PRIMARY KEY,
            file_id TEXT NOT NULL,
            channel TEXT NOT NULL,
            ts TEXT NOT NULL,
            user TEXT NOT NULL,
            path TEXT,
            candidate_id TEXT,
            outcome TEXT NOT NULL,
            at TEXT NOT NULL
        )
        """
    )
    db.execute("CREATE INDEX IF NOT EXISTS uploads_candidate ON uploads (candidate_id)")
    db.execute("CREATE INDEX IF NOT EXISTS candidates_hash ON candidates (hash)")


@migration
def m012_home_queues(db: sqlite_utils.Database) -> None:
    """The Home tab asks per reviewer: verdict posts by channel, a reviewer's decisions."""
    db.execute("CREATE INDEX IF NOT EXISTS posts_kind_channel ON posts (kind, channel)")
    db.execute(
        "CREATE INDEX IF NOT EXISTS replies_reviewer ON replies (reviewer, candidate_id, ts)"
    )


@migration
def m013_retired_ids(db: sqlite_utils.Database) -> None:
    """The content and path a removed candidate last had, kept while anything recorded
    about them (a post, a reply, a decision) still names their id: a different file
    that comes later with the same name gets an id of its own, not their history."""
    db.execute(
        "CREATE TABLE IF NOT EXISTS retired (id TEXT PRIMARY KEY, hash TEXT NOT NULL,"
        " source TEXT NOT NULL, at TEXT NOT NULL)"
    )


@migration
def m014_interview_facts(db: sqlite_utils.Database) -> None:
    """Who and when, from the transcript's header: the candidate's name, the interviewers
    (a JSON array of names as written), the interview's date (ISO 8601, NULL when the file
    gives none that is sure) and as written, the round. Lists sort by the interview's date
    where known, else by when the file was first indexed; names are looked up as ids are.

    Rows indexed before are marked for a re-parse: the next index run reads the facts from
    the files themselves."""
    for column in (
        "name TEXT",
        "interviewers TEXT NOT NULL DEFAULT '[]'",
        "interviewed_at TEXT",
        "interviewed_at_text TEXT NOT NULL DEFAULT ''",
        "round TEXT",
    ):
        db.execute(f"ALTER TABLE candidates ADD COLUMN {column}")
    db.execute("CREATE INDEX IF NOT EXISTS candidates_name ON candidates (name)")
    db.execute(
        "CREATE INDEX IF NOT EXISTS candidates_newest"
        " ON candidates ((coalesce(interviewed_at, first_indexed_at)))"
    )
    db.execute("UPDATE candidates SET mtime_ns = ?", [REPARSE_MTIME])


@migration
def m015_outcomes(db: sqlite_utils.Database) -> None:
    """The hiring decision about a candidate (hire, reject, hold): one row each, a later
    decision replaces the earlier one (the audit keeps every one)."""
    db.execute(
        "CREATE TABLE IF NOT EXISTS outcomes (candidate_id TEXT PRIMARY KEY,"
        " decision TEXT NOT NULL, note TEXT NOT NULL DEFAULT '', decided_by TEXT NOT NULL,"
        " decided_at TEXT NOT NULL)"
    )


@migration
def m016_requests_reminders_webhooks(db: sqlite_utils.Database) -> None:
    """Reviewers asked for their decision (one row per candidate and reviewer: asking
    again reopens it with the new deadline), the reminder each reviewer got on a day
    (claimed once, like the digest), and the hiring decisions waiting to be POSTed to
    the ATS (written in the decision's transaction, kept until delivered)."""
    db.execute(
        "CREATE TABLE IF NOT EXISTS requests (candidate_id TEXT NOT NULL,"
        " reviewer TEXT NOT NULL, asked_by TEXT NOT NULL, asked_at TEXT NOT NULL,"
        " due_at TEXT NOT NULL, channel TEXT NOT NULL, thread_ts TEXT NOT NULL,"
        " closed_at TEXT, closed_by TEXT, PRIMARY KEY (candidate_id, reviewer))"
    )
    db.execute("CREATE INDEX IF NOT EXISTS requests_reviewer ON requests (reviewer, due_at)")
    db.execute("CREATE INDEX IF NOT EXISTS requests_due ON requests (closed_at, due_at)")
    db.execute(
        "CREATE TABLE IF NOT EXISTS reminders (reviewer TEXT NOT NULL, day TEXT NOT NULL,"
        " status TEXT NOT NULL, claimer TEXT NOT NULL, claimed_at TEXT NOT NULL,"
        " sent_at TEXT, ts TEXT, PRIMARY KEY (reviewer, day))"
    )
    db.execute(
        "CREATE TABLE IF NOT EXISTS webhook_events (event_id TEXT PRIMARY KEY,"
        " candidate_id TEXT NOT NULL, body TEXT NOT NULL, created_at TEXT NOT NULL,"
        " attempts INTEGER NOT NULL DEFAULT 0, next_at TEXT NOT NULL,"
        " claimed_by TEXT, claimed_until TEXT, delivered_at TEXT, last_error TEXT)"
    )
    db.execute(
        "CREATE INDEX IF NOT EXISTS webhook_events_due ON webhook_events (delivered_at, next_at)"
    )
    db.execute(
        "CREATE INDEX IF NOT EXISTS webhook_events_candidate ON webhook_events (candidate_id)"
    )


@migration
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


@migration
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


@migration
def m019_keys_in_a_space(db: sqlite_utils.Database) -> None:
    """Each table of data keyed within its data space (m018's `ws`): the same reply, post,
    decision, claim or candidate id may exist in two workspaces. The tables are rebuilt
    (their rows copied once); candidates swap their unique index on id for one on
    (ws, id)."""
    for table, key in SPACE_KEYS_M019:
        _rekeyed(db, table, key)
    db.execute("DROP INDEX IF EXISTS idx_candidates_id")
    db.execute("CREATE UNIQUE INDEX candidates_ws_id ON candidates (ws, id)")


@migration
def m020_audit_by_subject(db: sqlite_utils.Database) -> None:
    """The audit's lines by data space and subject: forgetting someone rewrites their
    lines to a pseudonym, and erasing a whole space walks its subjects; both read every
    line of the audit without it."""
    db.execute("CREATE INDEX IF NOT EXISTS audit_subject ON audit (ws, candidate_id)")


@migration
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


@migration
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


@migration
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


@migration
def m024_ranking_by_space(db: sqlite_utils.Database) -> None:
    """Issue 34: bm25's figures (row count, average sizes, document frequencies) are each
    data space's own. Every space but 0 gets its own FTS5 tables, and its rows, written
    into space 0's by earlier releases, move there (store/sqlite/space_index.py)."""
    from .space_index import move_to_own_tables

    move_to_own_tables(db.execute)


@migration
def m025_ask_limits(db: sqlite_utils.Database) -> None:
    """Issue 34: how many reviewers one user asked in the last hour (their limit,
    DEBRIEF_ASK_LIMIT_PER_HOUR) is counted from the requests they made, by space, asker
    and time."""
    db.execute("CREATE INDEX IF NOT EXISTS requests_asker ON requests (ws, asked_by, asked_at)")
