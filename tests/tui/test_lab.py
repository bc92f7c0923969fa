"""The Lab (c1k_tui/screens/lab_screen.py): a tiny simulation run from the app with progress, the same report as
`c1k simulate`, a clean cancel, saving JSON and CSV, form errors as messages, and SVG snapshots of the
results at 80×24 and 120×40."""

from __future__ import annotations

import io
import json
import threading
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console, Group
from rich.text import Text
from textual.widgets import Input, Select, SelectionList, Static

from c1k_tui.model.builders import StartChoice
from c1k_tui.screens.app import C1KApp
from c1k_tui.screens.lab_screen import LabScreen, run_jobs
from c1k_tui.screens.start_screen import StartScreen
from c1k_tui.sim import simulate as sim
from tests.tui.conftest import run_app

DECKS = ["emberfall", "ironbound", "veil-masquerade"]


class LabApp(C1KApp):
    CSS_PATH = str(Path(__file__).resolve().parents[2] / "c1k_tui" / "screens" / "app.tcss")

    def __init__(self) -> None:
        super().__init__(mode="lab")

    def on_mount(self) -> None:
        self.push_screen(LabScreen(DECKS, workers=1))


def fill(lab: LabScreen, matches: str = "2", turns: str = "4", agent: str = "random") -> None:
    lab.query_one("#lab-matches", Input).value = matches
    lab.query_one("#lab-turns", Input).value = turns
    lab.query_one("#lab-workers", Input).value = "1"
    lab.query_one("#lab-agent", Select).value = agent


async def wait_done(pilot: Any, lab: LabScreen) -> None:
    for _ in range(500):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        if not lab.running:
            return
    raise AssertionError("the Lab run did not finish")


def rendered(parts: list[Any]) -> str:
    console = Console(width=120, record=True, file=io.StringIO())
    console.print(Group(*parts))
    return console.export_text()


def status(lab: LabScreen) -> str:
    return str(lab.query_one("#lab-status", Static).render())


def test_a_tiny_simulation_in_the_lab_gives_the_report_of_c1k_simulate(tmp_path: Path) -> None:
    app = LabApp()
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        lab = app.screen
        assert isinstance(lab, LabScreen)
        assert set(lab.query_one("#lab-decks", SelectionList).selected) == {"ironbound", "emberfall"}
        fill(lab)
        await pilot.press("ctrl+r")
        out["running"] = lab.running
        await wait_done(pilot, lab)
        out["report"] = lab.report
        out["status"] = status(lab)
        out["results"] = rendered(lab.shown)
        out["done"] = lab.done_count
        await pilot.press("ctrl+s")                    # asks for the path
        await pilot.pause()
        app.screen.query_one(Input).value = str(tmp_path / "lab.json")
        await pilot.press("enter")
        await pilot.pause()
        out["saved"] = status(lab)

    run_app(app, body)
    assert out["done"] == 2, out
    assert "done: 2 matches" in out["status"]
    rep = out["report"]
    decks = sim.resolve_decks(["emberfall", "ironbound"], False)      # the list's order
    pairs, jobs = sim.plan(decks, "random", "random", 2, 1, 4)
    same = sim.run(pairs, jobs, sim.InlineBackend())
    assert rep["pairs"] == same["pairs"] and rep["ratings"] == same["ratings"] and rep["cards"] == same["cards"]
    assert "Win rate of the row" in out["results"] and "Ratings (Bradley" in out["results"]
    try:
        import plotext  # noqa: F401 - a dependency; an environment installed before it gets a note instead
        assert "Win rate vs the field" in out["results"]
    except ImportError:
        assert "no plots" in out["results"]
    assert "saved" in out["saved"]
    data = json.loads((tmp_path / "lab.json").read_text())
    assert data["pairs"] == same["pairs"] and data["run"]["complete"] is True
    assert (tmp_path / "lab.csv").exists() and (tmp_path / "lab.cards.csv").exists()


def test_cancel_stops_the_run_cleanly_and_keeps_what_was_played() -> None:
    gate = threading.Event()
    app = LabApp()
    out: dict[str, Any] = {}

    def held(job: sim.Job) -> sim.JobResult:
        if job.index >= 1:
            gate.wait(30)          # the second match is "being played" until the test cancels
        return sim.run_job(job)

    async def body(pilot: Any) -> None:
        lab = app.screen
        assert isinstance(lab, LabScreen)
        lab.job = held
        fill(lab, matches="4")
        await pilot.press("ctrl+r")
        for _ in range(500):
            await pilot.pause()
            if lab.done_count >= 1:
                break
        await pilot.press("escape")                 # cancel (not back: a run is going on)
        out["cancelling"] = status(lab)
        gate.set()
        await wait_done(pilot, lab)
        out["status"] = status(lab)
        out["report"] = lab.report
        out["screen"] = type(app.screen).__name__
        await pilot.press("escape")                 # now Esc goes back
        out["after"] = len(app.screen_stack)

    run_app(app, body)
    assert "cancelling" in out["cancelling"]
    assert "cancelled after 2 of 4 matches" in out["status"]
    assert out["report"]["matches"] == 2 and out["report"]["run"]["complete"] is False
    assert out["screen"] == "LabScreen" and out["after"] == 1


