"""PostgreSQL's own full-text schema steps (pg004-pg010, pg015-pg017), which SQLite's
FTS5 tables need no counterpart of.

Full text (see store/fulltext.py for what is indexed): `fts` holds each candidate's
indexed text, case-folded (until pg016 under a pg_trgm GIN index: terms of 3+ characters
are substrings), and `terms` its distinct CJK bigrams and short Latin
words (their index went in pg007: `postings` lists them). Since pg004,
`postings` holds each of those tokens' frequency per candidate (and the candidate's token
count), so bm25 for them is an index scan instead of a pass over the matches' text;
since pg015 it is a view over compressed rows (a row per term and block of 128
candidates), as `words` and `runs` are.

All of it went in pg035 (store/schema/pg_text_search.py), but `fts_version`: PostgreSQL
ranks with its own text search since. Bodies only: `store/schema/steps.py` lists them
in order; psycopg is imported when a step runs (on PostgreSQL), never by SQLite."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import psycopg

    Conn = psycopg.Connection[Any]


def _drop_rows_trigger(conn: Conn, table: str, where: str, column: str) -> None:
    """A candidate's old `table` rows go when it is deleted or its `column` is updated (a
    save writes the new ones after its upsert): trigger `candidates_{table}`."""
    conn.execute(
        f"CREATE FUNCTION candidates_drop_{table}() RETURNS trigger LANGUAGE plpgsql AS $$\n"
        f"BEGIN\n    DELETE FROM {table} WHERE {where};\n"
        "    IF TG_OP = 'DELETE' THEN\n        RETURN OLD;\n    END IF;\n    RETURN NEW;\nEND\n$$"
    )
    conn.execute(
        f"CREATE TRIGGER candidates_{table} BEFORE DELETE OR UPDATE OF {column} ON candidates"
        f" FOR EACH ROW EXECUTE FUNCTION candidates_drop_{table}()"
    )


def pg004_postings(conn: Conn) -> None:
    """Each CJK bigram's and short Latin word's frequency per candidate (what SQLite's
    bigram table keeps in its index). Built for the candidates already saved until
    pg035, which drops the table and indexes their stored text itself: the rows it
    would drop are not written any more (their code went with pg035)."""
    conn.execute(
        'CREATE TABLE postings (term TEXT COLLATE "C" NOT NULL, rid BIGINT NOT NULL,'
        " tf INTEGER NOT NULL, dl INTEGER NOT NULL)"
    )
    conn.execute("ALTER TABLE postings ADD PRIMARY KEY (term, rid) INCLUDE (tf, dl)")
    # `term = ANY(OLD.terms)` keeps the delete on the primary key
    _drop_rows_trigger(conn, "postings", "term = ANY(OLD.terms) AND rid = OLD.rid", "terms")


def pg005_words(conn: Conn) -> None:
    """Each Latin word's (3+ letters and digits) frequency per candidate, and the
    vocabulary of those words under pg_trgm: a Latin search term's frequency is then
    added up from the words containing it instead of counted in every match's text.
    (Not built for the candidates already saved since pg035: see pg004.)"""
    conn.execute(
        'CREATE TABLE words (word TEXT COLLATE "C" NOT NULL, rid BIGINT NOT NULL,'
        " tf INTEGER NOT NULL, dl INTEGER NOT NULL)"
    )
    conn.execute('CREATE TABLE vocabulary (word TEXT COLLATE "C" PRIMARY KEY)')
    conn.execute("ALTER TABLE words ADD PRIMARY KEY (word, rid) INCLUDE (tf, dl)")
    conn.execute("CREATE INDEX vocabulary_trgm ON vocabulary USING gin (word gin_trgm_ops)")
    _drop_rows_trigger(
        conn,
        "words",
        "rid = OLD.rid AND word IN"
        " (SELECT m[1] FROM regexp_matches(OLD.fts, '[0-9a-z]{3,}', 'g') AS m)",
        "fts",
    )


def pg006_runs(conn: Conn) -> None:
    """Each run of characters with punctuation (`c++`, `client/server`) per candidate,
    and their vocabulary: a search term with punctuation is then counted from the runs
    containing it, as a Latin word is from `words`, instead of in every match's text.
    (Not built for the candidates already saved since pg035: see pg004.)"""
    conn.execute(
        'CREATE TABLE runs (run TEXT COLLATE "C" NOT NULL, rid BIGINT NOT NULL,'
        " tf INTEGER NOT NULL, dl INTEGER NOT NULL)"
    )
    conn.execute('CREATE TABLE run_vocabulary (run TEXT COLLATE "C" PRIMARY KEY)')
    conn.execute("ALTER TABLE runs ADD PRIMARY KEY (run, rid) INCLUDE (tf, dl)")
    # A delete finds a candidate's runs by rid: what the text calls a run is Python's
    # regex, which a trigger cannot repeat exactly.
    conn.execute("CREATE INDEX runs_rid ON runs (rid)")
    _drop_rows_trigger(conn, "runs", "rid = OLD.rid", "fts")


def pg007_no_terms_index(conn: Conn) -> None:
    """Drop the GIN index on each candidate's distinct bigrams: since pg004 `postings`
    lists the same matches (a newest-first search reads it backwards), and keeping the
    GIN up to date cost a third of each save."""
    conn.execute("DROP INDEX IF EXISTS candidates_terms")


def pg008_fts_version(conn: Conn) -> None:
    """A number that changes whenever any candidate's indexed text may have: a search
    answer is cached with the number it was computed under (pg/search.py), and every
    replica sees the same number, in the same snapshot as the data. The trigger runs
    before the statement, so every writer takes this row's lock before any candidate's
    (one order: no deadlock between an index batch and another replica's save)."""
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


def pg009_candidates_length(conn: Conn) -> None:
    """Each candidate's text length beside its rid, for the bound a CJK phrase's ranking
    reads for every match (pg/search.py `_bounded`): an index-only lookup instead of a
    visit to the candidate's row."""
    conn.execute("CREATE INDEX candidates_length ON candidates (rid) INCLUDE (fts_len)")


def pg010_long_keys(conn: Conn) -> None:
    """Keys no B-tree can hold. A word or run longer than `postings.MAX_KEY` characters
    (a pasted key, a base64 blob, a long URL) goes to `long_words` or `long_runs`, the
    same columns as `words` and `runs`, found by pg_trgm instead of by key (a B-tree
    entry holds ~2,700 bytes: a 3,000-letter word refused the whole batch holding it).
    The path index becomes a hash index for the same reason: a path may be 4,095 bytes.
    Keys `words` and `runs` already hold stay there (search.py reads both tables)."""
    for table, key in (("long_words", "word"), ("long_runs", "run")):
        conn.execute(
            f'CREATE TABLE {table} ({key} TEXT COLLATE "C" NOT NULL, rid BIGINT NOT NULL,'
            " tf INTEGER NOT NULL, dl INTEGER NOT NULL)"
        )
        conn.execute(f"CREATE INDEX {table}_rid ON {table} (rid)")
        conn.execute(f"CREATE INDEX {table}_trgm ON {table} USING gin ({key} gin_trgm_ops)")
        _drop_rows_trigger(conn, table, "rid = OLD.rid", "fts")
    conn.execute("DROP INDEX candidates_source")
    conn.execute("CREATE INDEX candidates_source ON candidates USING hash (source)")


BLOCK_BITS = 7  # 128 candidates a block (the code that wrote them went with pg035)
_BLOCK_TABLES = (
    ("postings", "term", "b_postings"),
    ("words", "word", "b_words"),
    ("runs", "run", "b_runs"),
)
_LENGTH_OF = {"postings": "terms_len", "words": "fts_len", "runs": "fts_len"}
# A candidate's offset goes from each block row of its keys: a row holding only it is
# deleted, any other loses the offset and its frequency. Its keys: `terms` (the bigram
# side), the words of its text (the same regex as postings.WORD_RE), and for runs every
# row of its block. A word or run no row holds any more leaves its vocabulary.
_DROP_BLOCKS = """DECLARE
    blk BIGINT := OLD.rid >> {bits};
    o SMALLINT := (OLD.rid & {mask})::smallint;
    gone TEXT[];
BEGIN
    DELETE FROM b_postings WHERE term = ANY(OLD.terms) AND block = blk AND offs = ARRAY[o];
    UPDATE b_postings SET offs = offs[:array_position(offs, o) - 1] || offs[array_position(offs, o) + 1:],
        tfs = tfs[:array_position(offs, o) - 1] || tfs[array_position(offs, o) + 1:]
        WHERE term = ANY(OLD.terms) AND block = blk AND o = ANY(offs);

    WITH d AS (
        DELETE FROM b_words WHERE block = blk AND offs = ARRAY[o]
            AND word IN (SELECT m[1] FROM regexp_matches(OLD.fts, '[0-9a-z]{3,}', 'g') AS m)
        RETURNING word
    ) SELECT array_agg(word) INTO gone FROM d;
    UPDATE b_words SET offs = offs[:array_position(offs, o) - 1] || offs[array_position(offs, o) + 1:],
        tfs = tfs[:array_position(offs, o) - 1] || tfs[array_position(offs, o) + 1:]
        WHERE block = blk AND o = ANY(offs)
            AND word IN (SELECT m[1] FROM regexp_matches(OLD.fts, '[0-9a-z]{3,}', 'g') AS m);
    DELETE FROM vocabulary AS v WHERE v.word = ANY(gone)
        AND NOT EXISTS (SELECT 1 FROM b_words AS w WHERE w.word = v.word);

    WITH d AS (
        DELETE FROM b_runs WHERE block = blk AND offs = ARRAY[o] RETURNING run
    ) SELECT array_agg(run) INTO gone FROM d;
    UPDATE b_runs SET offs = offs[:array_position(offs, o) - 1] || offs[array_position(offs, o) + 1:],
        tfs = tfs[:array_position(offs, o) - 1] || tfs[array_position(offs, o) + 1:]
        WHERE block = blk AND o = ANY(offs);
    DELETE FROM run_vocabulary AS v WHERE v.run = ANY(gone)
        AND NOT EXISTS (SELECT 1 FROM b_runs AS r WHERE r.run = v.run);

    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    RETURN NEW;
END
"""


def pg015_blocks(conn: Conn) -> None:
    """Compressed postings: a row per key and block of 128 consecutive rids, with the
    block's offsets and frequencies as arrays, instead of a row per key and candidate
    (at 100,000 transcripts `postings` held 137 million rows, ~16 GB: most of the
    database). Each candidate's lengths are kept once, per block, in `block_lengths`.
    Views with the old tables' names and columns (key, rid, tf, dl) unnest them, so
    search reads what it read before. One trigger removes a candidate's offsets from
    its blocks when it is deleted or its text changes (a save writes the new ones after
    its upsert, postings.Rows), and a word no candidate holds any more leaves the
    vocabulary (it may be a forgotten candidate's name)."""
    size = 1 << BLOCK_BITS
    for _, key, block_table in _BLOCK_TABLES:
        conn.execute(
            f'CREATE TABLE {block_table} ({key} TEXT COLLATE "C" NOT NULL, block BIGINT NOT NULL,'
            " offs SMALLINT[] NOT NULL, tfs INTEGER[] NOT NULL)"
        )
    conn.execute(
        "CREATE TABLE block_lengths (block BIGINT PRIMARY KEY, terms_len INTEGER[] NOT NULL,"
        " fts_len INTEGER[] NOT NULL)"
    )
    # what pg004-pg006 wrote, a block at a time (candidates' lengths as the rows had them)
    for table, key, block_table in _BLOCK_TABLES:
        conn.execute(
            f"INSERT INTO {block_table} ({key}, block, offs, tfs)"
            f" SELECT {key}, rid >> {BLOCK_BITS},"
            f" array_agg((rid & {size - 1})::smallint ORDER BY rid), array_agg(tf ORDER BY rid)"
            f" FROM {table} GROUP BY {key}, rid >> {BLOCK_BITS}"
        )
        conn.execute(f"ALTER TABLE {block_table} ADD PRIMARY KEY ({key}, block)")
    conn.execute(
        "INSERT INTO block_lengths (block, terms_len, fts_len)"
        " SELECT b.block, array_agg(coalesce(c.terms_len, 0) ORDER BY o),"
        " array_agg(coalesce(c.fts_len, 0) ORDER BY o)"
        f" FROM (SELECT DISTINCT rid >> {BLOCK_BITS} AS block FROM candidates) AS b"
        f" CROSS JOIN generate_series(0, {size - 1}) AS o"
        f" LEFT JOIN candidates AS c ON c.rid = (b.block << {BLOCK_BITS}) + o"
        " GROUP BY b.block"
    )
    # a delete finds a candidate's runs in its block: what the text calls a run is
    # Python's regex, which a trigger cannot repeat exactly
    conn.execute("CREATE INDEX b_runs_block ON b_runs (block)")
    for table, _, _ in _BLOCK_TABLES:
        conn.execute(f"DROP TRIGGER candidates_{table} ON candidates")
        conn.execute(f"DROP FUNCTION candidates_drop_{table}()")
        conn.execute(f"DROP TABLE {table}")
    for table, key, block_table in _BLOCK_TABLES:
        conn.execute(
            f"CREATE VIEW {table} AS SELECT b.{key}, (b.block << {BLOCK_BITS}) + u.off AS rid,"
            f" u.tf, l.{_LENGTH_OF[table]}[u.off + 1] AS dl FROM {block_table} AS b"
            " JOIN block_lengths AS l ON l.block = b.block"
            " CROSS JOIN LATERAL unnest(b.offs, b.tfs) AS u(off, tf)"
        )
    conn.execute(
        "CREATE FUNCTION candidates_drop_blocks() RETURNS trigger LANGUAGE plpgsql AS $$\n"
        + _DROP_BLOCKS.replace("{bits}", str(BLOCK_BITS)).replace("{mask}", str(size - 1))
        + "$$"
    )
    conn.execute(
        "CREATE TRIGGER candidates_blocks BEFORE DELETE OR UPDATE OF fts, terms ON candidates"
        " FOR EACH ROW EXECUTE FUNCTION candidates_drop_blocks()"
    )


def pg016_no_text_trigram_index(conn: Conn) -> None:
    """Drop the pg_trgm GIN index on each candidate's text. Since the postings (pg004)
    a CJK phrase's candidates are found by its bigrams and only their text is read
    (pg/search.py); the index served nothing else, and keeping it up to date took about
    a quarter of `debrief index` without the frequency rows, and ~15% of the database
    (727 MB at 100,000 transcripts)."""
    conn.execute("DROP INDEX IF EXISTS candidates_fts")


def pg017_cheaper_candidate_writes(conn: Conn) -> None:
    """Two costs of every save, measured in `debrief index` (20,000 transcripts, server
    time per statement from pg_stat_statements):

    - Compressing `terms` (~1,400 distinct bigrams, ~9.5 KB, that hardly compress) with
      PostgreSQL's default pglz took ~400 us a candidate, most of the candidates
      insert's time. lz4 does the same in a fraction of it, for ~10% more bytes; new
      values of `fts` and `terms` are compressed with it. A server built without lz4
      keeps pglz for `fts` and stores `terms` uncompressed instead (out of line).
    - The `fts_version` trigger updated its one row for every statement that writes
      `candidates`: twice a save (an upsert fires the insert's and the update's), and
      the updates of one transaction pile up as versions of that row. It now bumps the
      number once a transaction (a transaction-local setting remembers it, and a savepoint
      rolled back forgets it with the update). The row's lock is then held until the
      commit, as before, so writers still meet in one order."""
    import psycopg

    try:
        with conn.transaction():
            conn.execute(
                "ALTER TABLE candidates ALTER COLUMN fts SET COMPRESSION lz4,"
                " ALTER COLUMN terms SET COMPRESSION lz4"
            )
    except psycopg.errors.FeatureNotSupported:
        conn.execute("ALTER TABLE candidates ALTER COLUMN terms SET STORAGE EXTERNAL")
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
