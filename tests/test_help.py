"""`c1k --help` as a newcomer reads it (issue #32 item 3): the commands in the order they are met (play,
learn, resume, replay; then looking things up; then the design tools; then the developer's), in panels;
`play --help` grouped (match, seats and AI, flow, files) without the flags `--flow` replaced (they still
work, hidden); no help text broken mid-sentence; and help that points at `c1k docs`, which serves the
documents that ship in the package — never at a path of the repository a pip user doesn't have."""

from __future__ import annotations

import re

import typer
from typer.core import TyperCommand, TyperGroup
from typer.testing import CliRunner

from c1k_tui.cli.main import HELP_PANELS, app

runner = CliRunner()
WIDE = {"COLUMNS": "200", "NO_COLOR": "1", "TERMINAL_WIDTH": "200"}


def _help(*args: str) -> str:
    res = runner.invoke(app, [*args, "--help"], env=WIDE)
    assert res.exit_code == 0, res.output
    return res.output


def _commands() -> dict[str, TyperCommand | TyperGroup]:
    """Every command and sub-command, by its full name (`decks show`)."""
    out: dict[str, TyperCommand | TyperGroup] = {}

    def walk(cmd: object, prefix: str) -> None:
        assert isinstance(cmd, TyperCommand | TyperGroup), (prefix, cmd)
        out[prefix.strip()] = cmd
        if isinstance(cmd, TyperGroup):
            for name, sub in cmd.commands.items():
                walk(sub, f"{prefix} {name}")

    walk(typer.main.get_command(app), "")
    assert {"play", "decks show", "scenario check", "docs"} <= set(out)
    return out


def test_commands_are_listed_as_a_newcomer_meets_them() -> None:
    text = _help()
    listed = re.findall(r"^│ ([a-z]+) ", text, re.M)
    assert listed == [n for names in HELP_PANELS.values() for n in names]
    assert listed[:4] == ["play", "learn", "resume", "replay"]
    panels = re.findall(r"╭─ (.+?) ─", text)
    assert panels == ["Options", *HELP_PANELS]          # no command left in a default "Commands" panel


def test_every_command_has_a_panel() -> None:
    top = {name for name in _commands() if name and " " not in name}
    assert top == {n for names in HELP_PANELS.values() for n in names}


def test_play_options_are_grouped_and_the_replaced_flags_hidden() -> None:
    text = _help("play")
    assert re.findall(r"╭─ (.+?) ─", text) == ["Arguments", "Options", "Match", "Seats and AI",
                                                  "Flow: when you are asked", "Files"]
    for gone in ("--auto-pass", "--stops", "--full-control"):
        assert re.search(rf"│ +{gone}\b", text) is None, gone
    assert "--flow" in text and "--vs" in text and "--save" in text
    # hidden, still taken: an unknown option would be refused before --help is read
    res = runner.invoke(app, ["play", "--no-auto-pass", "--no-stops", "--full-control", "--help"], env=WIDE)
    assert res.exit_code == 0, res.output


def test_no_help_text_keeps_a_docstrings_line_breaks() -> None:
    for name, cmd in _commands().items():
        for paragraph in (cmd.help or "").split("\n\n"):
            assert "\n" not in paragraph, f"`c1k {name}`: {paragraph!r}"
    assert "`--text` or piped input uses the plain prompt loop" in _help("play")


def test_help_names_c1k_docs_not_a_repository_path() -> None:
    for name, cmd in _commands().items():
        texts = [cmd.help or ""] + [getattr(p, "help", None) or "" for p in cmd.params]
        for t in texts:
            assert "docs/formats.md" not in t and "docs/rules.md" not in t, f"`c1k {name}`: {t!r}"
    assert "c1k docs formats 4" in _help("scenario")


def test_c1k_docs_lists_and_serves_the_shipped_documents() -> None:
    res = runner.invoke(app, ["docs"])
    assert res.exit_code == 0 and [line.split("\t")[0] for line in res.output.splitlines()] == ["formats", "rules"]
    whole = runner.invoke(app, ["docs", "formats"])
    assert whole.exit_code == 0 and whole.output.startswith("# Council of 1000 — the file formats")
    four = runner.invoke(app, ["docs", "formats", "4"])
    assert four.exit_code == 0 and four.output.startswith("## 4. Scenarios\n")
    assert "## 5. Lessons" not in four.output and four.output.strip() in whole.output
    assert runner.invoke(app, ["docs", "formats", "scenarios"]).output == four.output


def test_c1k_docs_refuses_what_it_does_not_have() -> None:
    res = runner.invoke(app, ["docs", "manual"])
    assert res.exit_code == 2 and "no document 'manual'; the documents are formats, rules" in res.output
    res = runner.invoke(app, ["docs", "formats", "99"])
    assert res.exit_code == 1 and "no section '99' in formats" in res.output
