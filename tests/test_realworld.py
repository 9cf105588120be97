"""Real files other people keep (issue 46), read from ../shared/realworld/ when that
folder is there; skipped when it is not. They are other people's data: nothing of them
is copied here, only what the reader must make of each, file by file.

What the reader decides of each written file (Markdown, text, Word): the files that
are no interview record (the README's not_interview, questions_with_reference_answers,
prep_notes) are refused with a reason naming what they are; the interview records are
read, as many interviews as they hold, with the rounds their headings name. The meeting
recordings (.vtt, the Otter export) are the meeting reader's, checked where it is."""

from __future__ import annotations

import pytest
from support.realworld import REALWORLD

from store.transcripts.errors import NotATranscript
from store.transcripts.reader import read_interviews

FOLDER = REALWORLD

# file -> the code of the reason it is refused for (README category in the comment)
REFUSED = {
    "cn09_fungaika_dates.md": "dates_list",  # not_interview: dates, companies, rounds
    "cn10_kuaishou_liangjing.md": "study_notes",  # questions_with_reference_answers
    "cn13_hejiawei_notes.docx": "own_notes",  # prep_notes: knowledge points, code
    "cn16_wangxiaopeng_prep.md": "question_bank",  # prep_notes: résumé questions, 参考答案
    "cn18_founder_asr.txt": "speech_to_text",  # not_interview: speech to text, no one asked
}
# file -> the rounds of the interviews it holds, in file order (None: no round named)
READ = {
    "cn01_lancerle_kumar.md": ["一面"],
    "cn03_byc_bytedance_frontend.md": ["一面"],
    "cn05_wj_dingding_frontend.md": ["一面"],
    "cn06_choconana_records.md": ["电面", None, "一面", "二面", "三面", None, None, None],
    "cn08_weihngo_records.md": ["一面"],
    "cn14_elliott_zju_interviews.md": ["第一轮", "第一轮", "第二轮"],
    "en01_grinnell_user_interview.md": [None, None, None],  # three participants
    "en03_excel_ai_mock.md": ["Transcript 1", "Transcript 2", "Transcript 3"],
}

needs_folder = pytest.mark.skipif(
    not FOLDER.is_dir(), reason="../shared/realworld/ is not here (other people's files)"
)


@needs_folder
@pytest.mark.parametrize("name", sorted(REFUSED))
def test_what_is_no_interview_record_is_refused_by_name(name: str) -> None:
    with pytest.raises(NotATranscript) as info:
        read_interviews((FOLDER / name).read_bytes(), name)
    assert info.value.code == REFUSED[name]


@needs_folder
@pytest.mark.parametrize("name", sorted(READ))
def test_interview_records_are_read_interview_by_interview(name: str) -> None:
    found = read_interviews((FOLDER / name).read_bytes(), name, f"realworld/{name}")
    stem = name.rsplit(".", 1)[0]
    ids = [stem] + [f"{stem}-{k}" for k in range(2, len(found) + 1)]
    assert [t.id for t in found] == ids
    assert [t.round for t in found] == READ[name]
    for one in found:
        assert one.body.strip(), one.id
        assert one.source == f"realworld/{name}"
        assert one.questions_read == bool(one.questions), one.id  # unread: none shown


@needs_folder
def test_front_matter_and_first_lines_are_no_summary() -> None:
    """Of the records read, only cn01 states a summary (its `## 总结`)."""
    summaries = {
        name: [t.summary for t in read_interviews((FOLDER / name).read_bytes(), name)]
        for name in READ
    }
    assert summaries["cn01_lancerle_kumar.md"][0].startswith("个人感觉面的效果还可以")
    assert all(
        s == "" for name, got in summaries.items() if name != "cn01_lancerle_kumar.md" for s in got
    )


@needs_folder
def test_every_file_of_the_folder_is_named_here() -> None:
    written = {
        p.name
        for p in FOLDER.iterdir()
        if p.suffix in (".md", ".txt", ".docx")
        and p.name != "README.md"
        and not p.name.startswith("mt")
    }
    assert written == set(REFUSED) | set(READ)