def test_run_jobs_with_a_pool_stops_when_cancelled() -> None:
    decks = sim.resolve_decks(["ironbound", "emberfall"], False)
    _, jobs = sim.plan(decks, "random", "random", 4, 3, 3)
    got: list[int] = []
    stop = threading.Event()

    def done(r: sim.JobResult) -> None:
        got.append(r.index)
        stop.set()                                   # cancel after the first result

    assert run_jobs(jobs, 2, done, stop) is False and 1 <= len(got) < len(jobs)
    every: dict[int, sim.JobResult] = {}
    assert run_jobs(jobs, 2, lambda r: every.__setitem__(r.index, r), threading.Event()) is True
    assert sorted(every) == [j.index for j in jobs]
    inline: dict[int, sim.JobResult] = {}
    run_jobs(jobs, 1, lambda r: inline.__setitem__(r.index, r), threading.Event())
    assert inline == every                           # the same results whatever the workers


@pytest.mark.parametrize(("field", "value", "message"), [
    ("#lab-matches", "0", "matches per pair"), ("#lab-workers", "x", "workers"), ("#lab-turns", "", "max turns"),
])
def test_a_bad_field_is_a_message(field: str, value: str, message: str) -> None:
    app = LabApp()
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        lab = app.screen
        assert isinstance(lab, LabScreen)
        lab.query_one(field, Input).value = value
        await pilot.press("ctrl+r")
        out["status"] = status(lab)
        out["running"] = lab.running

    run_app(app, body)
    assert message in out["status"] and "✗" in out["status"] and not out["running"]


def test_the_start_screen_opens_the_lab_and_esc_comes_back(tmp_path: Path) -> None:
    app = C1KApp(mode="start", start=StartChoice("ironbound", "emberfall", 9, "p1", "p2", False, False, "stops"),
                 autosave=tmp_path / "a.json")
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        await pilot.press("f4")
        await pilot.pause()
        out["lab"] = type(app.screen).__name__
        await pilot.press("escape")
        await pilot.pause()
        out["back"] = isinstance(app.screen, StartScreen)

    run_app(app, body)
    assert out["lab"] == "LabScreen" and out["back"]


SIZES = {"120x40": (120, 40), "80x24": (80, 24)}


@pytest.mark.parametrize("size", list(SIZES), ids=list(SIZES))
def test_lab_results_snapshot(snap_compare: Any, size: str) -> None:
    async def run(pilot: Any) -> None:
        lab = pilot.app.screen
        fill(lab, matches="2", turns="4")
        await pilot.press("ctrl+r")
        await wait_done(pilot, lab)
        await pilot.pause()

    assert snap_compare(LabApp(), terminal_size=SIZES[size], run_before=run)


# ---- issue 20 item 6: deck files and own cards, plots that fit, selection by glyph, save that asks


def lines_of(parts: list[Any], width: int) -> list[str]:
    console = Console(width=width, record=True, file=io.StringIO())
    console.print(Group(*parts), crop=False)
    return console.export_text().splitlines()


def test_marked_decks_show_a_check_glyph_and_unmarked_a_blank_box() -> None:
    app = LabApp()
    out: dict[str, list[str]] = {}

    async def body(pilot: Any) -> None:
        box = app.screen.query_one("#lab-decks", SelectionList)
        out["rows"] = [box.render_line(y).text for y in range(3)]

    run_app(app, body)
    marked = {r.split("▌", 1)[1].strip(): r.split("▌", 1)[0] for r in out["rows"]}
    assert marked["emberfall"].endswith("✓") and marked["ironbound"].endswith("✓")
    assert marked["veil-masquerade"].endswith(" ") and "✓" not in marked["veil-masquerade"]


