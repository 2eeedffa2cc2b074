"""Reading the text files people hand the program (card files, replays): the one place where every way a file can
be unusable becomes one sentence naming the file, the line where there is one, and what to do."""

from __future__ import annotations

import stat
from pathlib import Path


class FileProblem(ValueError):
    """A file that cannot be read as text; the message names it and says what is wrong."""


def read_text(path: Path | str, *, what: str, max_bytes: int) -> str:
    """The UTF-8 text of a regular file of at most ``max_bytes`` (a byte-order mark is dropped); ``what`` names
    the kind of file in messages ("card file", "replay")."""
    return decode_text(read_bytes(path, what=what, max_bytes=max_bytes), name=str(path), what=what,
                       max_bytes=max_bytes)


def read_bytes(path: Path | str, *, what: str, max_bytes: int) -> bytes:
    """The bytes of a regular file, at most ``max_bytes`` + 1 of them (so that :func:`decode_text` can say it is
    too big); every way the file cannot be read is a :class:`FileProblem`."""
    path = Path(path)
    try:
        mode = path.stat().st_mode
        if stat.S_ISDIR(mode):
            raise FileProblem(f"{path} is a folder, not a {what}")
        if not stat.S_ISREG(mode):
            # A pipe or a device could block for ever or never end.
            raise FileProblem(f"{path} is not a regular file; give a {what} saved on disk")
        with path.open("rb") as handle:
            return handle.read(max_bytes + 1)
    except FileNotFoundError:
        raise FileProblem(f"cannot read {path}: no such file") from None
    except PermissionError:
        raise FileProblem(f"cannot read {path}: permission denied") from None
    except OSError as exc:
        raise FileProblem(f"cannot read {path}: {exc.strerror or exc}") from None


def decode_text(data: bytes, *, name: str, what: str, max_bytes: int) -> str:
    """The UTF-8 text of a file's bytes (a file read from disk, or an upload), by the same rules as
    :func:`read_text`; ``name`` names the file in messages."""
    if len(data) > max_bytes:
        raise FileProblem(f"{name} is larger than {max_bytes:,} bytes, far more than any {what}; is it the right "
                          "file?")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise FileProblem(f"{name}:{line}: not UTF-8 text (byte 0x{data[exc.start]:02x} at column {column}); "
                          f"save the {what} as UTF-8") from None
