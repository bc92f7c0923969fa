"""The Lab (placeholder)."""

from __future__ import annotations

from typing import Any


def open_lab(app: Any) -> None:
    app.show_start("the Lab is not built yet")
