"""Schema step pg035 (issue 47): PostgreSQL ranks with its own text search.

Each candidate's `tsv` (a `tsvector` of its CJK bigrams and words, store/pg/lexemes.py)
sits under a RUM index (the `rum` extension, Debian's `postgresql-15-rum`), which
gives the matches of a `tsquery` in rank order from the index itself. What earlier
steps built to rank by hand goes: the frequency tables and their views (pg004-pg015),
their triggers and functions, the kept postings and the per-space figures (pg029), and
the text columns they were computed from (`fts`, `fts_len`, `terms`, `terms_len`).
`fts_version` (pg008) stays: the answer cache is keyed by it; its trigger now fires on
`tsv`.

Bodies only: `store/schema/steps.py` lists them in order."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import fulltext
from ..errors import StoreError
from ..models import Question
from ..rows import names

if TYPE_CHECKING:
    import psycopg

    Conn = psycopg.Connection[Any]

RUM_PACKAGE = "postgresql-15-rum"
_BATCH = 500

_DROPPED_TRIGGERS = ("postings", "words", "runs", "long_words", "long_runs", "blocks", "figures")
_DROPPED_TABLES = (
    "b_postings",
    "b_words",
    "b_runs",
    "block_lengths",
    "vocabulary",
    "run_vocabulary",
    "long_words",
    "long_runs",
    "search_postings",
    "search_terms",
    "search_figures",
)


def create_rum(conn: Conn) -> None:
    """`CREATE EXTENSION IF NOT EXISTS rum`, or a StoreError saying how to get it."""
    import psycopg

    try:
        with conn.transaction():
            conn.execute("CREATE EXTENSION IF NOT EXISTS rum")
    except psycopg.Error as exc:
        why = exc.diag.message_primary or str(exc).strip()
        raise StoreError(
            "PostgreSQL search needs the RUM extension, which this server could not"
            f" create ({why}): install the server's package (on Debian or"
            f" Ubuntu: apt-get install {RUM_PACKAGE}, matching the server's version), then"
            " start Debrief again; a role that is not a superuser needs one to run"
            " CREATE EXTENSION rum in this database first (see docs/running.md)"
        ) from exc


def pg035_text_search(conn: Conn) -> None:
    """`candidates.tsv` under a RUM index, filled for the saved candidates from their
    stored text (as a save indexes it: `fulltext.doc_text`), and what ranked by hand
    before dropped (see the module's docstring)."""
    from ..pg.lexemes import document

    create_rum(conn)
    for name in _DROPPED_TRIGGERS:
        conn.execute(f"DROP TRIGGER IF EXISTS candidates_{name} ON candidates")
        conn.execute(f"DROP FUNCTION IF EXISTS candidates_drop_{name}()")
    conn.execute("DROP TRIGGER IF EXISTS candidates_fts_version ON candidates")
    conn.execute("DROP FUNCTION IF EXISTS candidates_figures()")
    # tables until pg015 made them views over blocks (a database may be at either)
    for name, kind in conn.execute(
        "SELECT relname, relkind FROM pg_class WHERE relnamespace = current_schema()::regnamespace"
        " AND relname IN ('postings', 'words', 'runs')"
    ).fetchall():
        conn.execute(f"DROP {'VIEW' if kind == 'v' else 'TABLE'} {name}")
    conn.execute(f"DROP TABLE IF EXISTS {', '.join(_DROPPED_TABLES)}")
    conn.execute(
        "ALTER TABLE candidates DROP COLUMN IF EXISTS fts, DROP COLUMN IF EXISTS fts_len,"
        " DROP COLUMN IF EXISTS terms, DROP COLUMN IF EXISTS terms_len,"
        " ADD COLUMN tsv tsvector NOT NULL DEFAULT ''"
    )
    last = -1
    while True:
        heads = conn.execute(
            "SELECT rid, position, intro, summary, verdict, name, interviewers,"
            f" {fulltext.BODY_SQL} FROM candidates WHERE rid > %s ORDER BY rid LIMIT %s",
            [last, _BATCH],
        ).fetchall()
        if not heads:
            break
        last = int(heads[-1][0])
        questions: dict[int, list[Question]] = {}
        for rid, number, question, goal, answer in conn.execute(
            "SELECT candidate_rid, number, question, goal, answer FROM questions"
            " WHERE candidate_rid = ANY(%s) ORDER BY candidate_rid, seq",
            [[int(h[0]) for h in heads]],
        ):
            questions.setdefault(int(rid), []).append(
                Question(number=number, question=question, goal=goal, answer=answer)
            )
        with conn.cursor() as cur:
            cur.executemany(
                "UPDATE candidates SET tsv = %s::tsvector WHERE rid = %s",
                [
                    (
                        document(
                            fulltext.doc_text(
                                position,
                                intro or "",
                                summary or "",
                                questions.get(int(rid), []),
                                verdict,
                                name,
                                names(interviewers),
                                body or "",
                            )
                        ),
                        rid,
                    )
                    for rid, position, intro, summary, verdict, name, interviewers, body in heads
                ],
            )
    conn.execute("CREATE INDEX candidates_tsv ON candidates USING rum (tsv rum_tsvector_ops)")
    # the number bumped once a transaction (a transaction-local setting remembers it, a
    # savepoint rolled back forgets it with the update): a save's upsert fires twice
    conn.execute(
        "CREATE OR REPLACE FUNCTION candidates_fts_version() RETURNS trigger"
        " LANGUAGE plpgsql AS $$\n"
        "BEGIN\n"
        "    IF current_setting('debrief.fts_bumped', true) IS DISTINCT FROM 'on' THEN\n"
        "        UPDATE fts_version SET version = version + 1;\n"
        "        PERFORM set_config('debrief.fts_bumped', 'on', true);\n"
        "    END IF;\n"
        "    RETURN NULL;\n"
        "END\n$$"
    )
    conn.execute(
        "CREATE TRIGGER candidates_fts_version BEFORE INSERT OR DELETE OR UPDATE OF tsv"
        " ON candidates FOR EACH STATEMENT EXECUTE FUNCTION candidates_fts_version()"
    )
