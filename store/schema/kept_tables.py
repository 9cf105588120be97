"""Schema step m029 / pg029 (issue 39): the postings kept for the terms each space
searches (store/kept_postings.py), and on PostgreSQL each space's figures for bm25.

PostgreSQL counted a space's rows and total lengths at search time (a scan of the
space's candidates) and kept them a minute; ranking from kept postings needs them exact
in the search's snapshot, so a trigger keeps them, a row per space, with every insert,
update and delete of a candidate (`search_figures`): one lookup at search time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import psycopg
    import sqlite_utils


def m029_kept_postings(db: sqlite_utils.Database) -> None:
    db.execute(
        "CREATE TABLE search_terms (id INTEGER PRIMARY KEY, ws INTEGER NOT NULL,"
        " kind TEXT NOT NULL, term TEXT NOT NULL, UNIQUE (ws, kind, term))"
    )
    db.execute(
        "CREATE TABLE search_postings (term_id INTEGER NOT NULL, block INTEGER NOT NULL,"
        " postings BLOB NOT NULL, PRIMARY KEY (term_id, block)) WITHOUT ROWID"
    )


def pg029_kept_postings(conn: psycopg.Connection[Any]) -> None:
    conn.execute(
        "CREATE TABLE search_terms (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
        " ws BIGINT NOT NULL, kind TEXT NOT NULL, term TEXT NOT NULL, UNIQUE (ws, kind, term))"
    )
    conn.execute(
        "CREATE TABLE search_postings (term_id BIGINT NOT NULL, block BIGINT NOT NULL,"
        " postings BYTEA NOT NULL, PRIMARY KEY (term_id, block))"
    )
    # each space's rows and total lengths as FTS5 counts them (a trigram side's tokens:
    # the text's characters less two)
    conn.execute(
        "CREATE TABLE search_figures (ws BIGINT PRIMARY KEY, rows BIGINT NOT NULL,"
        " tri_tokens BIGINT NOT NULL, bi_tokens BIGINT NOT NULL)"
    )
    conn.execute(
        "CREATE FUNCTION candidates_figures() RETURNS trigger LANGUAGE plpgsql AS $$\n"
        "BEGIN\n"
        "    IF TG_OP IN ('UPDATE', 'DELETE') THEN\n"
        "        UPDATE search_figures SET rows = rows - 1,\n"
        "            tri_tokens = tri_tokens - greatest(OLD.fts_len - 2, 0),\n"
        "            bi_tokens = bi_tokens - OLD.terms_len WHERE ws = OLD.ws;\n"
        "    END IF;\n"
        "    IF TG_OP IN ('INSERT', 'UPDATE') THEN\n"
        "        INSERT INTO search_figures AS f (ws, rows, tri_tokens, bi_tokens)\n"
        "        VALUES (NEW.ws, 1, greatest(NEW.fts_len - 2, 0), NEW.terms_len)\n"
        "        ON CONFLICT (ws) DO UPDATE SET rows = f.rows + 1,\n"
        "            tri_tokens = f.tri_tokens + excluded.tri_tokens,\n"
        "            bi_tokens = f.bi_tokens + excluded.bi_tokens;\n"
        "    END IF;\n"
        "    RETURN NULL;\n"
        "END\n$$"
    )
    conn.execute(
        "CREATE TRIGGER candidates_figures AFTER INSERT OR DELETE OR UPDATE OF ws, fts_len,"
        " terms_len ON candidates FOR EACH ROW EXECUTE FUNCTION candidates_figures()"
    )
    conn.execute(
        "INSERT INTO search_figures (ws, rows, tri_tokens, bi_tokens)"
        " SELECT ws, count(*), coalesce(sum(greatest(fts_len - 2, 0)), 0),"
        " coalesce(sum(terms_len), 0) FROM candidates GROUP BY ws"
    )
