"""Match records that can't lie (rules.md §7): versioned schema, seats by number, refused attempts,
the state hash after every command; a changed record is refused at the first command that differs."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from c1k_tui.cli.main import app
from engine import record as rec
from engine.actions import IllegalAction, Play
from engine.cards import load_card_db
from engine.decks import find_deck, load_deck
from engine.game import Game
from engine.rng import SplitMix64
from engine.selfplay import random_action
from engine.state import MatchOptions

DB = load_card_db()
runner = CliRunner()


def _decks(names: tuple[str, str] = ("p1", "p2")) -> list[Any]:
    decks = [load_deck(find_deck("ironbound"), DB), load_deck(find_deck("emberfall"), DB)]
    decks[0].player, decks[1].player = names
    return decks


def _match(n: int = 60, seed: int = 7, names: tuple[str, str] = ("p1", "p2")) -> tuple[Game, rec.MatchRecord]:
    """A match of n random commands, with one refused attempt (it moves priority: C1K 10) at command 4."""
    decks = _decks(names)
    g = Game.new(DB, decks[0], decks[1], seed)
    recorder = rec.Recorder(rec.Start.of_decks(decks, seed), g)
    agent = SplitMix64(seed)
    while len(g.record) < n and not g.is_terminal():
        if len(g.record) == 3 and g.pending.kind == "priority":
            with pytest.raises(IllegalAction):
                g.apply(Play(9999), g.current_player())
            continue
        g.apply(random_action(g, agent))
    return g, recorder.record(g)


@pytest.fixture(scope="module")
def saved() -> tuple[Game, dict[str, Any]]:
    g, r = _match()
    return g, json.loads(r.to_json())


def _replay_error(data: dict[str, Any], tmp_path: Path) -> rec.RecordError:
    p = tmp_path / "r.json"
    p.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(rec.RecordError) as err:
        rec.replay(rec.load(p), DB)
    return err.value


def test_a_record_replays_to_every_hash_and_keeps_refused_attempts(saved: tuple[Game, dict[str, Any]],
                                                                    tmp_path: Path) -> None:
    g, data = saved
    assert data["version"] == rec.VERSION and len(data["commands"]) == len(g.record)
    refused = [c for c in data["commands"] if c.get("refused")]
    assert refused and refused[0]["do"].endswith("play #9999") and "C1K" not in refused[0]["do"]
    assert all(c["do"].startswith(("p1: ", "p2: ")) and c["hash"] for c in data["commands"])
    p = tmp_path / "r.json"
    p.write_text(json.dumps(data), encoding="utf-8")
    again = rec.replay(rec.load(p), DB)
    assert again.state_hash() == g.state_hash() and again.record == g.record


def _tamper(data: dict[str, Any], how: str) -> tuple[dict[str, Any], int | None]:
    d = json.loads(json.dumps(data))
    cmds = d["commands"]
    if how == "seed":
        d["seed"] = str(int(d["seed"]) + 1)
        return d, 0
    if how == "card count":
        card = next(iter(d["decks"][0]["cards"]))
        d["decks"][0]["cards"][card] -= 1
        return d, 0
    if how == "champion":
        d["decks"][1]["champion"] = d["decks"][0]["champion"]
        return d, 0
    if how == "prefix":
        k = next(i for i, c in enumerate(cmds) if i > 10 and not c.get("refused"))
        seat = cmds[k]["do"][:2]
        cmds[k]["do"] = ("p2" if seat == "p1" else "p1") + cmds[k]["do"][2:]
        return d, k + 1
    if how == "deleted":
        del cmds[20]
        return d, 21
    if how == "command text":
        cmds[30]["do"] = cmds[30]["do"][:4] + "concede"
        return d, 31
    if how == "refused mark":
        k = next(i for i, c in enumerate(cmds) if c.get("refused"))
        del cmds[k]["refused"]
        return d, k + 1
    if how == "version 99":
        d["version"] = 99
    elif how == "deck not a table":
        d["decks"][0] = "ironbound"
    elif how == "command is a number":
        cmds[3] = 7
    elif how == "options = 5":
        d["options"] = 5
    return d, None


TAMPERINGS = ["seed", "card count", "champion", "prefix", "deleted", "command text", "refused mark",
              "version 99", "deck not a table", "command is a number", "options = 5"]


@pytest.mark.parametrize("how", TAMPERINGS)
def test_each_tampering_is_refused_at_the_right_command(saved: tuple[Game, dict[str, Any]], tmp_path: Path,
                                                        how: str) -> None:
    _, data = saved
    changed, at = _tamper(data, how)
    err = _replay_error(changed, tmp_path)
    assert err.command == at, f"{how}: {err}"
    text = str(err)
    if at is not None and at > 0:
        assert text.startswith(f"command {at} of "), text
    expected = {"seed": "the seed", "card count": "p1 deck list", "champion": "p2 Champion", "prefix": "p1 ",
                "version 99": "unknown record version 99", "deck not a table": "decks.0: expected a table",
                "command is a number": "command 4: expected a table", "options = 5": "options: expected a table",
                "refused mark": "the engine refuses it now"}
    if how in expected:
        assert expected[how] in text, text


def test_every_tampering_has_its_own_message(saved: tuple[Game, dict[str, Any]], tmp_path: Path) -> None:
    _, data = saved
    messages = [str(_replay_error(_tamper(data, how)[0], tmp_path)) for how in TAMPERINGS]
    assert len(set(messages)) == len(messages)


def test_resume_and_replay_commands_refuse_a_changed_record(saved: tuple[Game, dict[str, Any]],
                                                           tmp_path: Path) -> None:
    _, data = saved
    changed, _ = _tamper(data, "deleted")
    p = tmp_path / "m.json"
    p.write_text(json.dumps(changed), encoding="utf-8")
    before = p.read_bytes()
    for args in (["resume", str(p)], ["replay", str(p)]):
        res = runner.invoke(app, args, input="")
        assert res.exit_code != 0 and "command 21 of" in res.output, res.output
        assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert p.read_bytes() == before, "a refused record is not overwritten"


def test_seats_never_depend_on_names(tmp_path: Path) -> None:
    # `--p1 p2` and a rematch (seats swapped, names kept) name seat 1 "p2": commands still go by seat
    g, r = _match(80, seed=11, names=("p2", "p1"))
    assert r.start.names == ("p2", "p1")
    p = tmp_path / "m.json"
    rec.save(r, p)
    again = rec.replay(rec.load(p), DB)
    assert again.state_hash() == g.state_hash()
    res = runner.invoke(app, ["play", "--seed", "4", "--p1", "p2", "--p2", "p1", "--save", str(p)],
                        input="pass\npass\npass\npass\n")
    assert res.exit_code == 0, res.output
    saved = rec.load(p)
    assert rec.replay(saved, DB).record == saved.commands


def test_a_recorder_follows_undo(tmp_path: Path) -> None:
    decks = _decks()
    g = Game.new(DB, decks[0], decks[1], 3)
    recorder = rec.Recorder(rec.Start.of_decks(decks, 3), g)
    agent = SplitMix64(3)
    for _ in range(12):
        g.apply(random_action(g, agent))
    recorder.sync(g)
    back = rec.replay(recorder.record(g), DB, 8)
    r = recorder.record(back)
    assert len(r.entries) == 8
    assert rec.replay(r, DB).state_hash() == back.state_hash()


def test_saving_is_atomic_and_leaves_no_temporary_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, r = _match(10)
    p = tmp_path / "m.json"
    rec.save(r, p)
    good = p.read_bytes()

    def interrupted(src: str, dst: str) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        rec.save(r, p)
    monkeypatch.undo()
    assert sorted(x.name for x in tmp_path.iterdir()) == ["m.json"] and p.read_bytes() == good
    (tmp_path / "dir.json").mkdir()
    with pytest.raises(OSError):
        rec.save(r, tmp_path / "dir.json")
    assert sorted(x.name for x in tmp_path.iterdir()) == ["dir.json", "m.json"]


def test_an_unwritable_save_path_is_a_message(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    bad = tmp_path / "file" / "match.json"            # a folder that is a file: can't be created
    res = runner.invoke(app, ["play", "--seed", "3", "--save", str(bad)], input="pass\npass\n")
    assert res.exit_code == 0 and res.exception is None, res.output
    assert f"can't save the match to {bad}: {tmp_path / 'file'} is not a folder" in res.output
    assert res.output.count("can't save the match") == 1, "said once, not after every command"
    with pytest.raises(IsADirectoryError, match="is a folder, not a file"):
        rec.save(_match(2)[1], tmp_path)


def test_a_missing_or_folder_record_is_a_message(tmp_path: Path) -> None:
    with pytest.raises(rec.RecordError, match="missing.json: no such file$"):
        rec.load(tmp_path / "missing.json")
    with pytest.raises(rec.RecordError, match="is a folder, not a match record file"):
        rec.load(tmp_path)
    for cmd in ("resume", "replay"):
        res = runner.invoke(app, [cmd, str(tmp_path)])
        assert res.exit_code == 2 and res.exception is None or isinstance(res.exception, SystemExit), res.output
        assert "is a folder, not a match record file" in res.output and "Errno" not in res.output


def test_version_1_records_are_refused_with_a_reason(tmp_path: Path) -> None:
    p = tmp_path / "old.json"
    p.write_text(json.dumps({"format": "c1k-match-record", "version": 1, "seed": 3, "decks": [], "commands": []}))
    with pytest.raises(rec.RecordError, match="version 1 record .* holds no state hashes"):
        rec.load(p)


def test_options_are_recorded_and_replayed() -> None:
    decks = _decks()
    opts = MatchOptions(practice=True, max_turns=30, first="p2")
    g = Game.new(DB, decks[0], decks[1], 5, opts)
    r = rec.record_of(g, rec.Start.of_decks(decks, 5, opts), g.clone())
    loaded = rec.from_data(json.loads(r.to_json()))
    assert loaded.start.options["practice"] is True and loaded.start.options["max_turns"] == 30
    assert rec.replay(loaded, DB).state_hash() == g.state_hash()
    for bad, message in (({"first": "p3"}, "first"), ({"unit_slots": 10**9}, "out of range"),
                         ({"practice": 1}, "'practice' is true or false"), ({"colour": 1}, "unknown option 'colour'")):
        data = json.loads(r.to_json())
        data["options"] = bad
        with pytest.raises(rec.RecordError, match=message):
            rec.from_data(data)


def test_seat_prefixes_beat_player_names_when_typed() -> None:
    # `--p1 p2 --p2 p1`: seat 1 is named "p2"; "p2: pass" still means seat 2, who isn't deciding
    d = _decks(("p2", "p1"))
    g = Game.new(DB, d[0], d[1], 5)
    assert g.current_player() == 0
    before = g.state_hash()
    with pytest.raises(IllegalAction, match="C1K 10"):
        g.apply_command("p2: pass")
    assert g.state_hash() == before and g.record == [], "seat 2 acted out of turn: nothing changes (C1K 10)"
    g.apply_command("p1: pass")
    assert g.record == ["p1: pass"] and g.current_player() == 1


def test_resuming_a_changed_record_in_the_app_says_why_and_exits_non_zero(saved: tuple[Game, dict[str, Any]],
                                                                           tmp_path: Path) -> None:
    """The app's splash shows the refusal; Enter quits with exit code 2 (not 0), like the text loop."""
    import asyncio

    from c1k_tui.model.builders import resume_session
    from c1k_tui.screens.app import C1KApp

    _, data = saved
    bad = json.loads(json.dumps(data))
    del bad["commands"][3]
    p = tmp_path / "changed.json"
    p.write_text(json.dumps(bad), encoding="utf-8")
    tui = C1KApp(builder=lambda: resume_session(load_card_db(), p), splash=["resuming"])

    async def main() -> None:
        async with tui.run_test(size=(100, 30)) as pilot:
            for _ in range(50):
                await pilot.pause(0.05)
                if getattr(tui.screen, "error", ""):
                    break
            assert "command 4 of" in tui.screen.error   # type: ignore[attr-defined]
            await pilot.press("enter")
            await pilot.pause()

    asyncio.run(main())
    assert tui.return_code == 2
