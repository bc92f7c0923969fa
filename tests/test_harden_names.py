"""Issue #23 item 6: terminal-safe text. A name (player, card, deck) holding a control character is
refused where it enters — card and deck files, scenarios, `--p1`/`--p2`, records — and whatever text
still reaches an output (a typed command echoed back, a path) is shown escaped. Card names must be
something a command can refer to; a unit has at least 1 health; a Set card needs Ambush in scenarios
too; an inline scenario card may not replace a bundled card unless it says so."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from c1k_tui.cli.main import app
from c1k_tui.model.safetext import escape_output, escape_text

runner = CliRunner()
ESC_TITLE = "\x1b]0;pwned\x07"
HIDE = "\x1b[8m"
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def card(name: str, health: int = 2, extra: str = "") -> str:
    return (f'[[card]]\nid = "t-probe"\nname = {json.dumps(name)}\ntype = "unit"\nrealm = "veil"\ncost = 1\n'
            f"power = 1\nhealth = {health}\n{extra}")


def _invoke(args: list[str], stdin: str = "") -> tuple[int, str]:
    res = runner.invoke(app, args, input=stdin)
    assert res.exception is None or isinstance(res.exception, SystemExit), res.output
    assert "Traceback" not in res.output
    assert not RAW.search(res.output), repr(res.output)       # no control character reaches the terminal
    return res.exit_code, res.output


@pytest.mark.parametrize("name,words", [
    (f"Bad{ESC_TITLE}", "control character U+001B"),
    ("Two\nlines", "control character U+000A"),
    (f"Hidden{HIDE}", "control character U+001B"),
    ("Flip\u202eped", "control character U+202E"),
    ("#12", "would be read as a card id"),
    ("none", "the word 'none'"),
    ("P2", "the word 'p2'"),
    ("->", "the word '->'"),
    (" Padded", "begin or end with a space"),
    ("It's \"quoted\"", "both kinds of quote"),
])
def test_validate_refuses_card_names_a_command_or_terminal_cant_take(tmp_path: Path, name: str,
                                                                     words: str) -> None:
    f = tmp_path / "cards.toml"
    f.write_text(card(name), encoding="utf-8")
    code, out = _invoke(["validate", str(f)])
    assert code == 1 and words in out, out


def test_a_unit_needs_health_1(tmp_path: Path) -> None:
    f = tmp_path / "cards.toml"
    f.write_text(card("Glass Golem", health=0), encoding="utf-8")
    code, out = _invoke(["validate", str(f)])
    assert code == 1 and "health' is at least 1" in out, out


def test_a_deck_name_with_an_escape_is_refused(tmp_path: Path) -> None:
    deck = (Path(__file__).resolve().parent.parent / "decks" / "ironbound.toml").read_text(encoding="utf-8")
    deck = re.sub(r'(?m)^name = ".*"$', lambda m: f"name = {json.dumps('Iron' + ESC_TITLE)}", deck, count=1)
    f = tmp_path / "d.toml"
    f.write_text(deck, encoding="utf-8")
    code, out = _invoke(["validate", str(f)])
    assert code == 1 and "a deck name can't hold the control character" in out, out


def test_a_deck_without_a_name_whose_file_name_holds_an_escape_is_refused(tmp_path: Path) -> None:
    """The file's name stands in for a missing [deck] name, so it is held to the same rule (#23 item 6)."""
    deck = (Path(__file__).resolve().parent.parent / "decks" / "ironbound.toml").read_text(encoding="utf-8")
    deck = re.sub(r'(?m)^name = ".*"\n', "", deck, count=1)
    f = tmp_path / ("Iron" + ESC_TITLE + ".toml")
    f.write_text(deck, encoding="utf-8")
    code, out = _invoke(["validate", str(f)])
    assert code == 1 and "its file name would be its name" in out and "\x1b" not in out, out
    g = tmp_path / "plain.toml"               # a plain file name is still a fine name
    g.write_text(deck, encoding="utf-8")
    code, out = _invoke(["validate", str(g)])
    assert code == 0, out


