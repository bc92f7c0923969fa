"""The Lab (start screen → Lab, F4): `c1k simulate` in the app.

Choose decks (or all) — or, to compare two lists (A/B), the old and the new one against the marked decks —, the agent of each side and its level, matches per pair, workers, seed and turn
limit, and deck files and own card files besides the bundled decks (F5 opens the deck builder; a deck
it saves joins the list, marked); Run plays the matches in a worker thread (with 2+ workers, on a process pool) with a progress bar
and an ETA, the screen staying live; Cancel stops it cleanly (the pool's processes are ended; with one
worker, after the match being played) and shows the results so far. The results are the same as
`c1k simulate`'s — the win-rate matrix with Wilson 95% intervals, first-player rate, ratings, card
statistics and the terminal plots, sized to the panel; with A/B, the paired difference as `c1k simulate
--compare` reports it — then a list of every match (who sat where, who won and how), where Enter plays
one again from its seed and opens it in the replay; PgUp/PgDn scroll the page wherever the focus is.
Save asks for a path, asks again before replacing a file, and writes the JSON report (sealed, as `c1k
simulate --json` writes it) and the CSV files beside it, each atomically.
"""

from __future__ import annotations

import json
import os
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
from textual.widgets import (
    Button,
    Checkbox,
    Input,
    Label,
    OptionList,
    ProgressBar,
    Select,
    SelectionList,
    Static,
)
from textual.widgets._toggle_button import ToggleButton

from c1k_tui.model.cardset import join_paths, split_paths
from c1k_tui.model.jsonout import csv_files
from c1k_tui.screens.controls import GlyphCheckbox, KeysFooter
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
    """The JSON report at `path` and its CSV files beside it (sim.write_csv's names), by the one write policy
    (engine/safeio.py): each written atomically; none of them if any is a device, FIFO, folder or link. The
    screen asked before replacing a file (that is the --force)."""
    from engine.safeio import place_refusal, write_atomic

    for f in report_files(path):
        refused = place_refusal(f)
        if refused is not None:
            raise refused
    write_atomic(path, json.dumps(sim.seal_report(report), indent=1, sort_keys=True) + "\n", "reports", force=True)
    return [path, *sim.write_csv(report, path.with_suffix(".csv"), force=True)]


