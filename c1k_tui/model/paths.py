"""Light constants and paths of the app (no engine import: the first frame must not wait for it)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from c1k_tui.model.settings import FLOWS as FLOWS  # (re-exported: the flow modes)

#: where `c1k play` autosaves and `c1k resume` looks by default
AUTOSAVE_NAME = "autosave.json"
LESSON_AUTOSAVE_NAME = "lesson-autosave.json"
FLOW_TEXT = {
    "stops": "stops: you are asked at your stops, whenever your opponent put something on the stack or "
             "declared attackers, and at each declaration; elsewhere the app passes for you (public facts only)",
    "learning": "learning: asked as with stops, and every window is shown as it is entered — its id, its rule id "
                "and what happened in it, the turn-based windows with no decision included; the windows passed "
                "through step by on the phase bar (public facts only)",
    "auto": "auto-pass: the app passes for you whenever pass (or attack none / block none) is all you can do",
    "full": "full control: you are asked at every decision, even when pass is all you can do",
}
FLOW_SHORT = {
    "stops": "stops: asked at your stops and when the opponent acts",
    "learning": "learning: as stops, and every window shown as it is entered",
    "auto": "auto-pass when pass is all you can do (open hands)",
    "full": "full control: asked at every decision",
}
#: default stops: (own turn?, window). Declarations and responses to the opponent always stop.
#: default stops (Arena-like, public): your own main phase and the declaration windows. Besides these, a
#: player is always asked in a window where the opponent put something on the stack or declared attackers.
DEFAULT_STOPS = ("own:main.priority", "own:combat.declare_attackers", "own:combat.declare_blockers",
                 "opp:combat.declare_attackers", "opp:combat.declare_blockers")

ROOT = Path(__file__).resolve().parent.parent.parent


def _home() -> Path | None:
    """$C1K_HOME: every file of the app in this one folder (tests, portable installs)."""
    env = os.environ.get("C1K_HOME")
    return Path(env) if env else None


def legacy_dir() -> Path:
    """Where the first versions kept everything (player options and lesson progress too)."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "c1k"


def state_dir() -> Path:
    """The autosaves (platformdirs' user state folder: ~/.local/state/c1k on Linux)."""
    home = _home()
    if home is not None:
        return home
    import platformdirs

    return platformdirs.user_state_path("c1k", appauthor=False)


def config_dir() -> Path:
    """Each player's options, players.json (the user config folder: ~/.config/c1k on Linux)."""
    home = _home()
    if home is not None:
        return home
    import platformdirs

    return platformdirs.user_config_path("c1k", appauthor=False)


def data_dir() -> Path:
    """Lesson progress, lessons.json (the user data folder: ~/.local/share/c1k on Linux)."""
    home = _home()
    if home is not None:
        return home
    import platformdirs

    return platformdirs.user_data_path("c1k", appauthor=False)


def moved_in(path: Path) -> Path:
    """`path`, after moving a file of the same name from the first versions' folder if it is only there
    (once: the first run that looks for it). A move that fails leaves the old file where it was, and
    it is read from there."""
    if _home() is not None or path.exists():
        return path
    old = legacy_dir() / path.name
    try:
        if old.is_file() and old.resolve() != path.resolve():
            import shutil

            path.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(str(old), str(path))
    except OSError:
        return old
    return path


def default_autosave(lesson: bool = False) -> Path:
    return moved_in(state_dir() / (LESSON_AUTOSAVE_NAME if lesson else AUTOSAVE_NAME))


#: lesson progress, in data_dir() (c1k_tui/model/lessons.py)
PROGRESS_NAME = "lessons.json"


@dataclass(frozen=True)
class Location:
    """One place where c1k keeps a user's files (`c1k paths`)."""

    name: str          # config, data, state, …: a word a script can match
    path: Path
    what: str          # what is kept there, for people


def locations() -> list[Location]:
    """Where this c1k keeps a user's files, as `c1k paths` prints them: the three folders, the files in
    them, and $C1K_HOME when it is set (then it is all three). Nothing is created or moved."""
    rows = []
    home = _home()
    if home is not None:
        rows.append(Location("C1K_HOME", home, "$C1K_HOME: every file below is in this one folder"))
    rows += [
        Location("config", config_dir(), "the configuration folder"),
        Location("players", config_dir() / PREFS_NAME, "each player's options: stops, pace, quick play"),
        Location("data", data_dir(), "the data folder"),
        Location("lessons", data_dir() / PROGRESS_NAME, "lesson progress: the lessons completed"),
        Location("state", state_dir(), "the state folder"),
        Location("autosave", state_dir() / AUTOSAVE_NAME, "the match autosave (`c1k resume` reads it)"),
        Location("lesson-autosave", state_dir() / LESSON_AUTOSAVE_NAME, "the lesson being played"),
    ]
    return rows