@pytest.mark.parametrize("option", ["--p1", "--p2"])
@pytest.mark.parametrize("name", [ESC_TITLE, HIDE + "x", "a\nb", "", " "])
def test_player_names_with_controls_or_empty_are_refused(option: str, name: str) -> None:
    code, out = _invoke(["play", "--text", option, name], "quit\n")
    assert code == 2 and option in out, out


def _scenario(tmp_path: Path, body: str) -> Path:
    f = tmp_path / "x.scenario.toml"
    f.write_text('[scenario]\ntitle = "probe"\nseed = 1\nturn = 1\nactive = "p1"\nwindow = "main.priority"\n'
                 + body, encoding="utf-8")
    return f


def test_a_set_card_needs_ambush_in_a_scenario(tmp_path: Path) -> None:
    f = _scenario(tmp_path, '[p1]\nset = ["Shade"]\n')
    code, out = _invoke(["scenario", "check", str(f)])
    assert code == 1 and "'Shade' has no Ambush" in out, out


def test_an_inline_card_may_not_shadow_a_bundled_one_unless_it_says_so(tmp_path: Path) -> None:
    shadow = ('[[card]]\nid = "t-shade"\nname = "Shade"\ntype = "unit"\nrealm = "veil"\ncost = 1\npower = 5\n'
              'health = 5\n{extra}[p1]\nhand = ["Shade"]\n')
    f = _scenario(tmp_path, shadow.format(extra=""))
    code, out = _invoke(["scenario", "check", str(f)])
    assert code == 1 and "would replace the bundled card 'shade'" in out and "replaces = true" in out, out
    f = _scenario(tmp_path, shadow.format(extra="replaces = true\n"))
    code, out = _invoke(["scenario", "check", str(f)])
    assert code == 0, out


def test_a_scenario_player_name_with_an_escape_is_refused(tmp_path: Path) -> None:
    f = _scenario(tmp_path, f"[p1]\nname = {json.dumps('Mira' + ESC_TITLE)}\n")
    code, out = _invoke(["scenario", "check", str(f)])
    assert code == 1 and "control character U+001B" in out, out


def test_a_record_with_an_escape_in_a_name_is_refused(tmp_path: Path) -> None:
    p = tmp_path / "m.json"
    assert _invoke(["play", "--text", "--seed", "2", "--save", str(p), "--p1", "Mira"], "pass\nquit\n")[0] == 0
    data = json.loads(p.read_text(encoding="utf-8"))
    data["players"]["p1"] = "Mira" + ESC_TITLE
    p.write_text(json.dumps(data), encoding="utf-8")
    before = p.read_bytes()
    for args in (["replay", str(p)], ["resume", "--text", str(p)]):
        code, out = _invoke(args, "quit\n")
        assert code != 0 and "p1's name can't hold the control character U+001B" in out, out
    assert p.read_bytes() == before


def test_typed_text_echoed_by_the_text_loop_is_escaped() -> None:
    code, out = _invoke(["play", "--text", "--seed", "2"], f"play {ESC_TITLE}\nplay {HIDE}x\nquit\n")
    assert "\\x1b" in out, out


def test_escape_helpers() -> None:
    assert escape_text("a\x1b[8mb\n") == "a\\x1b[8mb\\n"
    assert escape_output("line\n\x07bell\ttab") == "line\n\\x07bell\ttab"
    assert escape_output("\x1b[H\x1b[2Jhi\x1b]0;t\x07", ("\x1b[H\x1b[2J",)) == "\x1b[H\x1b[2Jhi\\x1b]0;t\\x07"
    assert escape_text("Thalwen, Keeper of the First Grove") == "Thalwen, Keeper of the First Grove"


def test_card_text_with_an_escape_is_refused(tmp_path: Path) -> None:
    f = tmp_path / "cards.toml"
    f.write_text(card("Plain", extra=f"text = {json.dumps('Deal 2.' + ESC_TITLE)}\n"), encoding="utf-8")
    code, out = _invoke(["validate", str(f)])
    assert code == 1 and "'text' can't hold the control character U+001B" in out, out
