"""Issue #28 item 2: a simulation report verifies itself like a record. It carries the
SHA-256 of everything it says and a digest of each part; every load (`c1k replay REPORT --match N`) checks
it and refuses a changed report, naming what changed; a removed field is a message, not a KeyError; and
`--match` takes a whole number in the report's range."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from c1k_tui.cli.main import app
from c1k_tui.sim.simulate import SimulateError, load_report, seal_report, verify_report

RUNNER = CliRunner()


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("rep") / "r.json"
    res = RUNNER.invoke(app, ["simulate", "ironbound", "emberfall", "--matches", "2", "--agent", "random",
                              "--max-turns", "40", "--workers", "1", "--json", str(out), "--quiet"])
    assert res.exit_code == 0, res.output
    data: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return data


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, (*path, k))
    elif isinstance(value, list) and value:
        for i, v in enumerate(value):
            yield from _leaves(v, (*path, i))
    else:
        yield path


def _fields(report: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Every field of the report: each leaf, with the rows of a list counted once by their fields (the
    first and the last row of each list, so a change anywhere in a list is seen by position too)."""
    seen: dict[tuple[Any, ...], list[tuple[Any, ...]]] = {}
    for path in _leaves(report):
        shape = tuple("*" if isinstance(k, int) else k for k in path)
        seen.setdefault(shape, []).append(path)
    return [p for paths in seen.values() for p in {paths[0], paths[-1]}]


def _changed(value: Any) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return value + 0.5
    if isinstance(value, str):
        return value + "x"
    return 1 if value is None else None


def _set(data: Any, path: tuple[Any, ...], value: Any) -> None:
    for k in path[:-1]:
        data = data[k]
    data[path[-1]] = value


def _write(tmp_path: Path, data: dict[str, Any]) -> Path:
    f = tmp_path / "t.json"
    f.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return f


def test_a_report_as_written_loads(report: dict[str, Any], tmp_path: Path) -> None:
    assert report["format"] == "c1k-simulation-report" and len(report["integrity"]["sha256"]) == 64
    assert load_report(_write(tmp_path, report)) == report


def test_every_field_of_a_real_report_changed_is_refused(report: dict[str, Any], tmp_path: Path) -> None:
    leaves = _fields(report)
    assert len(leaves) > 150
    accepted = []
    for path in leaves:
        data = json.loads(json.dumps(report))
        _set(data, path, _changed(_get(report, path)))
        try:
            verify_report(json.loads(json.dumps(data)), "r.json")   # (what load_report checks once read)
        except SimulateError as err:
            if path[0] not in ("integrity", "format", "version"):
                # it names the part that changed: the table's key or the list's row
                where = f"'{path[0]}.{path[1]}'" if isinstance(report[path[0]], dict) and len(path) > 1 \
                    else f"'{path[0]}[{path[1]}]'" if len(path) > 1 else f"'{path[0]}'"
                assert where in str(err), (path, str(err))
            continue
        accepted.append(path)
    assert accepted == []


def _get(data: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        data = data[k]
    return data


def test_every_field_removed_is_refused_with_a_message(report: dict[str, Any], tmp_path: Path) -> None:
    paths = [p for p in _fields(report) if p and isinstance(p[-1], str)]
    for path in paths:
        data = json.loads(json.dumps(report))
        parent = _get(data, path[:-1])
        del parent[path[-1]]
        with pytest.raises(SimulateError):
            verify_report(data, "r.json")
    data = json.loads(json.dumps(report))
    del data["games"][0]["agent_p1"]
    res = RUNNER.invoke(app, ["replay", str(_write(tmp_path, data)), "--match", "1"])
    assert res.exit_code == 2 and "'games[0]' was changed" in res.output and "Traceback" not in res.output


def test_a_changed_deck_list_through_replay_is_refused_naming_the_deck(report: dict[str, Any],
                                                                      tmp_path: Path) -> None:
    data = json.loads(json.dumps(report))
    cards = data["decks"]["ironbound"]["cards"]
    cards[0][1], cards[1][1] = cards[0][1] - 1, cards[1][1] + 1
    res = RUNNER.invoke(app, ["replay", str(_write(tmp_path, data)), "--match", "1"])
    assert res.exit_code == 2 and "'decks.ironbound' was changed" in res.output
    assert "every state hash checked" not in res.output


def test_a_report_of_no_version_is_refused(report: dict[str, Any], tmp_path: Path) -> None:
    data = {k: v for k, v in report.items() if k not in ("integrity", "format", "version")}
    with pytest.raises(SimulateError, match="not a simulation report of this version"):
        load_report(_write(tmp_path, data))


def test_a_resealed_report_loads(report: dict[str, Any], tmp_path: Path) -> None:
    """The seal is what the report says, not a secret: a report changed and sealed again is a new report
    (what `c1k simulate` would write for it), and loads."""
    data = json.loads(json.dumps(report))
    data["run"]["seconds"] = 1.5
    assert load_report(_write(tmp_path, seal_report(data)))["run"]["seconds"] == 1.5


@pytest.mark.parametrize("text", ["1.0", "0", "3", "99", "-1", "+1", " 1", "1e0", "²", ""])
def test_match_takes_a_whole_number_in_range(report: dict[str, Any], tmp_path: Path, text: str) -> None:
    res = RUNNER.invoke(app, ["replay", str(_write(tmp_path, report)), "--match", text])
    assert res.exit_code == 2, res.output
    assert "its matches are numbered 1 to 2" in res.output and "Traceback" not in res.output