@pytest.mark.parametrize("size", list(SIZES), ids=list(SIZES))
def test_plots_and_tables_fit_the_panel(size: str) -> None:
    app = LabApp()
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        lab = app.screen
        assert isinstance(lab, LabScreen)
        fill(lab)
        await pilot.press("ctrl+r")
        await wait_done(pilot, lab)
        await pilot.pause()
        out["panel"] = lab.query_one("#lab-results", Static).size.width
        # the plots are lines of fixed width (they are cropped, never wrapped, by the panel): each must fit
        out["lines"] = [ln for part in lab.shown if isinstance(part, Text) for ln in part.plain.splitlines()]
        out["tables"] = lines_of([p for p in lab.shown if not isinstance(p, Text)], out["panel"])

    run_app(app, body, SIZES[size])
    widest = max(len(line.rstrip()) for line in out["lines"])
    assert any("Win rate vs the field" in line for line in out["lines"])
    assert widest <= out["panel"], (widest, out["panel"])
    assert max(len(line.rstrip()) for line in out["tables"]) <= out["panel"]


def test_deck_files_and_own_cards_join_a_run(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    (tmp_path / "mine.toml").write_text(
        '[[card]]\nid = "test-lab-imp"\nname = "Lab Imp"\ntype = "unit"\nrealm = "neutral"\ncost = 1\n'
        'speed = "slow"\npower = 1\nhealth = 1\n', encoding="utf-8")
    deck = tmp_path / "imps.toml"
    deck.write_text((root / "decks" / "emberfall.toml").read_text(encoding="utf-8").replace(
        '"emberlash" = 3', '"emberlash" = 2\n"test-lab-imp" = 1'), encoding="utf-8")
    app = LabApp()
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        lab = app.screen
        assert isinstance(lab, LabScreen)
        fill(lab, matches="1", turns="3")
        lab.query_one("#lab-files", Input).value = str(tmp_path / "nope.toml")
        lab.query_one("#lab-files", Input).focus()
        await pilot.press("enter")
        out["bad"] = status(lab)
        lab.query_one("#lab-files", Input).value = str(deck)
        await pilot.press("enter")
        out["added"] = status(lab)
        out["selected"] = list(lab.query_one("#lab-decks", SelectionList).selected)
        box = lab.query_one("#lab-decks", SelectionList)
        out["prompts"] = [str(box.get_option_at_index(i).prompt) for i in range(box.option_count)]
        await pilot.press("ctrl+r")
        out["no cards"] = status(lab)                   # the imp is unknown without its card file
        lab.query_one("#lab-cards", Input).value = str(tmp_path / "mine.toml")
        await pilot.press("ctrl+r")
        await wait_done(pilot, lab)
        out["report"] = lab.report

    run_app(app, body)
    assert "✗ no deck file" in out["bad"] and "✓ added" in out["added"]
    assert str(deck) in out["selected"]
    assert f"Emberfall — {deck}" in out["prompts"]         # the deck's own name, then where it is
    assert "test-lab-imp" in out["no cards"] and "✗" in out["no cards"]
    rep = out["report"]
    assert rep is not None and rep["matches"] == 3 and "imps" in rep["decks"]
    assert "test-lab-imp" in rep["card_set"]["digests"]          # a replay builds the same set, or refuses
    assert [d["id"] for d in rep["card_set"]["defs"]] == ["test-lab-imp"]


def test_save_asks_before_replacing_and_no_keeps_the_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "lab-results.cards.csv").write_text("mine\n", encoding="utf-8")
    app = LabApp()
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        from c1k_tui.screens.confirm_modal import ConfirmModal
        from c1k_tui.screens.save_dialog import AskPathModal

        lab = app.screen
        assert isinstance(lab, LabScreen)
        fill(lab)
        await pilot.press("ctrl+r")
        await wait_done(pilot, lab)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, AskPathModal)
        out["offered"] = app.screen.query_one(Input).value
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmModal)      # one of the four files is there
        await pilot.press("n")
        await pilot.pause()
        out["kept"] = (tmp_path / "lab-results.cards.csv").read_text(encoding="utf-8")
        out["json after no"] = (tmp_path / "lab-results.json").exists()
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        out["status"] = status(lab)

    run_app(app, body)
    assert out["offered"] == "lab-results.json"
    assert out["kept"] == "mine\n" and out["json after no"] is False
    assert "✓ saved" in out["status"]
    assert (tmp_path / "lab-results.cards.csv").read_text(encoding="utf-8") != "mine\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lab-results.cards.csv", "lab-results.csv",
                                                          "lab-results.json", "lab-results.matches.csv"]


def test_f5_builds_a_deck_and_the_saved_file_joins_the_list_marked(tmp_path: Path) -> None:
    from c1k_tui.screens.deck_builder import DeckBuilderScreen
    from c1k_tui.screens.save_dialog import AskPathModal

    root = Path(__file__).resolve().parents[2]
    app = LabApp()
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        lab = app.screen
        await pilot.press("f5")
        await pilot.pause()
        b = app.screen
        assert isinstance(b, DeckBuilderScreen)
        assert b.load(root / "decks" / "emberfall.toml")
        b.refresh_deck()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, AskPathModal)
        app.screen.query_one(Input).value = str(tmp_path / "copy.toml")
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is lab
        out["selected"] = list(lab.query_one("#lab-decks", SelectionList).selected)

    run_app(app, body, (80, 24))
    assert str(tmp_path / "copy.toml") in out["selected"]


