"""What the two next steps for search at 100,000 (issue 39) would give, measured on a
database `debrief index` wrote (space 0), without changing it:

    python bench/bounds.py --db DIR/bench.db [--block 1000] [--json]

1. Whole Latin words as one token: a contentless unicode61 FTS5 table of each
   transcript's Latin words (`[0-9a-z]+` of its indexed text), built in a file of its
   own beside the database; each word's count and top 10 as one token, against the
   trigram phrase the store searches, and how many of the phrase's exact bm25 top 10
   the word table's own bm25 shares.
2. Per-term score bounds: for each one-token Chinese word of the bench, its term
   frequency per transcript (`fts5vocab` instance) and document length (the bigram
   table's `_docsize`), blocks of `--block` rowids, blocks taken best bound first until
   the 10th best score reaches the next bound (MaxScore / block-max). Two bounds: the
   block's (largest tf, shortest length), which a writer could keep cheaply, and its
   true best score (what a (tf, length) skyline per block would give).

Nothing here asserts a time."""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from run import loadavg  # noqa: E402

from store import fulltext, rows  # noqa: E402
from store.sqlite.driver import sqlite3  # noqa: E402

WORDS = ["tensorflow", "kubernetes", "worker", "keras"]
BIGRAMS = ["模型", "数据", "优化", "框架", "并行", "蛋糕"]
K1, B = 1.2, 0.75
_LATIN = re.compile(r"[0-9a-z]+")


def best_ms(db: Any, sql: str, params: list[Any], repeat: int = 7) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        db.execute(sql, params).fetchall()
        best = min(best, time.perf_counter() - started)
    return best * 1000


def words_table(src: Any, out: Path) -> tuple[Any, float]:
    """Each transcript's Latin words into a table of their own; (connection, seconds)."""
    questions: dict[int, list[Any]] = {}
    for rid, *q in src.execute(
        f"SELECT candidate_rid, {rows.QUESTION_COLUMNS} FROM questions ORDER BY candidate_rid, seq"
    ):
        questions.setdefault(rid, []).append(rows.question([*q, None]))
    started = time.perf_counter()
    batch = []
    for rid, p, i, s, v, n, iv in src.execute(
        "SELECT rid, position, intro, summary, verdict, name, interviewers FROM candidates"
    ):
        text = fulltext.doc_text(p, i, s, questions.get(rid, []), v, n, rows.names(iv))
        batch.append((rid, " ".join(_LATIN.findall(text.casefold()))))
    db = sqlite3.connect(out, isolation_level=None)
    db.execute("CREATE VIRTUAL TABLE w USING fts5(words, content='')")
    db.execute("BEGIN")
    db.executemany("INSERT INTO w (rowid, words) VALUES (?, ?)", batch)
    db.execute("COMMIT")
    return db, time.perf_counter() - started


def latin_words(src: Any, work: Path) -> dict[str, Any]:
    words, built = words_table(src, work / "words.db")
    out: dict[str, Any] = {"built_s": built}
    top = "SELECT rowid FROM {t} WHERE {t} MATCH ? ORDER BY rank, rowid DESC LIMIT 10"
    count = "SELECT count(*) FROM {t} WHERE {t} MATCH ?"
    for word in WORDS:
        phrase = fulltext.quote(word)
        mine = [r[0] for r in words.execute(top.format(t="w"), [word])]
        exact = [r[0] for r in src.execute(top.format(t="candidates_fts"), [phrase])]
        out[word] = {
            "token_count_ms": best_ms(words, count.format(t="w"), [word]),
            "token_rank_ms": best_ms(words, top.format(t="w"), [word]),
            "phrase_count_ms": best_ms(src, count.format(t="candidates_fts"), [phrase]),
            "phrase_rank_ms": best_ms(src, top.format(t="candidates_fts"), [phrase]),
            "top10_shared": len(set(mine) & set(exact)),
        }
    words.close()
    return out


def _varint(blob: bytes) -> int:
    value = 0
    for byte in blob:
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            break
    return value


def scored_blocks(score: dict[int, float], bound: dict[int, float], width: int) -> int:
    """Blocks a block-max ranking scores before its 10th best reaches the next bound."""
    top: list[float] = []
    scored = 0
    for ub, block in sorted(((b, k) for k, b in bound.items()), reverse=True):
        if len(top) >= 10 and top[9] >= ub:
            break
        scored += 1
        top = sorted(top + [s for r, s in score.items() if r // width == block], reverse=True)
        top = top[:10]
    return scored


def bounds(src: Any, width: int) -> dict[str, Any]:
    src.execute(
        "CREATE VIRTUAL TABLE IF NOT EXISTS temp.v USING fts5vocab(main, candidates_bigrams,"
        " instance)"
    )
    length = {
        r: _varint(sz) for r, sz in src.execute("SELECT id, sz FROM candidates_bigrams_docsize")
    }
    average = sum(length.values()) / len(length)

    def part(tf: int, dl: int) -> float:
        return tf * (K1 + 1) / (tf + K1 * (1 - B + B * dl / average))

    out: dict[str, Any] = {}
    for term in BIGRAMS:
        tf = dict(src.execute("SELECT doc, count(*) FROM v WHERE term = ? GROUP BY doc", [term]))
        score = {r: part(t, length[r]) for r, t in tf.items()}
        cheap: dict[int, list[int]] = {}
        true: dict[int, float] = {}
        for r, t in tf.items():
            k = r // width
            b = cheap.setdefault(k, [0, 1 << 30])
            b[0], b[1] = max(b[0], t), min(b[1], length[r])
            true[k] = max(true.get(k, 0.0), score[r])
        out[term] = {
            "matches": len(tf),
            "blocks": len(cheap),
            "scored_with_max_tf_min_length": scored_blocks(
                score, {k: part(t, d) for k, (t, d) in cheap.items()}, width
            ),
            "scored_with_true_block_max": scored_blocks(score, true, width),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, help="a SQLite database `debrief index` wrote")
    parser.add_argument("--block", type=int, default=1000, help="rowids a block (1000)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    src = sqlite3.connect(args.db)
    figures: dict[str, Any] = {"load_start": loadavg()}
    with tempfile.TemporaryDirectory(prefix="debrief-bounds-") as tmp:
        figures["words"] = latin_words(src, Path(tmp))
    figures["bounds"] = bounds(src, args.block)
    figures["load_end"] = loadavg()
    print(f"load average {figures['load_start']} at the start, {figures['load_end']} at the end")
    print(f"1. whole Latin words as one token (table built in {figures['words']['built_s']:.1f} s)")
    print("   word         token count  token rank  phrase count  phrase rank ms  top 10 shared")
    for word in WORDS:
        w = figures["words"][word]
        print(
            f"   {word:<12} {w['token_count_ms']:11.1f} {w['token_rank_ms']:11.1f}"
            f" {w['phrase_count_ms']:13.1f} {w['phrase_rank_ms']:15.1f} {w['top10_shared']:8}/10"
        )
    print(f"2. blocks of {args.block} rowids scored before the top 10 is sure")
    print("   word   matches  blocks  (max tf, min length) bound  true block maximum")
    for term in BIGRAMS:
        b = figures["bounds"][term]
        print(
            f"   {term}  {b['matches']:8} {b['blocks']:7} {b['scored_with_max_tf_min_length']:27}"
            f" {b['scored_with_true_block_max']:19}"
        )
    if args.json:
        print(json.dumps(figures, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
