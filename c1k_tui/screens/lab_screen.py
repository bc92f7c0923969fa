"""The Lab (start screen → Lab, F4): `c1k simulate` in the app.

Choose decks (or all), the agent of each side and its level, matches per pair, workers, seed and turn
limit, and deck files and own card files besides the bundled decks (F5 opens the deck builder; a deck
it saves joins the list, marked); Run plays the matches in a worker thread (with 2+ workers, on a process pool) with a progress bar
and an ETA, the screen staying live; Cancel stops it cleanly (the pool's processes are ended; with one
worker, after the match being played) and shows the results so far. The results are the same as
`c1k simulate`'s — the win-rate matrix with Wilson 95% intervals, first-player rate, ratings, card
statistics and the terminal plots, sized to the panel — and Save asks for a path, asks again before
replacing a file, and writes the JSON report (and the CSV files beside it), each atomically.
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Group
from rich.segment import Segment
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.strip import Strip
from textual.widgets import Button, Checkbox, Footer, Input, Label, ProgressBar, Select, SelectionList, Static
from textual.widgets._toggle_button import ToggleButton

from c1k_tui.model.cardset import join_paths, split_paths
from c1k_tui.screens.controls import GlyphCheckbox
from c1k_tui.sim import simulate as sim
from engine import CardFileError

AGENTS: tuple[tuple[str, str], ...] = (
    ("greedy (one-ply lookahead)", "greedy"), ("random", "random"), ("search level 1 (quick)", "search:1"),
    ("search level 2 (default)", "search:2"), ("search level 3", "search:3"), ("search level 4 (slow)", "search:4"),
)
SAME = "same"


class GlyphSelectionList(SelectionList[str]):
    """A selection list whose marked rows show ✓ and unmarked ones a blank box — not by colour alone."""

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        segs = list(strip)
        for i, seg in enumerate(segs):
            meta = seg.style.meta if seg.style is not None else {}
            if seg.text == ToggleButton.BUTTON_INNER and "option" in meta:
                value = self.get_option_at_index(int(meta["option"])).value
                segs[i] = Segment("✓" if value in self.selected else " ", seg.style)
                break
        return Strip(segs, strip.cell_length)


def save_report(report: dict[str, Any], path: Path) -> list[Path]:
    """The JSON report at `path` and its CSV files beside it (sim.write_csv's names), each written to a
    temporary file in the same folder and then renamed over the old one: a failed save leaves what was there."""
    folder = path.parent if str(path.parent) else Path(".")
    with tempfile.TemporaryDirectory(dir=folder, prefix=".lab-save-") as tmp:
        staged = Path(tmp) / path.name
        staged.write_text(json.dumps(report, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        files = [staged, *sim.write_csv(report, staged.with_suffix(".csv"))]
        out = []
        for f in files:
            os.replace(f, folder / f.name)
            out.append(folder / f.name)
    return out


def report_files(path: Path) -> list[Path]:
    """The files a save to `path` writes (the JSON, then the CSVs), to ask before replacing any of them."""
    stem = path.with_suffix("")
    return [path, path.with_suffix(".csv"), Path(f"{stem}.cards.csv"), Path(f"{stem}.matches.csv")]


@dataclass(frozen=True)
class LabSetup:
    decks: tuple[str, ...]       # bundled names or files ("all" in `all_decks`)
    all_decks: bool
    agent: str
    opponent: str
    matches: int
    workers: int
    seed: int
    max_turns: int
    cards: tuple[str, ...] = field(default=())      # own card files or folders


def run_jobs(jobs: Sequence[sim.Job], workers: int, done: Callable[[sim.JobResult], None],
             cancelled: threading.Event, job: Callable[[sim.Job], sim.JobResult] | None = None) -> bool:
    """Play `jobs` (one worker: here, one after another; more: a process pool), calling `done` for each
    result; stop when `cancelled` is set (the pool's processes are terminated). True if all were played.
    Results are keyed by job index, so the report doesn't depend on the order they arrive in."""
    play = job or sim.run_job
    if workers <= 1 or len(jobs) <= 1:
        for j in jobs:
            if cancelled.is_set():
                return False
            done(play(j))
        return not cancelled.is_set()
    import multiprocessing as mp

    # fork, as `c1k simulate`'s LocalBackend (the children only play matches); spawn under Textual fails
    # (its stderr has no file descriptor for the resource tracker)
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context("spawn")
    pool = ctx.Pool(min(workers, len(jobs)))
    try:
        it = pool.imap_unordered(play, jobs)
        left = len(jobs)
        while left:
            if cancelled.is_set():
                return False
            try:
                r = it.next(timeout=0.2)
            except mp.TimeoutError:
                continue
            done(r)
            left -= 1
        return True
    finally:
        pool.terminate()
        pool.join()


class LabScreen(Screen[None]):
    """Set up a simulation, run it with progress, read and save the results."""

    AUTO_FOCUS = ""
    DEFAULT_CSS = """
    LabScreen #lab-box { padding: 0 2; }
    LabScreen .decks-row { height: auto; }
    LabScreen #lab-decks { height: 7; width: 1fr; }
    LabScreen Checkbox { border: none; padding: 0 1; }
    LabScreen .lab-row { height: 3; }
    LabScreen .lab-label { width: 11; padding-top: 1; }
    LabScreen .lab-row Input { width: 14; }
    LabScreen .lab-row #lab-files, LabScreen .lab-row #lab-cards { width: 1fr; }
    LabScreen .lab-row Select { width: 44; }
    LabScreen #lab-results { height: auto; }
    LabScreen #lab-status { height: auto; margin: 1 0 0 0; }
    """
    BINDINGS = [Binding("ctrl+r", "run", "run"), Binding("escape", "back", "cancel / back"),
                Binding("ctrl+s", "save", "save JSON+CSV"), Binding("f5", "builder", "deck builder")]

    def __init__(self, decks: list[str], workers: int | None = None, cards: list[str] | None = None) -> None:
        super().__init__()
        self.deck_names = decks
        self.own_cards = list(cards or [])
        self.default_workers = workers or min(2, os.cpu_count() or 1)
        self.cancelled = threading.Event()
        self.running = False
        self.report: dict[str, Any] | None = None
        self.total = 0
        self.done_count = 0
        self.job: Callable[[sim.Job], sim.JobResult] | None = None     # tests: a stand-in for run_job
        self.shown: list[Any] = []                                     # the results on screen (renderables)
        self.save_path = "lab-results.json"                            # offered when saving
        self.deck_list: list[sim.DeckRef] = []
        self.card_files: tuple[str, ...] = ()

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="lab-box"):
            yield Static(Text("The Lab — simulate matches between decks and agents", style="bold"))
            yield Static("Tab moves; Space marks decks (✓); ctrl+r runs, Esc cancels (or goes back), ctrl+s saves; "
                         "F5 builds a deck.", classes="dim")
            with Horizontal(classes="decks-row"):
                yield Label("decks", classes="lab-label")
                yield GlyphSelectionList(*[(n, n, n in ("ironbound", "emberfall")) for n in self.deck_names],
                                         id="lab-decks")
            with Horizontal(classes="lab-row"):
                yield Label("deck files", classes="lab-label")
                yield Input(placeholder="paths to deck files; Enter adds them to the list, marked", id="lab-files")
            with Horizontal(classes="lab-row"):
                yield Label("own cards", classes="lab-label")
                yield Input(value=join_paths(self.own_cards), id="lab-cards",
                            placeholder="card files or folders (a deck's own card_files load by themselves)")
            yield GlyphCheckbox("all bundled decks", value=False, id="lab-all")
            with Horizontal(classes="lab-row"):
                yield Label("agent", classes="lab-label")
                yield Select(list(AGENTS), value="greedy", allow_blank=False, id="lab-agent")
            with Horizontal(classes="lab-row"):
                yield Label("opponent", classes="lab-label")
                yield Select([("the same agent", SAME), *AGENTS], value=SAME, allow_blank=False, id="lab-opponent")
            with Horizontal(classes="lab-row"):
                yield Label("matches", classes="lab-label")
                yield Input(value="4", type="integer", id="lab-matches", placeholder="matches per pair")
                yield Label("workers", classes="lab-label")
                yield Input(value=str(self.default_workers), type="integer", id="lab-workers")
            with Horizontal(classes="lab-row"):
                yield Label("seed", classes="lab-label")
                yield Input(value="1", type="integer", id="lab-seed")
                yield Label("max turns", classes="lab-label")
                yield Input(value=str(sim.DEFAULT_MAX_TURNS), type="integer", id="lab-turns")
            with Horizontal(classes="buttons"):
                yield Button("Run (ctrl+r)", id="lab-run", variant="primary")
                yield Button("Cancel (esc)", id="lab-cancel", disabled=True)
                yield Button("Back", id="lab-back")
            yield ProgressBar(total=None, show_eta=True, id="lab-progress")
            yield Static(id="lab-status")
            yield Static(id="lab-results")
            with Horizontal(classes="save-row"):
                yield Button("Save… (ctrl+s)", id="lab-save-button")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#lab-progress", ProgressBar).display = False
        self.query_one("#lab-decks", SelectionList).focus()

    # ---------------------------------------------------------------- reading the form

    def setup(self) -> LabSetup:
        """The form as a LabSetup; ValueError names the field that is wrong."""
        decks = tuple(str(x) for x in self.query_one("#lab-decks", SelectionList).selected)
        all_decks = self.query_one("#lab-all", Checkbox).value

        def number(field: str, what: str, low: int, high: int) -> int:
            text = self.query_one(f"#lab-{field}", Input).value.strip()
            if not text.lstrip("-").isdigit() or not low <= int(text) <= high:
                raise ValueError(f"{what}: a whole number from {low} to {high}")
            return int(text)

        agent = str(self.query_one("#lab-agent", Select).value)
        opp = str(self.query_one("#lab-opponent", Select).value)
        opp = agent if opp == SAME else opp
        if not all_decks and (len(decks) < 2 and opp == agent or not decks):
            raise ValueError("mark at least two decks (or one deck with a different opponent agent)")
        cards = tuple(split_paths(self.query_one("#lab-cards", Input).value))
        for c in cards:
            if not Path(c).expanduser().exists():
                raise ValueError(f"own cards: no such card file or folder '{c}'")
        return LabSetup(decks, all_decks, agent, opp, number("matches", "matches per pair", 1, 10_000),
                        number("workers", "workers", 1, 256), number("seed", "seed", 0, 2**63),
                        number("turns", "max turns", 1, 10_000), cards)

    # ---------------------------------------------------------------- running

    def action_run(self) -> None:
        if self.running:
            return
        try:
            st = self.setup()
            own = [Path(c).expanduser() for c in st.cards]
            deck_list = sim.resolve_decks(st.decks, st.all_decks, own)
            card_files = sim.own_card_files(own, deck_list)
            pairs, jobs = sim.plan(deck_list, st.agent, st.opponent, st.matches, st.seed, st.max_turns, card_files)
        except (ValueError, sim.SimulateError, CardFileError) as err:
            self._status(Text(f"✗ {err}", style="bold red"))
            return
        self.running = True
        self.cancelled.clear()
        self.report = None
        self.total, self.done_count = len(jobs), 0
        bar = self.query_one("#lab-progress", ProgressBar)
        bar.display = True
        bar.update(total=len(jobs), progress=0)
        self.query_one("#lab-results", Static).update("")
        self.query_one("#lab-run", Button).disabled = True
        self.query_one("#lab-cancel", Button).disabled = False
        self._status(f"running {len(jobs)} matches ({len(pairs)} pairs × {st.matches}) on {st.workers} worker(s)…")
        self.deck_list, self.card_files = deck_list, card_files
        self.run_worker(lambda: self._work(st, pairs, jobs), thread=True, exit_on_error=False, group="lab")

    def _work(self, st: LabSetup, pairs: Sequence[tuple[sim.Entry, sim.Entry]], jobs: Sequence[sim.Job]) -> None:
        results: dict[int, sim.JobResult] = {}

        def done(r: sim.JobResult) -> None:
            results[r.index] = r
            self.app.call_from_thread(self._advance)

        try:
            finished = run_jobs(jobs, st.workers, done, self.cancelled, self.job)
            played = [j for j in jobs if j.index in results]
            report = sim.summarize(pairs, played, results) if played else None
        except Exception as err:  # noqa: BLE001 - shown on the screen, never a traceback
            msg = f"{type(err).__name__}: {err}"
            self.app.call_from_thread(lambda: self._finish(None, False, st, msg))
            return
        self.app.call_from_thread(lambda: self._finish(report, finished, st, ""))

    def _advance(self) -> None:
        self.done_count += 1
        self.query_one("#lab-progress", ProgressBar).advance(1)

    def _finish(self, report: dict[str, Any] | None, finished: bool, st: LabSetup, error: str) -> None:
        self.running = False
        self.query_one("#lab-run", Button).disabled = False
        self.query_one("#lab-cancel", Button).disabled = True
        self.query_one("#lab-progress", ProgressBar).display = False
        if error:
            self._status(Text(f"✗ the simulation stopped: {error}", style="bold red"))
            return
        if report is not None:
            from engine.cardset import manifest

            # as `c1k simulate` writes them: the decks' lists and the cards used, so `c1k replay` can open a match
            report["decks"] = sim.deck_table(self.deck_list)
            report["card_set"] = manifest(sim._card_db(self.card_files),
                                          [cid for d in self.deck_list for cid, _ in d.cards]
                                          + [x for d in self.deck_list for x in (d.champion, d.seat)])
            report["run"] = {"seed": st.seed, "agent": st.agent, "opponent": st.opponent,
                             "matches_per_pair": st.matches, "backend": "lab", "workers": st.workers,
                             "max_turns": st.max_turns, "complete": finished, "cards": list(st.cards)}
        self.report = report
        n = report["matches"] if report is not None else 0
        if finished:
            self._status(Text(f"done: {n} matches · {st.agent} vs {st.opponent} · seed {st.seed} — ctrl+s saves",
                              style="bold"))
        else:
            self._status(Text(f"cancelled after {n} of {self.total} matches" +
                              (" — the results below are of those only" if n else ""), style="bold"))
        self.show_results()
        # once the results are laid out: scroll them into view, the status line at the top
        self.call_after_refresh(lambda: self.query_one("#lab-status", Static).scroll_visible(top=True,
                                                                                               animate=False))

    def show_results(self) -> None:
        if self.report is None:
            self.query_one("#lab-results", Static).update("")
            return
        # tables and plots fit the panel: the screen less the box's padding and the scroll bar the results
        # bring (the panel's width now may be from before they were shown, without the scroll bar)
        box = self.query_one("#lab-box", VerticalScroll)
        room = self.size.width - box.styles.padding.width - box.styles.scrollbar_size_vertical
        panel = self.query_one("#lab-results", Static).size.width
        width = max(40, min(room, panel if panel > 40 else room) - 1)
        parts: list[Any] = sim.report_renderables(self.report, top_cards=8, width=width)
        try:
            parts += [Text.from_ansi(chart, no_wrap=True, overflow="crop")
                      for chart in sim.report_plots(self.report, width)]
        except ImportError:           # an environment installed before plotext was a dependency
            parts.append(Text("(no plots: plotext is not installed — pip install -e . installs it)"))
        self.shown = parts
        self.query_one("#lab-results", Static).update(Group(*parts))

    def on_resize(self) -> None:
        if self.report is not None:
            self.call_after_refresh(self.show_results)

    def _status(self, msg: str | Text) -> None:
        self.query_one("#lab-status", Static).update(msg)

    # ---------------------------------------------------------------- keys and buttons

    def action_back(self) -> None:
        if self.running:
            self.cancel()
            return
        self.dismiss(None)

    def cancel(self) -> None:
        if self.running:
            self.cancelled.set()
            self._status(Text("cancelling…", style="bold"))

    def action_save(self) -> None:
        if self.report is None:
            self._status(Text("nothing to save yet: run a simulation first", style="bold red"))
            return
        from c1k_tui.screens.confirm_modal import ConfirmModal
        from c1k_tui.screens.save_dialog import AskPathModal

        def got(text: str | None) -> None:
            if text is None:
                return
            path = Path(text).expanduser()
            if path.suffix.lower() != ".json":
                path = path.with_name(path.name + ".json")
            there = [p for p in report_files(path) if p.exists()]
            if not there:
                self.save_to(path)
                return
            self.app.push_screen(ConfirmModal("Overwrite?", "These files exist and would be replaced:\n"
                                              + "\n".join(f"  {p}" for p in there), "Overwrite", "Keep them"),
                                 lambda yes: self.save_to(path) if yes else self._status("not saved"))

        self.app.push_screen(AskPathModal("Save the report as", self.save_path,
                                          "a .json file; the CSV files go beside it (.csv, .cards.csv, "
                                          ".matches.csv); you are asked before a file is replaced"), got)

    def save_to(self, path: Path) -> None:
        assert self.report is not None
        try:
            written = save_report(self.report, path)
        except OSError as err:
            self._status(Text(f"✗ could not save: {err}", style="bold red"))
            return
        self.save_path = str(path)
        self._status(Text("✓ saved " + ", ".join(str(p) for p in written), style="bold"))
        self.query_one("#lab-status", Static).scroll_visible(animate=False)

    def action_builder(self) -> None:
        from c1k_tui.screens.deck_builder import open_builder

        def back(saved: Path | None) -> None:
            if saved is not None:
                self.add_decks([str(saved)])

        open_builder(self.app, back)

    def add_decks(self, paths: Sequence[str]) -> bool:
        """Deck files join the list, marked; a path that isn't a file is a message."""
        box = self.query_one("#lab-decks", SelectionList)
        have = {str(box.get_option_at_index(i).value) for i in range(box.option_count)}
        bad = [p for p in paths if not Path(p).expanduser().is_file()]
        if bad:
            self._status(Text(f"✗ no deck file {', '.join(bad)}", style="bold red"))
            return False
        for p in paths:
            if p not in have:
                box.add_option((p, p, True))
            else:
                box.select(p)
        self._status(f"✓ added {', '.join(paths)} to the decks (marked)")
        return True

    def on_button_pressed(self, event: Button.Pressed) -> None:
        bid = event.button.id
        if bid == "lab-run":
            self.action_run()
        elif bid == "lab-cancel":
            self.cancel()
        elif bid == "lab-back":
            self.action_back()
        elif bid == "lab-save-button":
            self.action_save()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.input.id == "lab-files":
            try:
                paths = split_paths(event.value)
            except ValueError as err:
                self._status(Text(f"✗ {err}", style="bold red"))
                return
            if paths and self.add_decks(paths):
                event.input.value = ""
            return
        self.action_run()


__all__ = ["LabScreen", "LabSetup", "run_jobs"]
