"""Light constants and paths of the app (no engine import: the first frame must not wait for it)."""

from __future__ import annotations

import os
from pathlib import Path

#: where `c1k play` autosaves and `c1k resume` looks by default
AUTOSAVE_NAME = "autosave.json"
LESSON_AUTOSAVE_NAME = "lesson-autosave.json"
FLOWS = ("stops", "auto", "full")
FLOW_TEXT = {
    "stops": "stops: you are asked at your stops, whenever your opponent put something on the stack or "
             "declared attackers, and at each declaration; elsewhere the app passes for you (public facts only)",
    "auto": "auto-pass: the app passes for you whenever pass (or attack none / block none) is all you can do",
    "full": "full control: you are asked at every decision, even when pass is all you can do",
}
FLOW_SHORT = {
    "stops": "stops: asked at your stops and when the opponent acts",
    "auto": "auto-pass when pass is all you can do (open hands)",
    "full": "full control: asked at every decision",
}
#: default stops: (own turn?, window). Declarations and responses to the opponent always stop.
#: default stops (Arena-like, public): your own main phase and the declaration windows. Besides these, a
#: player is always asked in a window where the opponent put something on the stack or declared attackers.
DEFAULT_STOPS = ("own:main.priority", "own:combat.declare_attackers", "own:combat.declare_blockers",
                 "opp:combat.declare_attackers", "opp:combat.declare_blockers")

ROOT = Path(__file__).resolve().parent.parent


def state_dir() -> Path:
    env = os.environ.get("C1K_HOME")
    if env:
        return Path(env)
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "c1k"


def default_autosave(lesson: bool = False) -> Path:
    return state_dir() / (LESSON_AUTOSAVE_NAME if lesson else AUTOSAVE_NAME)


def decks_dir() -> Path:
    return ROOT / "decks"


def lessons_dir() -> Path:
    return decks_dir() / "lessons"


def bundled_deck_names() -> list[str]:
    return sorted(p.stem for p in decks_dir().glob("*.toml"))


def stops_file() -> Path:
    return state_dir() / "stops.json"


def load_stops(name: str) -> list[str] | None:
    """A player's saved stops (by player name), or None."""
    import json

    try:
        data = json.loads(stops_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    got = data.get(name) if isinstance(data, dict) else None
    return [str(x) for x in got] if isinstance(got, list) else None


def save_stops(stops: dict[str, list[str]]) -> str:
    """Save stops by player name (merged into the file). Returns an error message, or ""."""
    import json

    path = stops_file()
    try:
        data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        if not isinstance(data, dict):
            data = {}
    except (OSError, ValueError):
        data = {}
    data.update({k: sorted(v) for k, v in stops.items()})
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    except OSError as err:
        return f"could not save the stops: {err}"
    return ""