def report_files(path: Path) -> list[Path]:
    """The files a save to `path` writes (the JSON, then the CSVs), to ask before replacing any of them."""
    return [path, *csv_files(path.with_suffix(".csv"))]


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
    #: A/B (`c1k simulate --compare OLD NEW`): the two lists; the marked decks are then the field (none
    #: marked: every bundled deck but OLD's and NEW's)
    compare: tuple[str, str] | None = None


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
    LabScreen #lab-games { height: auto; max-height: 12; }
    LabScreen #lab-games-label { margin: 1 0 0 0; }
    LabScreen #lab-status { height: auto; margin: 1 0 0 0; }
    """
    BINDINGS = [Binding("ctrl+r", "run", "run"), Binding("escape", "back", "cancel / back"),
                Binding("ctrl+s", "save", "save JSON+CSV"), Binding("f5", "builder", "deck builder"),
                # (priority: the deck list and the match list would take PgUp/PgDn for themselves)
                Binding("pagedown", "page(1)", "page down", show=False, priority=True),
                Binding("pageup", "page(-1)", "page up", show=False, priority=True)]

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
        self.compared: tuple[str, str] | None = None                   # A/B: the labels of OLD and NEW

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
            yield GlyphCheckbox("compare two lists (A/B): old and new, each against the marked decks",
                                value=False, id="lab-compare")
            with Horizontal(classes="lab-row"):
                yield Label("old list", classes="lab-label")
                yield Select([(n, n) for n in self.deck_names], prompt="(compare: the old list)", id="lab-old")
                yield Label("new list", classes="lab-label")
                yield Select([(n, n) for n in self.deck_names], prompt="(compare: the new list)", id="lab-new")
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
            yield Label("Matches — Enter opens one in the replay (played again from its seed)", id="lab-games-label")
            yield OptionList(id="lab-games")
            with Horizontal(classes="save-row"):
                yield Button("Save… (ctrl+s)", id="lab-save-button")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one("#lab-progress", ProgressBar).display = False
        self.query_one("#lab-games", OptionList).display = False
        self.query_one("#lab-games-label", Label).display = False
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
        compare: tuple[str, str] | None = None
        if self.query_one("#lab-compare", Checkbox).value:
            old, new = (self.query_one(f"#lab-{w}", Select).value for w in ("old", "new"))
            if not isinstance(old, str) or not isinstance(new, str):
                raise ValueError("compare: choose the old list and the new list")
            if old == new:
                raise ValueError("compare: the old and the new list are the same deck")
            compare = (old, new)
        elif not all_decks and (len(decks) < 2 and opp == agent or not decks):
            raise ValueError("mark at least two decks (or one deck with a different opponent agent)")
        cards = tuple(split_paths(self.query_one("#lab-cards", Input).value))
        for c in cards:
            if not Path(c).expanduser().exists():
                raise ValueError(f"own cards: no such card file or folder '{c}'")
        return LabSetup(decks, all_decks, agent, opp, number("matches", "matches per pair", 1, 10_000),
                        number("workers", "workers", 1, 256), number("seed", "seed", 0, 2**63),
                        number("turns", "max turns", 1, 10_000), cards, compare)

    # ---------------------------------------------------------------- running

    def action_run(self) -> None:
        if self.running:
            return
        try:
            st = self.setup()
            own = [Path(c).expanduser() for c in st.cards]
            compared: tuple[str, str] | None = None
            if st.compare is not None:     # the library `c1k simulate --compare` calls
                field_names = None if st.all_decks else [d for d in st.decks if d not in st.compare] or None
                deck_list, old, new, fld = sim.resolve_compare(st.compare[0], st.compare[1], field_names, own)
                card_files = sim.own_card_files(own, deck_list)
                pairs, jobs = sim.plan_compare(old, new, fld, st.agent, st.opponent, st.matches, st.seed,
                                               st.max_turns, card_files)
                compared = (old.label, new.label)
            else:
                deck_list = sim.resolve_decks(st.decks, st.all_decks, own)
                card_files = sim.own_card_files(own, deck_list)
                pairs, jobs = sim.plan(deck_list, st.agent, st.opponent, st.matches, st.seed, st.max_turns,
                                       card_files)
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
        self.deck_list, self.card_files, self.compared = deck_list, card_files, compared
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
            if self.compared is not None:
                report["compare"] = sim.compare_section(report, self.compared[0], self.compared[1], st.agent)
            report["run"] = {"seed": st.seed, "agent": st.agent, "opponent": st.opponent,
                             "matches_per_pair": st.matches, "backend": "lab", "workers": st.workers,
                             "max_turns": st.max_turns, "complete": finished, "cards": list(st.cards),
                             "compare": list(st.compare) if st.compare else None}
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
        games = self.query_one("#lab-games", OptionList)
        if self.report is None:
            self.query_one("#lab-results", Static).update("")
            games.display = self.query_one("#lab-games-label", Label).display = False
            return
        if games.option_count != len(self.report.get("games") or []):
            games.clear_options()
            games.add_options([match_line(g, self.report.get("decks") or {}) for g in self.report.get("games") or []])
        games.display = self.query_one("#lab-games-label", Label).display = bool(games.option_count)
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

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter on a match: play it again from its seed, decks and agents, and open it in the replay."""
        event.stop()
        if self.report is None or event.option_list.id != "lab-games":
            return
        games = self.report.get("games") or []
        if not 0 <= event.option_index < len(games):
            return
        self.open_match(int(games[event.option_index]["match"]))

    def open_match(self, n: int) -> None:
        report = self.report
        if report is None:
            return
        self._status(f"playing match {n} again…")

        def work() -> None:
            try:
                db = sim.report_card_db(report, "the Lab's results")
                record = sim.replay_match(report, n, "the Lab's results")
            except sim.SimulateError as err:
                msg = str(err)
                self.app.call_from_thread(lambda: self._status(Text(f"✗ {msg}", style="bold red")))
                return
            self.app.call_from_thread(lambda: self._open_replay(record, db, n))

        self.run_worker(work, thread=True, exit_on_error=False, group="lab-replay")

    def _open_replay(self, record: Any, db: Any, n: int) -> None:
        from c1k_tui.screens.replay import ReplayScreen

        self._status(f"match {n}: the replay (q or Esc comes back)")
        self.app.push_screen(ReplayScreen(record, db, back=True))

    def action_page(self, d: int) -> None:
        box = self.query_one("#lab-box", VerticalScroll)
        if d > 0:
            box.scroll_page_down(animate=False)
        else:
            box.scroll_page_up(animate=False)

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
            from engine.safeio import place_refusal

            there = [p for p in report_files(path) if p.exists()]
            if not there or any(place_refusal(p) for p in report_files(path)):   # never asked: refused
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
                box.add_option((f"{deck_file_name(Path(p).expanduser())} — {p}", p, True))
            else:
                box.select(p)
        names = [str(box.get_option_at_index(i).value) for i in range(box.option_count)]
        for w in ("old", "new"):     # the A/B lists may be any deck of the list
            sel = self.query_one(f"#lab-{w}", Select)
            value = sel.value
            sel.set_options([(n, n) for n in names])
            if isinstance(value, str) and value in names:
                sel.value = value
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


def deck_file_name(path: Path) -> str:
    """A deck file's own name (`[deck] name`), or its file stem when it can't be read: the Lab's list shows
    it before the path (issue #30 item 3)."""
    import tomllib

    try:
        if path.stat().st_size > 2_000_000:        # (no deck is that large: the loader refuses it anyway)
            return path.stem
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):   # (TOMLDecodeError is a ValueError)
        return path.stem
    deck = data.get("deck")
    name = deck.get("name") if isinstance(deck, dict) else None
    return name if isinstance(name, str) and name.strip() else path.stem


def match_line(game: dict[str, Any], decks: dict[str, Any]) -> Text:
    """One row of the Lab's match list: number, who sat where (deck and agent), who won and how."""
    def name(label: str) -> str:
        return str((decks.get(label) or {}).get("name") or label)

    p1, p2 = name(str(game.get("p1", "?"))), name(str(game.get("p2", "?")))
    seat = game.get("winner_seat")
    won = f"{name(str(game.get('winner_deck')))} ({seat}) wins" if seat else "draw"
    return Text(f"{game.get('match', '?'):>4}  {p1} (p1, {game.get('agent_p1', '?')}) vs {p2} (p2, "
                f"{game.get('agent_p2', '?')}) — {won}, {game.get('turns', '?')} turns, "
                f"{str(game.get('termination', '')).replace('_', ' ')}", no_wrap=True, overflow="ellipsis")


__all__ = ["LabScreen", "LabSetup", "deck_file_name", "match_line", "run_jobs"]