# ---- issue 30 item 2: A/B in the Lab, a match list that opens the replay, PgDn


async def ran(pilot: Any, app: LabApp) -> LabScreen:
    """The Lab after a tiny run (2 random matches of 4 turns at most)."""
    lab = app.screen
    assert isinstance(lab, LabScreen)
    fill(lab)
    await pilot.press("ctrl+r")
    await wait_done(pilot, lab)
    return lab


def test_compare_mode_gives_the_compare_section_of_c1k_simulate_compare() -> None:
    """Old and new list against the marked decks: the same library call as `c1k simulate --compare OLD NEW
    --field F`, so the same pairs and the same paired interval."""
    from textual.widgets import Checkbox

    app = LabApp()
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        lab = app.screen
        assert isinstance(lab, LabScreen)
        fill(lab)
        box = lab.query_one("#lab-decks", SelectionList)
        box.deselect_all()
        box.select("veil-masquerade")                    # the field
        lab.query_one("#lab-compare", Checkbox).value = True
        await pilot.press("ctrl+r")
        out["unset"] = status(lab)                        # old and new not chosen yet
        lab.query_one("#lab-old", Select).value = "ironbound"
        lab.query_one("#lab-new", Select).value = "emberfall"
        await pilot.press("ctrl+r")
        await wait_done(pilot, lab)
        out["report"] = lab.report
        out["results"] = rendered(lab.shown)

    run_app(app, body)
    assert "choose the old list and the new list" in out["unset"]
    every, old, new, fld = sim.resolve_compare("ironbound", "emberfall", ["veil-masquerade"], [])
    pairs, jobs = sim.plan_compare(old, new, fld, "random", "random", 2, 1, 4)
    same = sim.run(pairs, jobs, sim.InlineBackend())
    want = sim.compare_section(same, old.label, new.label, "random")
    rep = out["report"]
    assert rep["pairs"] == same["pairs"] and rep["compare"] == want
    assert rep["run"]["compare"] == ["ironbound", "emberfall"]
    assert "paired" in out["results"].lower()


def test_enter_on_a_match_opens_its_replay_and_esc_comes_back() -> None:
    from textual.widgets import OptionList

    from c1k_tui.screens.replay import ReplayScreen

    app = LabApp()
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        lab = await ran(pilot, app)
        games = lab.query_one("#lab-games", OptionList)
        out["rows"] = [str(games.get_option_at_index(i).prompt) for i in range(games.option_count)]
        games.focus()
        games.highlighted = 1
        await pilot.press("enter")
        for _ in range(200):
            await pilot.app.workers.wait_for_complete()
            await pilot.pause()
            if isinstance(app.screen, ReplayScreen):
                break
        out["screen"] = app.screen
        await pilot.press("escape")
        await pilot.pause()
        out["back"] = type(app.screen).__name__

    run_app(app, body)
    rows = out["rows"]
    assert len(rows) == 2 and rows[0].lstrip().startswith("1 ") and rows[1].lstrip().startswith("2 ")
    assert "(p1, random)" in rows[1] and "(p2, random)" in rows[1] and "turns" in rows[1]
    screen = out["screen"]
    assert isinstance(screen, ReplayScreen)
    rep = sim.run(*sim.plan(sim.resolve_decks(["emberfall", "ironbound"], False), "random", "random", 2, 1, 4),
                  sim.InlineBackend())
    assert screen.record.seed == int(rep["games"][1]["seed"])        # match 2, played again from its seed
    assert screen.good == len(screen.record.commands)              # every recorded hash replays
    assert out["back"] == "LabScreen"


def test_pgdn_scrolls_the_results_wherever_the_focus_is() -> None:
    from textual.containers import VerticalScroll

    app = LabApp()
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        lab = await ran(pilot, app)
        box = lab.query_one("#lab-box", VerticalScroll)
        box.scroll_home(animate=False)
        await pilot.pause()
        lab.query_one("#lab-decks", SelectionList).focus()
        out["before"] = box.scroll_y
        await pilot.press("pagedown")
        await pilot.pause()
        out["down"] = box.scroll_y
        await pilot.press("pageup")
        await pilot.pause()
        out["up"] = box.scroll_y

    run_app(app, body, (120, 40))
    assert out["before"] == 0 and out["down"] > 20 and out["up"] == 0, out
