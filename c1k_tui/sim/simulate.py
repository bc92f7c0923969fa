"""`c1k simulate`: deck against deck, agent against agent, many matches — on a process pool or Ray.

A deck is what it contains: two lists with the same file name are two rows (labelled by path), and a
pair's seeds come from its decks' contents and agents (a digest of each list), never from where they
were named — so listing the decks in another order, or adding one, changes no pair's matches. Every
match is a job named by (pair, index) with its own StateSeed derived from `--seed` and the pair; a
worker plays it and returns a small result. Results are gathered by job index, never in arrival
order, so the same seeds give the same results whatever the number of workers or the backend. The
report lists every match (seed, seats, agents, winner, turns, how it ended): `c1k replay REPORT
--match N` plays one again from its seed and agents.

`--compare OLD NEW` plays both lists against the same field on the same seeds and seats, and reports
the difference of their win rates with a paired 95% interval, and the cards whose statistics moved.

Win rates count a draw as half a win; their 95% intervals are Wilson score intervals. Ratings are a
Bradley–Terry fit (on the Elo scale: 400·log10 of the strength, mean 0) with standard errors from the
Fisher information; every pair of entries gets one virtual draw so that a perfect record stays finite.

The library is in parts (`c1k_tui.sim`): `jobs` (a match in a worker), `backends` (inline, process
pool, Ray), `stats` (intervals, ratings), `report` (the decks, the plan, the summary, the A/B section,
reading a report back) and `render` (CSV, tables, plots); the command is `c1k_tui/cli/simulate_cmd.py`.
This module gathers their names, for the Lab, the benchmarks and the tests.
"""

from __future__ import annotations

from c1k_tui.sim.backends import (
    RAY_CONNECT_TIMEOUT,
    Backend,
    InlineBackend,
    LocalBackend,
    RayBackend,
    _connect_timeout,
    land,
    make_backend,
    ray_connect,
    ray_endpoint,
    run_shipped,
    ship,
)
from c1k_tui.sim.jobs import (
    _CACHE,
    DEFAULT_MAX_TURNS,
    Job,
    JobResult,
    SimulateError,
    _card_db,
    _load,
    run_job,
    start_job,
)
from c1k_tui.sim.render import (
    CARD_CSV,
    CARD_SORTS,
    MATCH_CSV,
    _csv_head,
    _csv_row,
    _pct,
    _pct_text,
    _points,
    _signed,
    card_table,
    compare_renderables,
    deck_names,
    field_rates,
    interval_plot,
    print_report,
    report_plots,
    report_renderables,
    sorted_cards,
    write_csv,
)
from c1k_tui.sim.report import (
    NAMED_CHANGES,
    REPORT_FORMAT,
    REPORT_VERSION,
    DeckRef,
    Entry,
    _entry,
    _key,
    _rate,
    card_stats,
    compare_section,
    deck_digest,
    deck_table,
    load_report,
    match_number,
    match_range,
    own_card_files,
    pair_seed,
    plan,
    plan_compare,
    replay_match,
    report_card_db,
    resolve_compare,
    resolve_decks,
    run,
    seal_report,
    summarize,
    verify_report,
)
from c1k_tui.sim.stats import (
    Z95,
    _invert,
    _pinv_laplacian,
    bradley_terry,
    diff_interval,
    paired_interval,
    wilson,
)

__all__ = [
    "Backend", "CARD_CSV", "CARD_SORTS", "DEFAULT_MAX_TURNS", "DeckRef", "Entry", "InlineBackend", "Job",
    "JobResult", "LocalBackend", "MATCH_CSV", "NAMED_CHANGES", "RAY_CONNECT_TIMEOUT", "REPORT_FORMAT",
    "REPORT_VERSION", "RayBackend", "SimulateError", "Z95", "_CACHE", "_card_db", "_connect_timeout",
    "_csv_head", "_csv_row", "_entry", "_invert", "_key", "_load", "_pct", "_pct_text", "_pinv_laplacian",
    "_points", "_rate", "_signed", "bradley_terry", "card_stats", "card_table", "compare_renderables",
    "compare_section", "deck_digest", "deck_names", "deck_table", "diff_interval", "field_rates", "interval_plot", "land",
    "load_report", "make_backend", "match_number", "match_range", "own_card_files", "pair_seed",
    "paired_interval", "plan", "plan_compare", "print_report", "ray_connect", "ray_endpoint",
    "replay_match", "report_card_db", "report_plots", "report_renderables", "resolve_compare", "resolve_decks", "run",
    "run_job", "run_shipped", "seal_report", "ship", "sorted_cards", "start_job", "summarize",
    "verify_report", "wilson", "write_csv",
]
