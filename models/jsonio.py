"""Reading JSON files with errors that name the file.

Every JSON reader of the project (layouts, games, catalogues, boards, --fixed,
--hint, --machines-file) goes through `read_json`, so a malformed file fails
the same way everywhere: one DocumentError naming the file, never a traceback
and never a silent guess (duplicate keys, NaN, nesting deep enough to blow
Python's stack).
"""
from __future__ import annotations

import io
import json
import os
import stat
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

from .errors import DocumentError


class _JsonProblem(Exception):
    """Raised from inside the decoder's hooks; read_json turns it into a DocumentError."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """object_pairs_hook: a key given twice is an error, not "the last one wins"."""
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise _JsonProblem(f"key {json.dumps(key, ensure_ascii=False)} given twice in one object")
        obj[key] = value
    return obj


def _no_constants(name: str) -> Any:
    """parse_constant: NaN and Infinity are not JSON numbers (Python accepts them by default)."""
    raise _JsonProblem(f"{name} is not a JSON number")


#: no document of the project comes near this (a 10-round plan on a 40 x 40 board: well under a megabyte); reading
#: stops here, so a file that never ends (QA: `check /dev/zero` ended in a MemoryError, /dev/urandom grew to 24 GB)
#: is refused in a line
MAX_BYTES = 64 * 1024 * 1024


def read_text(path: str | Path) -> str:
    """A file's UTF-8 text, or a DocumentError naming the file."""
    path = Path(path)
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            raise DocumentError(str(path), "", f"larger than {MAX_BYTES // 2 ** 20} MiB: not a factoryfun document")
        return data.decode("utf-8-sig")   # (a byte-order mark, as Windows editors write, is no text)
    except FileNotFoundError:
        raise DocumentError(str(path), "", "file not found") from None
    except IsADirectoryError:
        raise DocumentError(str(path), "", "is a directory, not a file") from None
    except OSError as exc:
        raise DocumentError(str(path), "", f"cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise DocumentError(str(path), "", f"not UTF-8 text (byte {exc.start})") from None


def parse_json(text: str, source: str) -> Any:
    """Decode `text` strictly; every failure is one DocumentError naming `source`."""
    try:
        return json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_no_constants)
    except json.JSONDecodeError as exc:
        # (Python's hint for a second byte-order mark, "decode using utf-8-sig", means nothing to a user)
        why = "a stray byte-order mark" if exc.msg.startswith("Unexpected UTF-8 BOM") else exc.msg
        raise DocumentError(source, "", f"invalid JSON at line {exc.lineno} column {exc.colno}: {why}") from None
    except _JsonProblem as exc:
        raise DocumentError(source, "", f"invalid JSON: {exc}") from None
    except RecursionError:
        raise DocumentError(source, "", "JSON nested too deeply") from None
    except ValueError:  # an integer with more digits than Python converts (its message names sys.set_int_max...)
        raise DocumentError(source, "", "invalid JSON: a number with too many digits") from None


def read_json(path: str | Path) -> Any:
    """The one JSON file reader: errors name the file (see the module docstring)."""
    return parse_json(read_text(path), str(path))


def write_text(path: str | Path, text: str) -> bool:
    """Write a file the user named; a failure is one DocumentError naming it. Output options check their
    path when they are read, but a disk can fill or a directory go while a solve runs (QA: a traceback,
    and the result lost, for `--out /dev/full`). False where the file is standard output or error and that
    stream could not take it (its reader gone, its disk full): the command's exit says so (models/terminal.py)."""
    try:
        return _write_whole(Path(path), text)
    except (OSError, RuntimeError) as exc:   # (RuntimeError: Python's "Symlink loop", made since the option was read)
        raise DocumentError(str(path), "", f"cannot write: {exc.strerror or exc}") from None


def write_and_say(path: str | Path, text: str, say: Callable[[str], None]) -> None:
    """`write_text`, then "wrote PATH" if the text went there (QA: "wrote /dev/stdout" where it went nowhere)."""
    if write_text(path, text):
        say(f"wrote {path}")


