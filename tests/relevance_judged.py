"""The judged relevance set (issue 47): transcripts written for it (tests/relevance/transcripts/),
queries a recruiter types, and the transcripts a person judged relevant to each, with why
(tests/relevance/judgments.yml). What a search must do with them, read from outside the
search code as a person would read the results: used by tests/test_relevance.py and
bench/relevance.py.

- Every hit not marked `partial` holds every term of the query, in the transcript's text as
  written (compatibility forms, case and script folded as a reader would not notice them).
- Partial hits come after every hit that is not partial.
- The first answer to a query is its second (the same ids in the same order).
- Recall in the top 10: of the transcripts judged relevant, how many the first page shows.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import yaml

from store.api import StoreAPI
from store.indexer import index_paths
from store.models import SearchHit
from store.scripts import fold

HERE = Path(__file__).resolve().parent / "relevance"
TRANSCRIPTS = HERE / "transcripts"
JUDGMENTS = HERE / "judgments.yml"
TOP = 10

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_RUNS = re.compile(f"[{_CJK}]+|[^{_CJK}]+")
# What people put around a word (quotes, brackets, sentence marks), never part of it.
_AROUND = "\"'“”‘’「」『』()（）[]【】{}<>《》.,;:!?，。、；：！？"


@dataclass(frozen=True)
class Judged:
    query: str
    relevant: dict[str, str]  # id -> why a person judged it relevant
    passing: str = ""  # which files hold the words in passing, and why they are not relevant


@dataclass
class Outcome:
    query: str
    first: list[SearchHit]
    second: list[SearchHit]
    relevant: set[str]
    problems: list[str] = field(default_factory=list)

    @property
    def ids(self) -> list[str]:
        return [h.id for h in self.first]

    @property
    def found(self) -> set[str]:
        return self.relevant & set(self.ids[:TOP])

    @property
    def recall(self) -> float:
        return len(self.found) / len(self.relevant)


@cache
def judged() -> tuple[Judged, ...]:
    data = yaml.safe_load(JUDGMENTS.read_text(encoding="utf-8"))
    return tuple(
        Judged(
            str(q["query"]),
            {str(k): str(v) for k, v in q["relevant"].items()},
            q.get("passing", ""),
        )
        for q in data["queries"]
    )


def read(text: str) -> str:
    """Text as a person reads it: compatibility forms (full width, ligatures), case and
    script (繁體 / 简体) are not differences."""
    return fold(unicodedata.normalize("NFKC", text).casefold())


def words(query: str) -> list[str]:
    """The words a person typed: split at spaces and where Chinese meets other text
    (`Vue组件` is `vue` + `组件`), without the quotes and marks around them."""
    found: list[str] = []
    for chunk in read(query).split():
        for run in _RUNS.findall(chunk):
            run = run.strip(_AROUND)
            if run and run not in found:
                found.append(run)
    return found


@cache
def texts() -> dict[str, str]:
    """Each transcript's text as read, by id (the file's stem)."""
    return {p.stem: read(p.read_text(encoding="utf-8")) for p in sorted(TRANSCRIPTS.glob("*.txt"))}


def index(store: StoreAPI) -> None:
    result = index_paths(store, [TRANSCRIPTS])  # type: ignore[arg-type]
    assert not result.failed and not result.skipped, (result.failed, result.skipped)
    assert sorted(result.indexed) == sorted(texts()), result.indexed


def ask(store: StoreAPI, j: Judged) -> Outcome:
    """The query asked twice (limit 10), and what is wrong with its answer."""
    first = store.search(j.query, limit=TOP)
    second = store.search(j.query, limit=TOP)
    out = Outcome(j.query, first, second, set(j.relevant))
    want = words(j.query)
    seen_partial = False
    for rank, hit in enumerate(first, 1):
        if hit.partial:
            seen_partial = True
            continue
        if seen_partial:
            out.problems.append(f"#{rank} {hit.id} is not partial but comes after a partial hit")
        text = texts().get(hit.id)
        if text is None:
            out.problems.append(f"#{rank} {hit.id} is no transcript of the set")
            continue
        missing = [w for w in want if w not in text]
        if missing:
            out.problems.append(f"#{rank} {hit.id} is not partial yet lacks {missing}")
    if [h.id for h in second] != out.ids:
        out.problems.append(f"first answer {out.ids} != second {[h.id for h in second]}")
    return out


def ask_all(store: StoreAPI) -> list[Outcome]:
    return [ask(store, j) for j in judged()]


def overall_recall(outcomes: list[Outcome]) -> float:
    """Of all the judged-relevant (query, transcript) pairs, the share shown in the top 10."""
    found = sum(len(o.found) for o in outcomes)
    return found / sum(len(o.relevant) for o in outcomes)
