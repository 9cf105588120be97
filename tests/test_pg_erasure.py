"""Erasure on PostgreSQL's text search (issue 47): a forgotten candidate leaves none of
their lexemes in the index's table and none of their text in any table, whatever
changed since they were indexed (the one-script folding table here), and whatever was
searched for them before.

Skipped, loudly, where no PostgreSQL server can be started (tests/support/pg_fixtures.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from support.pg_fixtures import fresh_pg_url

from store import fulltext, scripts
from store.models import Question, Transcript
from store.pg import PgStore, lexemes

CID = "forgotten_one"
# traditional characters (folded at index time), a Latin name, a rare phrase
SECRET = "ZEBRAFISH 陳大文 量子糾纏實驗 QUOKKA42"
STAYS = "后端工程师 分布式系统 Raft"


def _transcript(cid: str, intro: str) -> Transcript:
    return Transcript(
        id=cid,
        position="后端工程师",
        years=3,
        intro=intro,
        summary="",
        questions=[Question(number=1, question="讲讲一致性", answer="Raft", answered=True)],
        verdict="通过",
    )


@pytest.fixture
def store(request: pytest.FixtureRequest) -> Iterator[PgStore]:
    opened = PgStore(fresh_pg_url(request))
    yield opened
    opened.close()


def _lexemes(store: PgStore) -> set[str]:
    return {str(r[0]) for r in store._all("SELECT word FROM ts_stat('SELECT tsv FROM candidates')")}


def _tables_holding(store: PgStore, needle: str) -> list[str]:
    """The tables of this store's schema with a row whose text holds `needle`."""
    tables = [
        str(r[0])
        for r in store._all(
            "SELECT table_name FROM information_schema.tables"
            " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
        )
    ]
    return [
        t
        for t in tables
        if store._scalar(
            f"SELECT count(*) FROM {t} AS r WHERE strpos(lower(r::text), ?) > 0", [needle]
        )
    ]


def test_forget_leaves_no_lexeme_of_the_candidate_even_after_the_folding_table_changed(
    store: PgStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.save(_transcript("stays", STAYS))
    store.save(_transcript(CID, SECRET))
    own = _lexemes_of(_transcript(CID, SECRET)) - _lexemes_of(_transcript("stays", STAYS))
    assert {"zebrafish", "陈大", "纠缠", "quokka42"} <= own <= _lexemes(store)
    # searched for by name and phrase first: nothing of a search may outlive them
    assert [h.id for h in store.search("ZEBRAFISH 陈大文")] == [CID]
    assert [h.id for h in store.search("量子纠缠")] == [CID]

    # a dependency upgrade changed the one-script table since the candidate was indexed
    changed = str.maketrans({"纠": "糺", "缠": "纏", "陈": "陣"})
    form = scripts.search_form
    monkeypatch.setattr(fulltext, "search_form", lambda text: form(text).translate(changed))
    assert fulltext.doc_text(None, "陈", "", [], None).startswith("\n陣")
    assert store.forget(CID) is not None

    assert own & _lexemes(store) == set()
    for needle in ("zebrafish", "quokka42", "量子", "纠缠", "糾纏", "陈大文", "陳大文"):
        assert _tables_holding(store, needle) == [], needle
    assert store.search("ZEBRAFISH") == [] and store.search("量子纠缠") == []
    assert [h.id for h in store.search("分布式")] == ["stays"]


def _lexemes_of(t: Transcript) -> set[str]:
    literal = lexemes.document(fulltext.indexed(t)[0])
    return {part.rsplit(":", 1)[0].strip("'") for part in literal.split()}
