"""Where the bundled data lives (inside the installed `instances` package)."""
from __future__ import annotations

from pathlib import Path

import instances

INSTANCES = Path(instances.__file__).resolve().parent
MACHINES_DIR = INSTANCES / "machines"
BOARDS_DIR = INSTANCES / "boards"
EXAMPLES_DIR = INSTANCES / "examples"
