"""Every message the command line prints follows DEBRIEF_LOCALE: its errors (`错误：…` or
`Error: …`, one line on stderr), naming the thing to fix, through `debrief` (the CLI
in-process, as a process would print it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.cli import Ran
from support.cli import debrief as run_debrief

SEEDS = Path(__file__).resolve().parent.parent / "seeds"


def debrief(*args: str, cwd: Path | None = None, **env: str) -> Ran:
    return run_debrief(*args, env=env, cwd=cwd)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("said") / "d.db"
    done = debrief("index", str(SEEDS), DEBRIEF_DB=str(path))
    assert done.returncode == 0, done.stderr
    return path


def one_line(done: Ran) -> str:
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


@pytest.mark.parametrize(
    ("args", "code", "zh", "en"),
    [
        (["search", ""], 2, "错误：请写上要搜索的词", "Error: say what to search for"),
        (["search", "\u3000 "], 2, "错误：请写上要搜索的词", "Error: say what to search for"),
        (["show", "nobody"], 1, "错误：没有与“nobody”匹配的候选人", "Error: no candidate matches"),
        (["show", "0"], 1, "错误：有 4 位候选人与“0”匹配", "Error: 4 candidates match '0'"),
        (["audit", "--since", "xx"], 2, "错误：--since “xx” 不是时间", "Error: --since 'xx' is"),
        (
            ["forget", "nobody"],
            None,
            "错误：没有编号为“nobody”的候选人",
            "Error: no candidate 'nobody'",
        ),
        (
            ["forget", "nobody", "--restore"],
            None,
            "错误：nobody 没有被忘记",
            "Error: nobody is not",
        ),
        (["digest"], 2, "错误：请写 --post 或 --dry-run", "Error: say --post or --dry-run"),
        (["ask", "/help me"], 1, "错误：没有 /help 这个命令", "Error: unknown command /help"),
        (
            ["migrate-db", "--to", "sqlite:///x"],
            2,
            "错误：--to 应为 postgresql://",
            "Error: --to must",
        ),
    ],
)
def test_errors_are_said_in_the_locale(
    db: Path, args: list[str], code: int | None, zh: str, en: str
) -> None:
    chinese = debrief(*args, DEBRIEF_DB=str(db))
    assert chinese.returncode == code if code is not None else chinese.returncode in (1, 2)
    assert "Traceback" not in chinese.stderr and chinese.stdout == ""
    assert chinese.stderr.startswith(zh), chinese.stderr
    english = debrief(*args, DEBRIEF_DB=str(db), DEBRIEF_LOCALE="en")
    assert english.returncode == chinese.returncode
    assert english.stderr.startswith(en), english.stderr


def test_no_database_names_the_file_with_its_folder(tmp_path: Path) -> None:
    zh = debrief("list", cwd=tmp_path)
    assert zh.returncode == 2
    path = tmp_path / "debrief.db"
    assert one_line(zh) == f"错误：{path} 没有数据库：先运行 debrief index，或设置 DEBRIEF_DB"
    en = debrief("list", cwd=tmp_path, DEBRIEF_LOCALE="en")
    assert one_line(en) == f"Error: no database at {path}: run 'debrief index' or set DEBRIEF_DB"
    assert list(tmp_path.iterdir()) == []


def test_a_bad_setting_is_said_in_the_locale(db: Path) -> None:
    zh = debrief("list", DEBRIEF_DB=str(db), DEBRIEF_ALLOWED_USERS="alice")
    assert zh.returncode == 2
    assert one_line(zh).startswith("错误：DEBRIEF_ALLOWED_USERS：'alice' 不是 ID")
    en = debrief("list", DEBRIEF_DB=str(db), DEBRIEF_ALLOWED_USERS="alice", DEBRIEF_LOCALE="en")
    assert one_line(en).startswith("Error: DEBRIEF_ALLOWED_USERS: 'alice' is not an ID")
    # a locale that is not one: said in Chinese, the default, with the values it takes
    bad = debrief("list", DEBRIEF_DB=str(db), DEBRIEF_LOCALE="fr")
    assert one_line(bad) == "错误：DEBRIEF_LOCALE：只能是 zh / en 之一"
    late = debrief("list", DEBRIEF_DB=str(db), DEBRIEF_DIGEST_TIME="25:00", DEBRIEF_LOCALE="en")
    assert one_line(late) == "Error: DEBRIEF_DIGEST_TIME: must be HH:MM, for example 09:30"


def test_a_search_line_says_what_matched_not_a_score(db: Path) -> None:
    zh = debrief("search", "分布式", DEBRIEF_DB=str(db))
    assert zh.returncode == 0
    assert "(0." not in zh.stdout and "(1." not in zh.stdout
    assert "匹配：分布式" in zh.stdout
    en = debrief("search", "分布式", DEBRIEF_DB=str(db), DEBRIEF_LOCALE="en")
    assert "matched: 分布式" in en.stdout


def test_help_names_what_the_options_take() -> None:
    index = debrief("index", "--help").stdout
    assert "postgresql://" in index and "SQLite database (default" not in index
    audit = debrief("audit", "--help").stdout
    assert "today" in audit and "30m" in audit


def test_every_reason_has_words_in_both_languages() -> None:
    from handlers.i18n import has, reason_text
    from store.transcripts import errors

    codes = set(errors._CODES.values()) | {
        "too_large",
        "question_number",
        "id_taken",
        "unstorable",
        "media",
    }
    for code in codes:
        key = code if code.startswith("os_") else f"why_{code}"
        assert has(key), code
    for english, code in errors._CODES.items():
        zh = reason_text("zh", english)
        assert zh != english and not zh.startswith("无法读取。系统报告"), (code, zh)


def test_index_lines_say_why_and_what_to_do_in_the_locale(tmp_path: Path) -> None:
    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "bin.txt").write_bytes("岗位：后端\n问题1：x\n\x00回答".encode())
    (folder / "README.md").write_text("# notes\n", "utf-8")
    (folder / "old.doc").write_bytes(
        b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + "WordDocument".encode("utf-16-le") + bytes(64)
    )
    db = str(tmp_path / "d.db")
    zh = debrief("index", str(folder), "/nonexistent", DEBRIEF_DB=db)
    assert zh.returncode == 1
    assert f"失败：{folder / 'bin.txt'}:3：二进制文件，不是文本（含 NUL 字节）：" in zh.stderr
    assert "请另存为 .docx、.txt 或 .md" in zh.stderr
    assert "失败：/nonexistent：没有这个文件或文件夹" in zh.stderr
    assert f"跳过：{folder / 'old.doc'}：旧版 Word 文件（.doc）：请另存为 .docx" in zh.stderr
    assert f"跳过：{folder / 'README.md'}：没有“岗位”“问题N”“点评”这些标签" in zh.stderr
    for english in ("binary file", "no such file", "save it as", "none of the labels"):
        assert english not in zh.stderr, english
    en = debrief("index", str(folder), "/nonexistent", DEBRIEF_DB=db, DEBRIEF_LOCALE="en")
    assert "failed: /nonexistent: no such file or directory" in en.stderr
    assert "binary file, not text (a NUL byte): if it is a transcript, save it as" in en.stderr
    # --json keeps the English reasons as they were
    as_json = debrief("index", str(folder), "--json", DEBRIEF_DB=db)
    assert '"error": "binary file, not text (NUL byte)"' in as_json.stdout
    assert '"reason": "an old Word file (.doc): save it as .docx"' in as_json.stdout


def test_doctor_says_the_database_and_the_first_failing_file_in_the_locale(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "bin.txt").write_bytes("岗位：后端\n问题1：x\n\x00回答".encode())
    missing = tmp_path / "none.db"
    env = {"DEBRIEF_DB": str(missing), "DEBRIEF_TRANSCRIPTS": str(folder)}
    zh = debrief("doctor", **env)
    assert zh.returncode == 1 and "Traceback" not in zh.stderr
    assert f"{missing} 没有数据库" in zh.stdout
    assert "二进制文件，不是文本（含 NUL 字节）" in zh.stdout
    assert "no database" not in zh.stdout and "binary file" not in zh.stdout
    en = debrief("doctor", DEBRIEF_LOCALE="en", **env)
    assert f"no database at {missing}" in en.stdout
    assert "binary file, not text (a NUL byte)" in en.stdout
