"""A throwaway PostgreSQL server from the machine's own installation, for tests.

`start()` runs `initdb` into a temporary folder and `pg_ctl start` on a free local port
(its unix socket in that folder too), creates a database and returns its URL; `stop()`
stops the server and removes the folder. `initdb` and `pg_ctl` refuse to run as root:
as root they run as the `postgres` user. `.ci/run` does the same in shell.

`find_bin()` is None where no PostgreSQL binaries exist: the PostgreSQL half of the
tests is then skipped, and says so.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .servers import free_port


def find_bin() -> Path | None:
    """The folder holding initdb and pg_ctl: $PG_BIN, then PATH, then Debian's layout."""
    candidates = [os.environ.get("PG_BIN", "")]
    on_path = shutil.which("pg_ctl")
    if on_path:
        candidates.append(str(Path(on_path).resolve().parent))
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    for folder in candidates:
        if folder and (Path(folder) / "initdb").is_file() and (Path(folder) / "pg_ctl").is_file():
            return Path(folder)
    return None


@dataclass
class Server:
    bin: Path
    root: Path
    port: int
    user: str | None  # who runs the server (None: this user)
    url: str = ""

    def _run(self, *args: str) -> None:
        cmd = list(args)
        if self.user:
            cmd = ["runuser", "-u", self.user, "--", *cmd]
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(args[:2])} failed: {done.stderr or done.stdout}")

    def stop(self) -> None:
        if (self.root / "data" / "postmaster.pid").exists():
            self._run(
                str(self.bin / "pg_ctl"), "-D", str(self.root / "data"), "-m", "fast", "-w", "stop"
            )
        shutil.rmtree(self.root, ignore_errors=True)


def start(dbname: str = "debrief") -> Server:
    """Start a server and create `dbname`; the returned Server's `url` points at it."""
    folder = find_bin()
    if folder is None:
        raise RuntimeError("no PostgreSQL binaries (initdb, pg_ctl) on this machine")
    root = Path(tempfile.mkdtemp(prefix="debrief-pg-"))
    user = None
    if os.geteuid() == 0:
        user = "postgres"
        pw = pwd.getpwnam(user)
        os.chown(root, pw.pw_uid, pw.pw_gid)
    server = Server(folder, root, free_port(), user)
    data = root / "data"
    server._run(
        str(folder / "initdb"),
        "-D",
        str(data),
        "-U",
        "postgres",
        "-A",
        "trust",
        "-E",
        "UTF8",
        "--locale=C.UTF-8",
    )
    opts = (
        f"-p {server.port} -k {root} -c listen_addresses='' -c fsync=off"
        " -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
    )
    try:
        server._run(
            str(folder / "pg_ctl"),
            "-D",
            str(data),
            "-l",
            str(root / "log"),
            "-o",
            opts,
            "-w",
            "start",
        )
        server._run(
            str(folder / "createdb"),
            "-h",
            str(root),
            "-p",
            str(server.port),
            "-U",
            "postgres",
            dbname,
        )
    except BaseException:
        server.stop()
        raise
    server.url = f"postgresql://postgres@/{dbname}?host={root}&port={server.port}"
    return server