def _write_whole(path: Path, text: str) -> bool:
    """`text` into a new file beside the target, renamed over it once whole: a write that fails (a full disk, a
    kill) leaves the file that was there as it was, where writing in place left it cut short. A link is written
    through to its target. Where a new file cannot stand for the old one, in place: a FIFO or device (its reader
    waits on that very file), a file with other names, another user's, one whose group this user cannot give a
    new file, a directory this user may not add to; and the file standard output or error goes to through that stream (`--out /dev/stdout`, into a pipe
    or `> run.log`: QA saw the pipe's name unresolvable and the printed output emptied)."""
    try:
        status: os.stat_result | None = path.stat()
    except FileNotFoundError:
        status = None
    stream = _standard_stream(status)
    if stream is not None:
        return _through(stream, text if text.endswith("\n") else text + "\n")
    if status is not None and (not stat.S_ISREG(status.st_mode) or status.st_nlink > 1
                               or status.st_uid != os.getuid()):
        path.write_text(text, encoding="utf-8")
        return True
    target = path.resolve()   # (a regular file, or none yet: a link to either is written through)
    try:
        handle, part = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    except OSError:
        target.write_text(text, encoding="utf-8")
        return True
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        if status is not None:   # its group and mode (not set-id bits, which a write clears: QA saw one kept)
            if status.st_gid != os.stat(part).st_gid:
                os.chown(part, -1, status.st_gid)
            os.chmod(part, stat.S_IMODE(status.st_mode) & ~(stat.S_ISUID | stat.S_ISGID))
        else:
            os.chmod(part, 0o666 & ~_umask())
        os.replace(part, target)
    except PermissionError:   # (a group this user is not in: the file keeps its group, written in place)
        Path(part).unlink(missing_ok=True)
        target.write_text(text, encoding="utf-8")
    except BaseException:
        Path(part).unlink(missing_ok=True)
        raise
    return True


def _through(stream: Any, text: str) -> bool:
    """`text` down standard output or error itself, after what was printed, in UTF-8 whatever the terminal's
    encoding (QA pass 44: Latin-1 made the file invalid UTF-8), every byte of it or a failure the stream records
    (QA pass 46: a write the system cut short said "wrote" and exited 0); False where it could not go."""
    if getattr(stream, "failure", None) is not None:   # (already gone or full: nothing more goes there)
        return False
    try:
        stream.flush()
        descriptor = stream.fileno()
    except (OSError, ValueError, io.UnsupportedOperation) as failure:
        if isinstance(failure, OSError) and hasattr(stream, "record_failure"):
            stream.record_failure(failure)
            return False
        stream.write(text)   # (a stream with no descriptor of its own: a test's)
        stream.flush()
        return True
    data = memoryview(text.encode("utf-8"))
    try:
        while data:
            data = data[os.write(descriptor, data):]
    except OSError as failure:
        if not hasattr(stream, "record_failure"):
            raise
        stream.record_failure(failure)   # (the command's exit says it: 141 for a reader gone, 2 for a full disk)
        return False
    return True


def _standard_stream(status: os.stat_result | None) -> Any:
    """sys.stdout or sys.stderr where the file is where that stream goes, else None."""
    if status is None:
        return None
    for descriptor, stream in ((1, sys.stdout), (2, sys.stderr)):
        try:
            opened = os.fstat(descriptor)
        except OSError:
            continue
        if (opened.st_dev, opened.st_ino) == (status.st_dev, status.st_ino):
            return stream
    return None


def _umask() -> int:
    """The process's umask (reading it means setting it): the mode a file written in place would have had."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def json_text(document: Any) -> str:
    """How every document is printed and written: indented, one trailing newline."""
    return json.dumps(document, indent=2) + "\n"


def write_json(path: str | Path, document: Any) -> None:
    write_text(path, json_text(document))


def refuse_boards_file(source: str, document: Any, wanted: str) -> None:
    """A boards file (a puzzle file too: a boards file with its question) given where `wanted` belongs."""
    if isinstance(document, dict) and "boards" in document and "board" not in document and "puzzle" in document:
        raise DocumentError(source, "puzzle", f"a puzzle file, not {wanted}; `factoryfun puzzle solve` solves it, "
                            "`puzzle check PUZZLE ANSWER` checks an answer")
    if isinstance(document, dict) and "boards" in document and "board" not in document:
        raise DocumentError(source, "boards", f"a boards file, not {wanted}; commands read it as --boards FILE")


def refuse_catalogue(source: str, document: Any, wanted: str) -> None:
    """A machine catalogue given where `wanted` belongs (QA: `puzzle solve catalog.json` said "machines: unknown
    key")."""
    if (isinstance(document, dict) and "board" not in document and isinstance(document.get("machines"), list)
            and any(isinstance(m, dict) and "ports" in m for m in document["machines"])):
        raise DocumentError(source, "machines", f"a machine catalogue, not {wanted}; commands read it as --catalog FILE")


def refuse_play_document(source: str, document: Any, wanted: str) -> None:
    """A layout or a game document given where `wanted` (a machine catalogue, a boards file) belongs: named so
    (QA: a plan passed as --catalog said "board: unknown key")."""
    if not isinstance(document, dict) or "board" not in document:
        return
    if "rounds" in document:
        raise DocumentError(source, "rounds", f"a game document (rounds), not {wanted}")
    if "machines" in document or "tiles" in document:
        raise DocumentError(source, "board", f"a layout (a board's machines and tiles), not {wanted}")
