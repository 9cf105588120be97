"""The real `debrief serve` as a child process (HTTP mode on loopback), its output read
line by line as it comes, for tests that need the process itself: its start, its log,
SIGTERM, a restart."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import urllib.error
import urllib.request

from .servers import free_port


class ServeProcess:
    """`debrief serve --port P` with the test's environment only: nothing of the
    caller's SLACK_* or DEBRIEF_* settings leaks in."""

    def __init__(self, env: dict[str, str]) -> None:
        self.port = free_port()
        kept = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "DEBRIEF_"))}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bot", "serve", "--port", str(self.port), "--host", "127.0.0.1"],
            env=kept | env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def healthz(self) -> tuple[int, str] | None:
        """(status, body) of GET /healthz; None while nothing answers."""
        try:
            with urllib.request.urlopen(f"{self.url}/healthz", timeout=3) as r:
                return int(r.status), r.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode()
        except OSError:
            return None

    def terminate(self) -> int:
        """SIGTERM (unless it stopped by itself), then its exit code once it ended."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        code = self.proc.wait(timeout=60)
        self._reader.join(timeout=10)
        return code

    @property
    def log(self) -> str:
        return "\n".join(self.lines)
