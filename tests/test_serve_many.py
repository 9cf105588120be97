"""The real `debrief serve` installed in many workspaces: started as an operator starts
it, installed through its own pages by a browser, a workspace's transcripts folder
indexed into that workspace alone, answered over the real wire, stopped by SIGTERM.
SQLite and PostgreSQL."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.fake_oauth import CLIENT_ID, CLIENT_SECRET, Installer
from support.fake_slack import FakeSlack
from support.installed import COOKIE, REDIRECT, STATE_SECRET, TOKEN_KEY, get
from support.serve import ServeProcess
from support.signed import command_body, post_signed
from support.slackbot import SECRET, all_text
from support.waiting import wait_until

pytestmark = pytest.mark.both_backends

SEEDS = Path(__file__).resolve().parent.parent / "seeds"


@pytest.fixture
def served(
    fake_slack: FakeSlack, db_target: str, tmp_path: Path
) -> Iterator[tuple[ServeProcess, Path]]:
    fake_slack.oauth.redirect_urls = [REDIRECT]
    folder = tmp_path / "transcripts"
    folder.mkdir()
    process = ServeProcess(
        {
            "SLACK_CLIENT_ID": CLIENT_ID,
            "SLACK_CLIENT_SECRET": CLIENT_SECRET,
            "SLACK_STATE_SECRET": STATE_SECRET,
            "DEBRIEF_TOKEN_KEY": TOKEN_KEY,
            "SLACK_REDIRECT_URI": REDIRECT,
            "SLACK_SIGNING_SECRET": SECRET,
            "SLACK_API_URL": fake_slack.base_url,
            "DEBRIEF_DB": db_target,
            "DEBRIEF_TRANSCRIPTS": str(folder),
            "DEBRIEF_WATCH": "poll",
            "DEBRIEF_SEARCH_WORKERS": "0",
        }
    )
    try:
        wait_until("serve ready", lambda: (process.healthz() or (0, ""))[0] == 200, 90)
        yield process, folder
    finally:
        code = process.terminate()
        assert code == 0, process.log[-2000:]


def install(process: ServeProcess, fake: FakeSlack, installer: Installer) -> int:
    fake.oauth.next = installer
    page = get(process.url + "/slack/install")
    found = re.search(r'href="([^"]*oauth/v2/authorize[^"]*)"', page.body)
    assert page.status == 200 and found, page.body
    cookie = page.headers["set-cookie"].split(";", 1)[0]
    assert cookie.startswith(COOKIE)
    slack = get(found.group(1).replace("&amp;", "&"))
    back = slack.location.replace(REDIRECT, process.url + "/slack/oauth_redirect")
    return get(back, cookie).status


def ask(process: ServeProcess, fake: FakeSlack, team: str, text: str, name: str) -> str:
    body = command_body(text, team_id=team, response_url=fake.response_url(name))
    status, _h, answer = post_signed(process.url + "/slack/events", body, SECRET)
    assert status == 200
    fake.wait_for(f"response/{name}", timeout=20)
    return answer.decode() + "".join(all_text(r) for r in fake.responses(name))


def test_serve_installs_and_indexes_each_workspace_s_folder_into_it(
    served: tuple[ServeProcess, Path], fake_slack: FakeSlack
) -> None:
    process, folder = served
    assert install(process, fake_slack, Installer(team_id="T0002", team_name="Beta")) == 200
    assert install(process, fake_slack, Installer(team_id="T0003", team_name="Gamma")) == 200
    (folder / "T0002").mkdir()
    shutil.copy(SEEDS / "002_72ee0a76eea41e0e.txt", folder / "T0002")
    shutil.copy(SEEDS / "003_20561f43447eea49.txt", folder)  # at the root: no workspace's
    n = iter(range(10_000))
    wait_until(
        "T0002's transcript indexed into T0002",
        lambda: "神经网络模型设计师" in ask(process, fake_slack, "T0002", "002", f"b{next(n)}"),
        60,
    )
    gamma = ask(process, fake_slack, "T0003", "002", "gamma")
    assert "神经网络模型设计师" not in gamma
    root = ask(process, fake_slack, "T0002", "003", "root")
    assert "大数据开发工程师" not in root
    # a team that never installed it is refused
    assert "神经网络" not in ask(process, fake_slack, "T0099", "002", "stranger")
