"""Files and folders that hold personal data (the database, its backups, uploaded
transcripts): created readable by their owner alone, whatever the process's umask.

Outside systemd (whose unit sets `UMask=0077`) a process usually runs with umask 022,
and a file it creates is readable by every user of the machine. Here a new file is
created 0600 and a new folder 0700; what already exists is left as it is (`debrief
doctor` warns about a database or uploads folder that others can read).

SQLite creates its `-wal`, `-shm` and `-journal` files with the permissions of the
database file itself, so a database created here keeps those private too.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

FILE_MODE = 0o600
DIR_MODE = 0o700


def private_dir(path: str | Path) -> Path:
    """`path` as a folder, each missing level of it created 0700; existing ones untouched."""
    folder = Path(path)
    missing: list[Path] = []
    while not folder.exists() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    for level in reversed(missing):
        try:
            level.mkdir(mode=DIR_MODE)
        except FileExistsError:
            continue  # made meanwhile by someone else: theirs to decide
        os.chmod(level, DIR_MODE)  # the umask may have taken bits away; none are added
    return Path(path)


def private_file(path: str | Path) -> bool:
    """Create `path` empty and 0600 if it does not exist; True when it was created here.
    Its folder must exist."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    except FileExistsError:
        return False
    try:
        os.fchmod(fd, FILE_MODE)
    finally:
        os.close(fd)
    return True


def others_can_read(path: str | Path) -> bool:
    """Whether users other than the owner (its group, everyone) may read `path`."""
    return bool(os.stat(path).st_mode & (stat.S_IRGRP | stat.S_IROTH))
