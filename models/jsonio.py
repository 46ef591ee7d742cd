"""Reading JSON files with errors that name the file."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .errors import DocumentError


def read_json(path: str | Path) -> Any:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DocumentError(str(path), "", "file not found") from None
    except OSError as exc:
        raise DocumentError(str(path), "", f"cannot read: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise DocumentError(str(path), "", "not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise DocumentError(str(path), "", f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None


def write_json(path: str | Path, document: Any) -> None:
    Path(path).write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
