"""The app's own settings files in C1K_HOME (players.json, lessons.json) and the app settings a record
carries (`app.flow`): read so that no file can stop the program.

Whatever is wrong with one — not UTF-8, not JSON, a key twice, nested too deeply, too large, not a regular
file, or the wrong shape — the caller gets the defaults and one message naming the file (and the key, when
the shape is wrong), and the file is kept beside as `NAME.broken` (a regular file only) before anything
replaces it. The bytes are read through engine/safeio.py (a regular file of at most 1 MB).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

#: deeper than this, a settings file is broken (players.json is 4 deep: names, options, stops, a stop)
#: the flow modes (c1k_tui/model/paths.py re-exports them): defined here, below paths, so the two
#: modules don't import each other (tests/test_layering_tui.py)
FLOWS = ("stops", "learning", "auto", "full")
MAX_DEPTH = 8

#: checks the parsed value: "" when it has the right shape, else "KEY: what was expected"
Check = Callable[[Any], str]


def parse_settings(raw: bytes, check: Check) -> tuple[Any, str]:
    """(the value, "") or (None, why it is broken: "not valid JSON (…)", or ": KEY: expected …")."""
    import json

    from engine.safeio import DuplicateKey, loads_json, nesting_depth

    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        return None, f"not UTF-8 text (byte {err.start})"
    try:
        data = loads_json(text)
    except json.JSONDecodeError as err:
        return None, f"not valid JSON (line {err.lineno}: {err.msg})"
    except DuplicateKey as err:
        return None, f"not valid JSON: {err}"
    except RecursionError:
        return None, f"nested too deeply (at most {MAX_DEPTH} levels)"
    except ValueError as err:         # a number of more than 4,300 digits
        return None, f"not valid JSON ({str(err)[:80]})"
    if nesting_depth(data) > MAX_DEPTH:
        return None, f"nested too deeply (at most {MAX_DEPTH} levels)"
    why = check(data)
    return (None, f": {why}") if why else (data, "")


def keep_broken(path: Path, raw: bytes) -> Path | None:
    """Copy a broken settings file to NAME.broken (atomically); None if that can't be done."""
    broken = path.with_name(path.name + ".broken")
    from engine.safeio import write_atomic  # the one write policy: never a device, FIFO or link

    try:
        write_atomic(broken, raw, "settings", force=True)
    except OSError:
        return None
    return broken


def read_settings(path: Path, check: Check, what: str) -> tuple[Any, str]:
    """(the parsed file, "") — ({}, "") when there is none; (None, the notice) when it is broken: the
    notice names the file, the key when there is one, says the defaults are used and where the file was
    kept. `what`: what the defaults stand for ("the saved player options")."""
    from engine.safeio import ReadRefused, read_bounded

    try:
        raw = read_bounded(path, "settings")
    except ReadRefused as err:
        if err.why == "no such file":
            return {}, ""
        return None, f"{err}: {what} were not used (the defaults are)"
    data, why = parse_settings(raw, check)
    if not why:
        return data, ""
    kept = keep_broken(path, raw)
    where = f"; the file was kept as {kept}" if kept else ""
    # a parse error reads "FILE is not valid JSON (…)", a wrong shape "FILE: KEY: expected …"
    return None, f"{path}{why if why.startswith(':') else ' is ' + why}: {what} were not used (the defaults are){where}"


# ------------------------------------------------------------------ shapes


def _show(v: object) -> str:
    import json

    return json.dumps(v, default=str, ensure_ascii=True)[:40]


def check_stops(v: object, key: str) -> str:
    if not isinstance(v, list) or not all(isinstance(x, str) and len(x) <= 80 for x in v) or len(v) > 200:
        return f"{key}: expected a list of stops (text), not {_show(v)}"
    return ""


def check_prefs(data: object) -> str:
    """players.json: {name: {"stops": [...], "pace_ms": 0..5000, "quick_play": bool}} (or the legacy
    stops.json: {name: [stops]})."""
    if not isinstance(data, dict):
        return f"expected a table of player names ({{...}}), not {_show(data)}"
    for name, prefs in data.items():
        key = f"'{name[:40]}'"
        if isinstance(prefs, list):
            why = check_stops(prefs, key)
            if why:
                return why
            continue
        if not isinstance(prefs, dict):
            return f"{key}: expected a table of options ({{...}}), not {_show(prefs)}"
        if "stops" in prefs:
            why = check_stops(prefs["stops"], f"{key}.stops")
            if why:
                return why
        pace = prefs.get("pace_ms", 0)
        if type(pace) is not int or not 0 <= pace <= 5000:
            return f"{key}.pace_ms: expected a whole number from 0 to 5000, not {_show(pace)}"
        if type(prefs.get("quick_play", False)) is not bool:
            return f"{key}.quick_play: expected true or false, not {_show(prefs.get('quick_play'))}"
    return ""