def decks_dir() -> Path:
    return ROOT / "decks"


def lessons_dir() -> Path:
    return decks_dir() / "lessons"


def bundled_deck_names() -> list[str]:
    return sorted(p.stem for p in decks_dir().glob("*.toml"))


PREFS_NAME = "players.json"
#: the file of the first version, stops only ({name: [stops]}): still read, never written
LEGACY_STOPS_NAME = "stops.json"
PACES = (0, 150, 400)
#: the learning flow steps through passed windows at this pace when the player's own pace is off
LEARNING_PACE_MS = 150


@dataclass
class PlayerPrefs:
    """A player's own options, saved by player name in players.json (`config_dir()`): where they stop, how fast passed windows
    step by, and whether 1…9 play at once."""

    stops: list[str] | None = None      # None: the default stops
    pace_ms: int = 0
    quick_play: bool = False

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"pace_ms": self.pace_ms, "quick_play": self.quick_play}
        if self.stops is not None:
            out["stops"] = sorted(self.stops)
        return out

    @staticmethod
    def from_dict(d: Any) -> PlayerPrefs:
        if isinstance(d, list):                      # the legacy stops file: a list of stops
            return PlayerPrefs([str(x) for x in d])
        if not isinstance(d, dict):
            return PlayerPrefs()
        stops = d.get("stops")
        pace = d.get("pace_ms", 0)
        return PlayerPrefs([str(x) for x in stops] if isinstance(stops, list) else None,
                           pace if isinstance(pace, int) and not isinstance(pace, bool) and 0 <= pace <= 5000 else 0,
                           d.get("quick_play") is True)


def prefs_file() -> Path:
    return moved_in(config_dir() / PREFS_NAME)


def stops_file() -> Path:
    return prefs_file()


def _read_json(path: Path) -> tuple[dict[str, Any] | None, str]:
    """(the file's object, "") — ({}, "") when there is no file; (None, a notice naming the file and the
    key) when it is broken, which is then kept as NAME.broken (c1k_tui/model/settings.py)."""
    from c1k_tui.model.settings import check_prefs, read_settings

    data, err = read_settings(path, check_prefs, "the saved player options")
    return (data if isinstance(data, dict) else None), err


def load_prefs(name: str) -> tuple[PlayerPrefs | None, str]:
    """A player's saved options (by player name) or None, and a message if the file could not be read."""
    data, err = _read_json(prefs_file())
    if data is not None and name in data:
        return PlayerPrefs.from_dict(data[name]), ""
    legacy, _ = _read_json(moved_in(config_dir() / LEGACY_STOPS_NAME))
    if legacy and isinstance(legacy.get(name), list):
        return PlayerPrefs.from_dict(legacy[name]), err
    return None, err


def save_prefs(prefs: dict[str, PlayerPrefs]) -> str:
    """Save player options by name, merged into the file, atomically (a temporary file in the same folder,
    then a rename). A file that can't be read is kept beside as `players.json.broken`. Returns a message
    (what went wrong, or that a broken file was set aside), or ""."""
    import json

    path = prefs_file()
    note = ""
    data, err = _read_json(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if data is None:
            broken = path.with_name(path.name + ".broken")
            if not broken.exists():
                os.replace(path, broken)
            note = f"{err}; a new {path.name} was written"
            data = {}
        data.update({k: v.to_dict() for k, v in prefs.items()})
        from engine.safeio import write_atomic  # the one write policy: never a device, FIFO or link

        write_atomic(path, json.dumps(data, indent=1, sort_keys=True) + "\n", "settings", force=True)
    except OSError as err2:
        return f"could not save the player options to {path}: {err2.strerror or err2}"
    return note


def load_stops(name: str) -> list[str] | None:
    """A player's saved stops (by player name), or None."""
    got, _ = load_prefs(name)
    return got.stops if got is not None else None


def save_stops(stops: dict[str, list[str]]) -> str:
    """Save stops by player name (their other options kept). Returns an error message, or ""."""
    merged = {}
    for name, st in stops.items():
        old, _ = load_prefs(name)
        merged[name] = PlayerPrefs(list(st), old.pace_ms if old else 0, old.quick_play if old else False)
    return save_prefs(merged)
