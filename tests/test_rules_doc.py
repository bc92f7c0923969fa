"""docs/rules.md ships inside the package (the rules panel and `c1k rules` work from a built wheel), and
`c1k rules` prints a rule by its id and finds rules by word."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from importlib import resources
from pathlib import Path

import pytest
from typer.testing import CliRunner

from c1k_tui.cli.main import app as cli
from c1k_tui.model import rulesdoc

ROOT = Path(__file__).resolve().parent.parent


def test_the_packaged_rules_are_the_repository_rules() -> None:
    packaged = (resources.files("c1k_tui") / "rules.md").read_text(encoding="utf-8")
    assert packaged == (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert rulesdoc.rules_text() == packaged
    assert "C1K 4.3" in rulesdoc.rules() and "KW Guard" in rulesdoc.rules()


@pytest.mark.slow
def test_a_built_wheel_carries_the_rules_and_reads_them(tmp_path: Path) -> None:
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, symlinks=True, ignore=shutil.ignore_patterns(
        ".venv", ".git", "build", "dist", "*.egg-info", "__pycache__", ".*_cache", "tests", "bench"))
    out = tmp_path / "wheels"
    res = subprocess.run([sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "-q", "-w", str(out)],
                         capture_output=True, text=True, cwd=tmp_path)
    assert res.returncode == 0, res.stderr[-2000:]
    (wheel,) = out.glob("c1k-*.whl")
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as z:
        assert z.read("c1k_tui/rules.md").decode() == (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
        z.extractall(site)
    # read the rules from the unpacked wheel alone: no repository, no editable install (-S: no site dirs)
    probe = ("from c1k_tui.model import rulesdoc; r = rulesdoc.rules(); "
             "print(len(r), rulesdoc.section('C1K 4.3')[1], rulesdoc.rules_path().exists())")
    res = subprocess.run([sys.executable, "-S", "-c", probe], capture_output=True, text=True, cwd=tmp_path,
                         env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"})
    assert res.returncode == 0, res.stderr
    count, rest = res.stdout.split(" ", 1)
    assert int(count) == len(rulesdoc.rules()) and rest.strip() == "Combat damage False"


def test_c1k_rules_prints_a_rule_by_id_in_any_spelling() -> None:
    r = CliRunner()
    for q in (["C1K 4.3"], ["c1k", "4.3"], ["4.3"]):
        res = r.invoke(cli, ["rules", *q, "--plain"])
        assert res.exit_code == 0 and res.output.startswith("## `C1K 4.3` Combat damage"), (q, res.output)
    res = r.invoke(cli, ["rules", "kw", "guard"])
    assert res.exit_code == 0 and "Guard" in res.output and "cannot" in res.output


def test_c1k_rules_finds_rules_by_word() -> None:
    r = CliRunner()
    res = r.invoke(cli, ["rules", "overwhelm", "excess"])
    assert res.exit_code == 0 and "RB 3.1" in res.output and "KW Overwhelm" in res.output
    assert res.output.index("RB 3.1") < res.output.index("KW Overwhelm")   # a title hit ranks first
    lone = r.invoke(cli, ["rules", "escapes", "destruction", "--plain"])
    assert lone.exit_code == 0 and lone.output.startswith("## `KW Veilbind`")
    miss = r.invoke(cli, ["rules", "zzqx"])
    assert miss.exit_code == 1 and "no rule" in miss.output and "Traceback" not in miss.output
    listing = r.invoke(cli, ["rules"])
    assert listing.exit_code == 0 and all(rid in listing.output for rid in ("RULES 1", "C1K 10", "KW Voidcast"))


def test_every_rule_id_the_engine_names_has_a_section() -> None:
    from engine.state import WINDOW_RULE

    for rid in WINDOW_RULE:
        assert rulesdoc.normalize_id(rid) == rid


def test_the_rule_browser_opens_a_rule_and_searches() -> None:
    import asyncio

    from textual.app import App
    from textual.widgets import Input, Markdown, OptionList

    from c1k_tui.screens.rule_screen import RuleBrowser, open_rule

    class Host(App[None]):
        def on_mount(self) -> None:
            open_rule(self, "kw guard")

    async def main() -> None:
        app = Host()
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, RuleBrowser) and screen.rule_id == "KW Guard"
            assert "Guard" in screen.query_one(Markdown).source
            screen.query_one(Input).value = "overwhelm excess"
            screen.query_one(Input).focus()
            await pilot.press("enter")
            await pilot.pause()
            # (6: C1K 4.3's "power below 0" paragraph names Overwhelm's Excess too)
            assert screen.rule_id == "RB 3.1" and screen.query_one(OptionList).option_count == 6
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, RuleBrowser)

    asyncio.run(main())
