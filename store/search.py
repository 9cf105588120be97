"""Full-text search over the store: find the matching candidates, rank them, cut snippets.

The index itself (what text goes in, how a query becomes FTS5 expressions, snippets)
is pure and lives in `fulltext.py`; this module runs its queries against the database.

Ranking is FTS5's own bm25 over every match (`rank`), the newest first among equals.
A query with terms in both tables adds the two tables' bm25 scores.
"""

from __future__ import annotations

from . import fulltext
from .connection import Connection
from .fulltext import Sort
from .models import SearchHit


class SearchStore(Connection):
    """`search()`: candidates containing every term, best (or newest) first, with snippets."""

    def _ranked(self, match: fulltext.Match, limit: int, sort: Sort) -> list[tuple[int, float]]:
        """(rowid, score) of the best `limit` candidates matching every term; score is
        -bm25 (higher is better), 0 when sorting newest first."""
        params = {"tri": match.trigram, "bi": match.bigram, "n": limit}
        if sort == "newest":
            if match.trigram and match.bigram:
                sql = (
                    "SELECT rowid, 0 FROM candidates_fts WHERE candidates_fts MATCH :tri AND +rowid IN"
                    " (SELECT rowid FROM candidates_bigrams WHERE candidates_bigrams MATCH :bi)"
                    " ORDER BY rowid DESC LIMIT :n"
                )
            else:
                table = "candidates_fts" if match.trigram else "candidates_bigrams"
                key = "tri" if match.trigram else "bi"
                sql = (
                    f"SELECT rowid, 0 FROM {table} WHERE {table} MATCH :{key}"
                    " ORDER BY rowid DESC LIMIT :n"
                )
        elif match.trigram and match.bigram:
            sql = (
                "WITH t AS MATERIALIZED (SELECT rowid AS r, rank AS s FROM candidates_fts"
                " WHERE candidates_fts MATCH :tri),"
                " b AS MATERIALIZED (SELECT rowid AS r, rank AS s FROM candidates_bigrams"
                " WHERE candidates_bigrams MATCH :bi)"
                " SELECT t.r, t.s + b.s AS score FROM t JOIN b ON b.r = t.r"
                " ORDER BY score, t.r DESC LIMIT :n"
            )
        else:
            table = "candidates_fts" if match.trigram else "candidates_bigrams"
            key = "tri" if match.trigram else "bi"
            sql = (
                f"SELECT rowid, rank FROM {table} WHERE {table} MATCH :{key}"
                " ORDER BY rank, rowid DESC LIMIT :n"
            )
        return [(r[0], -float(r[1])) for r in self.db.execute(sql, params)]

    def _fields(self, rowids: list[int]) -> dict[int, list[tuple[str, int | None]]]:
        """The indexed text of some candidates, field by field in reading order, each
        with the number of the question it belongs to (None outside the questions)."""
        marks = ", ".join("?" for _ in rowids)
        head: dict[int, list[tuple[str, int | None]]] = {}
        verdicts: dict[int, str] = {}
        for rid, position, intro, summary, verdict in self.db.execute(
            f"SELECT rid, position, intro, summary, verdict FROM candidates WHERE rid IN ({marks})",
            rowids,
        ):
            head[rid] = [(position or "", None), (intro or "", None), (summary or "", None)]
            verdicts[rid] = verdict or ""
        for rid, number, question, goal, answer in self.db.execute(
            "SELECT candidate_rid, number, question, goal, answer FROM questions"
            f" WHERE candidate_rid IN ({marks}) ORDER BY candidate_rid, seq",
            rowids,
        ):
            head[rid] += [(question, number), (goal, number), (answer, number)]
        return {rid: [*parts, (verdicts[rid], None)] for rid, parts in head.items()}

    def search(
        self,
        query: str,
        limit: int = 10,
        snippets: bool = True,
        sort: Sort = "relevance",
    ) -> list[SearchHit]:
        """Candidates containing every term of `query`, best first (or newest first).
        Matches of a Chinese phrase as typed come before matches of its words.
        Never raises on input."""
        limit = max(1, min(limit, 1000))
        parsed = fulltext.parse(query, segment=False)
        rows: list[tuple[int, float, list[fulltext.Term]]] = []
        match = fulltext.match_expressions(parsed.exact)
        if match is not None:
            rows = [(rid, s, parsed.exact) for rid, s in self._ranked(match, limit, sort)]
        if len(rows) < limit and any(
            t.kind == "trigram" and fulltext.is_cjk(t.text) for t in parsed.exact
        ):
            words = fulltext.parse(query).words
            word_match = fulltext.match_expressions(words) if words else None
            if words and word_match is not None:
                seen = {r[0] for r in rows}
                more = self._ranked(word_match, limit + len(rows), sort)
                rows += [(rid, s, words) for rid, s in more if rid not in seen]
                if sort == "newest":
                    rows.sort(key=lambda r: -r[0])
                rows = rows[:limit]
        if not rows:
            return []
        rids = [r[0] for r in rows]
        marks = ", ".join("?" for _ in rids)
        info = {
            r["rid"]: r
            for r in self._rows(
                f"SELECT rid, id, position, years FROM candidates WHERE rid IN ({marks})", rids
            )
        }
        fields = self._fields(rids) if snippets else {}
        hits: list[SearchHit] = []
        for rid, score, used in rows:
            r = info.get(rid)
            if r is None:
                continue
            cut = fulltext.snippet(fields.get(rid, []), used) if snippets else None
            hits.append(
                SearchHit(
                    id=r["id"],
                    position=r["position"],
                    years=r["years"],
                    snippet=cut.text if cut else "",
                    score=round(score, 6),
                    highlight=cut.highlight if cut else None,
                    question=cut.question if cut else None,
                )
            )
        return hits
