"""Full-text search over the store: find the matching candidates, rank them, cut snippets.

The index itself (what text goes in, how a query becomes FTS5 expressions, bm25's
term-frequency part, snippets) is pure and lives in `fulltext.py`; this module runs
its queries against the database.
"""

from __future__ import annotations

from . import fulltext
from .connection import Connection
from .models import SearchHit


class SearchStore(Connection):
    """`search()`: candidates containing every term, best first, with snippets."""

    def _expand(self, prefix: str) -> list[str]:
        return [
            r[0]
            for r in self.db.execute(
                "SELECT term FROM candidates_fts_vocab WHERE term >= ? AND term < ?",
                [prefix, prefix + "\U0010ffff"],
            )
        ]

    def _matches(self, match: fulltext.Match, window: int) -> list[int]:
        """The newest `window` candidates (rowids) matching every term."""
        if match.trigram and match.bigram:
            sql = (
                "SELECT rowid FROM candidates_fts WHERE candidates_fts MATCH :tri AND +rowid IN"
                " (SELECT rowid FROM candidates_bigrams WHERE candidates_bigrams MATCH :bi)"
                " ORDER BY rowid DESC LIMIT :n"
            )
        elif match.trigram:
            sql = (
                "SELECT rowid FROM candidates_fts WHERE candidates_fts MATCH :tri"
                " ORDER BY rowid DESC LIMIT :n"
            )
        else:
            sql = (
                "SELECT rowid FROM candidates_bigrams WHERE candidates_bigrams MATCH :bi"
                " ORDER BY rowid DESC LIMIT :n"
            )
        params = {"tri": match.trigram, "bi": match.bigram, "n": window}
        return [r[0] for r in self.db.execute(sql, params)]

    def _fields(self, rowids: list[int]) -> dict[int, list[str]]:
        """The indexed text of some candidates, field by field, in reading order."""
        marks = ", ".join("?" for _ in rowids)
        head: dict[int, list[str]] = {}
        verdicts: dict[int, str] = {}
        for rid, position, intro, summary, verdict in self.db.execute(
            f"SELECT rid, position, intro, summary, verdict FROM candidates WHERE rid IN ({marks})",
            rowids,
        ):
            head[rid] = [position or "", intro or "", summary or ""]
            verdicts[rid] = verdict or ""
        for rid, question, goal, answer in self.db.execute(
            "SELECT candidate_rid, question, goal, answer FROM questions"
            f" WHERE candidate_rid IN ({marks}) ORDER BY candidate_rid, seq",
            rowids,
        ):
            head[rid] += (question, goal, answer)
        return {rid: [*parts, verdicts[rid]] for rid, parts in head.items()}

    def _ranked(
        self,
        query_terms: list[fulltext.Term],
        fields: dict[int, list[str]],
        rowids: list[int],
        limit: int,
    ) -> list[tuple[int, float]]:
        """Rank the window by bm25's term-frequency part, counted in the text itself.
        FTS5's own bm25 first counts every match in the whole index (its IDF): 0.1 s
        for a common term at 100,000 transcripts, whatever the window."""
        texts = {rid: "\n".join(parts).casefold() for rid, parts in fields.items()}
        scores = fulltext.bm25_tf(texts, [t.text for t in query_terms])
        ranked = sorted(rowids, key=lambda rid: (-scores.get(rid, 0.0), -rid))
        return [(rid, scores.get(rid, 0.0)) for rid in ranked[:limit]]

    def search(self, query: str, limit: int = 10, snippets: bool = True) -> list[SearchHit]:
        """Candidates containing every term of `query`, best first. Never raises on input."""
        query_terms = fulltext.terms(query)
        match = fulltext.match_expressions(query_terms, self._expand)
        if match is None:
            return []
        limit = max(1, min(limit, 1000))
        window = self._matches(match, max(limit, fulltext.RANK_WINDOW))
        if not window:
            return []
        fields = self._fields(window)  # read once: ranking and snippets both use it
        rows = self._ranked(query_terms, fields, window, limit)
        if not rows:
            return []
        info = {
            r["rid"]: r
            for r in self._rows(
                "SELECT rid, id, position, years FROM candidates"
                f" WHERE rid IN ({', '.join('?' for _ in rows)})",
                [r[0] for r in rows],
            )
        }
        hits: list[SearchHit] = []
        for rid, score in rows:
            r = info.get(rid)
            if r is None:
                continue
            text, hl = "", None
            if snippets:
                text, hl = fulltext.snippet(fields.get(rid, []), query_terms)
            hits.append(
                SearchHit(
                    id=r["id"],
                    position=r["position"],
                    years=r["years"],
                    snippet=text,
                    score=round(score, 6),
                    highlight=hl,
                )
            )
        return hits
