"""The schema: its steps, in one ordered list for both backends (`steps.py`), their
bodies by era (`sqlite_first.py`, `pg_first.py`, `pg_search.py`, `workspaces.py`), and
the tables, each declared once (`tables.py`). How a step is run (transactions, locks) is
each backend's: `store/sqlite/migrations.py`, `store/pg/migrations.py`."""

REPARSE_MTIME = -1
"""A `candidates.mtime_ns` that asks the next index run to parse the file again, even
when its content is unchanged: the parser learned facts the stored rows lack."""