def check_progress(data: object) -> str:
    """lessons.json: {"completed": [lesson keys], "wrong_answers": {lesson key: the fewest wrong answers
    taken back in a completion}}."""
    if not isinstance(data, dict):
        return f"expected a table ({{\"completed\": [...]}}), not {_show(data)}"
    done = data.get("completed", [])
    if not isinstance(done, list) or not all(isinstance(k, str) and len(k) <= 200 for k in done):
        return f"completed: expected a list of lesson names, not {_show(done)}"
    wrong = data.get("wrong_answers", {})       # (absent in files written before it was recorded)
    if not isinstance(wrong, dict) or not all(isinstance(k, str) and len(k) <= 200 and type(v) is int
                                              and 0 <= v <= 10_000 for k, v in wrong.items()):
        return f"wrong_answers: expected a table of lesson names to whole numbers, not {_show(wrong)}"
    return ""


def check_flow(data: object) -> str:
    """A record's `app.flow`: {"mode": one of FLOWS, "stops": {"p1": [...], "p2": [...]}, "until": {"p1":
    {"kind", "turn", "since"}} (a player's "pass until…", model/yields.py; optional)}."""
    if data is None:
        return ""
    if not isinstance(data, dict):
        return f"app.flow: expected a table ({{...}}), not {_show(data)}"
    mode = data.get("mode", "stops")
    if mode not in FLOWS:
        return f"app.flow.mode: expected one of {', '.join(FLOWS)}, not {_show(mode)}"
    from c1k_tui.model.yields import check_until  # (the engine: not on the way to the first frame)

    full = data.get("full", [])
    if not isinstance(full, list) or any(x not in ("p1", "p2") for x in full):
        return f"app.flow.full: expected a list of seats (p1, p2), not {_show(full)}"
    return _by_seat(data, "stops", check_stops) or _by_seat(data, "until", check_until)


def _by_seat(flow: dict[Any, Any], key: str, check: Callable[[Any, str], str]) -> str:
    """`app.flow.<key>`: a table of p1 and p2, each checked by `check`."""
    table = flow.get(key, {})
    if not isinstance(table, dict):
        return f"app.flow.{key}: expected a table of p1 and p2 ({{...}}), not {_show(table)}"
    for seat, v in table.items():
        if seat not in ("p1", "p2"):
            return f"app.flow.{key}: unknown seat {_show(seat)} (p1 or p2)"
        why = check(v, f"app.flow.{key}.{seat}")
        if why:
            return why
    return ""


def check_app(app: object) -> str:
    """A record's `app` table: the flow, open hands, the lesson."""
    if not isinstance(app, dict):
        return f"app: expected a table ({{...}}), not {_show(app)}"
    why = check_flow(app.get("flow"))
    if why:
        return why
    if "open_hands" in app and type(app["open_hands"]) is not bool:
        return f"app.open_hands: expected true or false, not {_show(app['open_hands'])}"
    if "lesson" in app and not isinstance(app["lesson"], dict):
        return f"app.lesson: expected a table ({{...}}), not {_show(app['lesson'])}"
    from engine.safeio import nesting_depth

    if nesting_depth(app) > MAX_DEPTH:
        return f"app: nested too deeply (at most {MAX_DEPTH} levels)"
    return ""


def record_app_notice(app: Any, path: Path) -> str:
    """A record whose `app` settings have the wrong shape (a hand-made or other tool's record: the hash
    covers them) resumes with the default settings, a notice naming the file and key, and a copy of the
    record kept as NAME.broken before the autosave replaces it."""
    why = check_app(app)
    if not why:
        return ""
    from engine.safeio import ReadRefused, read_bounded

    try:
        kept = keep_broken(path, read_bounded(path, "records"))
    except ReadRefused:
        kept = None
    return (f"{path}: {why}: the default app settings are used"
            + (f"; the record was kept as {kept}" if kept else ""))
