"""The SQLite backend: its driver, connections and batches, migrations and search.
`store.sqlite.store.Store` puts the concerns together (see store/factory.py)."""
