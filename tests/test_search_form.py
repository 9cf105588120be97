"""Text typed exactly is found, and what is not searched is refused (issue 47).

Full-width letters, `Straße`, ligatures, Kangxi radicals, circled and parenthesised forms
and mathematical letters are indexed and searched in one form (`scripts.search_form`:
NFKC, case folded, one script, character by character), on both backends; a snippet
still highlights the characters as written. A query of more terms or characters than a
search takes is refused with the reason, by the store, the command line, `/candidate
search` and App Home's search."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from support.fake_slack import FakeSlack
from support.slackbot import Bot, all_text, start_bot
from test_home import click, open_home

from bot.cli import cli
from bot.search_pool import SearchPool
from store import fulltext, scripts
from store.errors import QueryTooLong
from store.models import Question, Transcript
from store.sqlite.store import Store

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

# (id, text as written in the transcript, what a recruiter types, what else they may type)
FORMS = [
    ("fullwidth", "熟悉 ＴｅｎｓｏｒＦｌｏｗ 框架", "TensorFlow", "tensorflow"),
    ("fullwidth_api", "设计过 ＡＰＩ 网关", "API", "api"),
    ("sharp_s", "在 Straße 项目做后端", "strasse", "STRASSE"),
    ("ligature", "写过 proﬁle 工具", "profile", "PROFILE"),
    ("kangxi", "互联网⾏业经验", "行业", "行业经验"),
    ("circled", "保证㊣品质量", "正品", "正品质量"),
    ("circled_latin", "熟悉 Ⓚⓤⓑⓔⓡⓝⓔⓣⓔⓢ 运维", "kubernetes", "Kubernetes"),
    ("parenthesised", "做过 ⒜⒝ 测试", "(a)(b)", "（ａ）（ｂ）"),
    ("math", "用 𝐑𝐞𝐝𝐢𝐬 做缓存", "redis", "Redis"),
]
# what each form's characters are, written the other way: found when typed so, too
WRITTEN_PLAIN = [
    ("plain_tf", "熟悉 TensorFlow 框架", "ＴｅｎｓｏｒＦｌｏｗ"),
    ("plain_api", "设计过 API 网关", "ＡＰＩ"),
    ("plain_strasse", "在 STRASSE 项目做后端", "Straße"),
    ("plain_profile", "写过 profile 工具", "proﬁle"),
    ("plain_hangye", "互联网行业经验", "⾏业"),
    ("plain_zhengpin", "保证正品质量", "㊣品"),
    ("plain_redis", "用 Redis 做缓存", "𝐑𝐞𝐝𝐢𝐬"),
]


def _transcript(cid: str, summary: str, answer: str = "回答了。") -> Transcript:
    return Transcript(
        id=cid,
        position="后端工程师",
        years=3,
        summary=summary,
        questions=[Question(number=1, question="介绍一下项目", answer=answer, answered=True)],
        verdict="通过",
    )


@pytest.fixture
def forms(store: Store) -> Store:
    for cid, text, *_typed in FORMS:
        store.save(_transcript(cid, text))
    for cid, text, _typed in WRITTEN_PLAIN:
        store.save(_transcript(cid, text))
    return store


def test_every_form_is_found_typed_either_way(forms: Store) -> None:
    for cid, written, typed, also in FORMS:
        for query in (typed, also, written.split()[1] if " " in written else written):
            assert cid in [h.id for h in forms.search(query, limit=50)], (cid, query)
    for cid, _written, typed in WRITTEN_PLAIN:
        assert cid in [h.id for h in forms.search(typed, limit=50)], (cid, typed)


def test_the_highlight_covers_the_characters_as_written(store: Store) -> None:
    """`ﬁ` folds to two letters: a highlight counted in the folded text would be one
    character off; it is mapped back to the text as written."""
    store.save(_transcript("lig", "ﬁrst ﬁle…… 熟悉 ＴｅｎｓｏｒＦｌｏｗ 和 Straße"))
    for query, written in (("tensorflow", "ＴｅｎｓｏｒＦｌｏｗ"), ("STRASSE", "Straße")):
        (hit,) = store.search(query)
        assert hit.highlight is not None
        a, b = hit.highlight
        assert hit.snippet[a:b] == written
        assert hit.snippet.startswith("ﬁrst ﬁle…… ")  # cut from the text as written


@pytest.mark.sqlite_only
def test_a_match_inside_a_ligature_highlights_the_whole_character() -> None:
    term = fulltext.terms("ﬁle")[0]
    assert fulltext.find("a proﬁle", term) == (5, 8)  # "ﬁle": the ﬁ and the two after
    assert fulltext.find("……ﬀ Straße", fulltext.terms("strasse")[0]) == (4, 10)
    assert fulltext.find("ß", fulltext.terms("ss")[0]) == (0, 1)


@pytest.mark.sqlite_only
def test_the_search_form_is_each_character_s_own_and_final() -> None:
    """The table is built from the ranges where NFKC or case folding changes something:
    every code point outside them must not change (else a newer Unicode moved one), no
    character folds to nothing (offsets rely on it), and folding twice is folding once."""

    def defined(ch: str) -> str:
        return scripts.fold(unicodedata.normalize("NFKC", ch).casefold())

    table = scripts._search_forms()
    for code in range(0x110000):
        if 0xD800 <= code < 0xE000:
            continue
        ch = chr(code)
        assert table.get(code, ch) == defined(ch), hex(code)
    assert all(form for form in table.values())
    assert all(scripts.search_form(form) == form for form in table.values())
    text = "Ａ①ﬁ⾏崗位ß𝐑😀e\u0301"
    assert scripts.search_form(text) == "".join(defined(ch) for ch in text)


# -- refusing what is not searched -------------------------------------------------------

TERMS = [f"w{n:02d}x" for n in range(1, 18)]  # 17 distinct terms, each a trigram


@pytest.fixture
def many(store: Store) -> Store:
    store.save(_transcript("all17", " ".join(TERMS)))
    return store


def test_sixteen_terms_are_searched_and_seventeen_refused(many: Store) -> None:
    assert [h.id for h in many.search(" ".join(TERMS[:16]))] == ["all17"]
    with pytest.raises(QueryTooLong) as refused:
        many.search(" ".join(TERMS))
    assert (refused.value.reason, refused.value.found, refused.value.most) == ("terms", 17, 16)
    # terms are counted as typed, after folding: the same term twice is one
    assert [h.id for h in many.search(" ".join([*TERMS[:16], "ｗ０１Ｘ"]))] == ["all17"]
    # naming a candidate by so many words: none named (the search refused, not run)
    assert many.resolve(" ".join(TERMS)).matches == []


def test_a_query_longer_than_512_characters_is_refused(many: Store) -> None:
    assert many.search("w01x " + "a" * 507) == []  # 512: searched
    with pytest.raises(QueryTooLong) as refused:
        many.search("w01x " + "a" * 508)
    assert (refused.value.reason, refused.value.found) == ("chars", 513)


@pytest.mark.sqlite_only
def test_the_refusal_crosses_the_search_workers(many: Store, db_target: str) -> None:
    """`serve` ranks in worker processes: the refusal comes back as itself, reason and
    all, and the worker goes on answering."""
    pool = SearchPool(db_target, workers=1).start()
    try:
        with pytest.raises(QueryTooLong) as refused:
            pool.search(" ".join(TERMS), 10, False, "relevance")
        assert (refused.value.reason, refused.value.found, refused.value.most) == ("terms", 17, 16)
        assert [h.id for h in pool.search("w17x", 10, False, "relevance")] == ["all17"]
    finally:
        pool.stop()


@pytest.mark.sqlite_only
@pytest.mark.parametrize(
    ("locale", "said"),
    [
        ("zh", "一次搜索最多 16 个词，这次有 17 个"),
        ("en", "A search takes at most 16 words and this one has 17"),
    ],
)
def test_the_command_line_refuses_with_the_reason(
    db_target: str, many: Store, locale: str, said: str
) -> None:
    result = CliRunner().invoke(
        cli, ["search", *TERMS, "--db", db_target], env={"DEBRIEF_LOCALE": locale}
    )
    assert result.exit_code == 2, result.output
    assert said in result.stderr and not result.stdout
    long = CliRunner().invoke(cli, ["search", "a" * 513, "--db", db_target])
    assert long.exit_code == 2 and "513" in long.stderr


@pytest.fixture(params=["zh", "en"])
def speaking(
    request: pytest.FixtureRequest, fake_slack: FakeSlack, db_target: str, tmp_path: Path
) -> Iterator[Bot]:
    bot = start_bot(fake_slack, db_target, uploads=str(tmp_path / "up"), locale=request.param)
    bot.store.save(_transcript("all17", " ".join(TERMS)))
    try:
        yield bot
    finally:
        bot.server.stop()


def test_candidate_search_answers_why_it_did_not_search(speaking: Bot) -> None:
    zh = speaking.settings.locale == "zh"
    word = "搜索" if zh else "search"
    assert speaking.command(f"{word} {' '.join(TERMS[:16])}", name="ok")[0] == 200
    [found] = speaking.replies("ok")
    assert "all17" in all_text(found)
    assert speaking.command(f"{word} {' '.join(TERMS)}", name="no")[0] == 200
    [refused] = speaking.replies("no")
    said = (
        "一次搜索最多 16 个词，这次有 17 个，所以没有搜索"
        if zh
        else "A search takes at most 16 words and this one has 17, so nothing was searched"
    )
    assert said in all_text(refused) and "all17" not in all_text(refused)


def test_app_home_search_answers_why_it_did_not_search(speaking: Bot) -> None:
    zh = speaking.settings.locale == "zh"
    home = open_home(speaking)
    click(speaking, home, "home_search")
    speaking.fake.wait_for("views.open")
    modal = speaking.fake.views[max(speaking.fake.views)]
    click(speaking, modal, "home_search_query", value=" ".join(TERMS))
    [updated] = speaking.fake.wait_for("views.update")
    assert updated.ok, updated.error
    text = json.dumps(speaking.fake.views[modal["id"]], ensure_ascii=False)
    assert (
        "这次有 17 个，所以没有搜索" if zh else "this one has 17, so nothing was searched"
    ) in text
