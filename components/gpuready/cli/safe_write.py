"""File outputs written whole or not at all: a temporary file beside the target, then one rename.

A full disk (ENOSPC), a file-size limit (EFBIG) or an I/O error while writing leaves the target as it was and no
temporary file behind; the error says so. (Writing in place would leave the target cut off at the failure, its
other lines gone.)
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path``'s content with ``text`` (UTF-8), keeping its permissions; ``OSError`` leaves it unchanged."""
    data = text.encode("utf-8")
    mode = stat.S_IMODE(path.stat().st_mode) if path.exists() else 0o644
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
