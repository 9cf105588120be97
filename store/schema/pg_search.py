"""PostgreSQL's own full-text schema steps before issue 47 (pg004-pg017), which SQLite's
FTS5 tables needed no counterpart of.

They built a hand-made inverted index beside each candidate's text (frequency tables,
their views over blocks, vocabularies, triggers) and tuned it. Since pg035
(`pg_text_search.py`) PostgreSQL's own text search ranks, and pg035 drops whatever of
theirs a database holds, so their bodies are gone; what outlives them is here:
`fts_version` (pg008), the answer cache's key, and the path's hash index (pg010).

Bodies only: `store/schema/steps.py` lists them in order."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import psycopg

    Conn = psycopg.Connection[Any]


def pg008_fts_version(conn: Conn) -> None:
    """A number that changes whenever any candidate's indexed text may have: a search
    answer is cached with the number it was computed under (pg/search.py), and every
    replica sees the same number, in the same snapshot as the data. The trigger runs
    before the statement, so every writer takes this row's lock before any candidate's
    (one order: no deadlock between an index batch and another replica's save). pg035
    makes it fire on `tsv`, once a transaction."""
    conn.execute(
        "CREATE TABLE fts_version (one BOOLEAN PRIMARY KEY DEFAULT true CHECK (one),"
        " version BIGINT NOT NULL)"
    )
    conn.execute("INSERT INTO fts_version (version) VALUES (0)")
    conn.execute(
        "CREATE FUNCTION candidates_fts_version() RETURNS trigger LANGUAGE plpgsql AS $$\n"
        "BEGIN\n    UPDATE fts_version SET version = version + 1;\n    RETURN NULL;\nEND\n$$"
    )
    conn.execute(
        "CREATE TRIGGER candidates_fts_version BEFORE INSERT OR DELETE OR UPDATE OF fts"
        " ON candidates FOR EACH STATEMENT EXECUTE FUNCTION candidates_fts_version()"
    )


def pg010_path_index(conn: Conn) -> None:
    """The path index becomes a hash index: a path may be 4,095 bytes, more than a
    B-tree entry holds (~2,700 bytes). (This step also made tables for the words no
    B-tree could hold, which pg035 drops.)"""
    conn.execute("DROP INDEX candidates_source")
    conn.execute("CREATE INDEX candidates_source ON candidates USING hash (source)")
