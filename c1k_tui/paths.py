"""Light constants and paths of the app (no engine import: the first frame must not wait for it)."""

from __future__ import annotations

import os
from pathlib import Path

#: where `c1k play` autosaves and `c1k resume` looks by default
AUTOSAVE_NAME = "autosave.json"
LESSON_AUTOSAVE_NAME = "lesson-autosave.json"
FLOWS = ("stops", "auto", "full")
FLOW_TEXT = {
    "stops": "auto-pass + stops: the app passes for you when pass is your only legal action, and also in "
             "windows that are not one of your stops while nothing of your opponent's waits on the stack",
    "auto": "auto-pass: the app passes for you only when pass (or attack none / block none) is your only "
            "legal action",
    "full": "full control: you are asked at every decision, even when pass is all you can do",
}
#: default stops: (own turn?, window). Declarations and responses to the opponent always stop.
DEFAULT_STOPS = ("own:main.priority", "own:combat.declare_blockers",
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
