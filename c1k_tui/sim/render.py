"""A simulation report for people: CSV files, Rich tables and terminal plots (plotext)."""

from __future__ import annotations

import csv
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from c1k_tui.sim.stats import wilson

#: the card statistics' sort keys (`--sort`): report field, and whether larger is first
CARD_SORTS: dict[str, tuple[str, bool]] = {
    "iwd": ("iwd", True), "drawn": ("drawn", True), "played": ("played", True), "opening": ("opening", True),
    "win-drawn": ("win_rate_drawn", True), "win-played": ("win_rate_played", True),
    "win-opening": ("win_rate_opening", True), "win-not-drawn": ("win_rate_not_drawn", True),
    "damage": ("damage_per_play", True), "efficiency": ("damage_per_influence", True), "name": ("name", False),
}


CARD_CSV = ["deck", "agent", "card", "name", "copies", "matches", "opening", "opening_pct", "win_rate_opening",
            "ci95_opening", "drawn", "drawn_pct", "win_rate_drawn", "ci95_drawn", "not_drawn", "win_rate_not_drawn",
            "ci95_not_drawn", "iwd", "ci95_iwd", "played", "played_pct", "plays", "win_rate_played", "ci95_played",
            "damage_champions", "damage_units", "damage_per_play", "influence_spent", "damage_per_influence"]
MATCH_CSV = ["match", "pair", "k", "seed", "deck_a", "deck_b", "agent_a", "agent_b", "p1", "p2", "agent_p1",
             "agent_p2", "winner", "winner_deck", "winner_seat", "turns", "actions", "termination", "error"]


def _csv_row(row: dict[str, Any], keys: Sequence[str]) -> list[Any]:
    out: list[Any] = []
    for k in keys:
        v = row.get(k)
        if k.startswith("ci95"):
            out += ["", ""] if v is None else list(v)
        else:
            out.append("" if v is None else v)
    return out


def _csv_head(keys: Sequence[str]) -> list[str]:
    out: list[str] = []
    for k in keys:
        out += [f"{k}_low", f"{k}_high"] if k.startswith("ci95") else [k]
    return out


def write_csv(report: dict[str, Any], path: Path, force: bool = False) -> list[Path]:
    """Pairs to `path`, cards to `<stem>.cards.csv` and matches to `<stem>.matches.csv` next to it."""
    keys = ["deck_a", "deck_b", "agent_a", "agent_b", "matches", "wins_a", "wins_b", "draws", "win_rate_a",
            "ci95_low", "ci95_high", "avg_turns", "path_a", "path_b"]
    from engine.safeio import atomic_text  # the one write policy (atomic, never a device, FIFO, link…)

    with atomic_text(path, "csv", force) as f:
        w = csv.writer(f)
        w.writerow(keys)
        for p in report["pairs"]:
            w.writerow([p[k] for k in keys[:9]] + [p["ci95_a"][0], p["ci95_a"][1], p["avg_turns"],
                                                   p.get("path_a", ""), p.get("path_b", "")])
    written = [path]
    for suffix, rows, ks in ((".cards.csv", report["cards"], CARD_CSV), (".matches.csv", report.get("games", []),
                                                                         MATCH_CSV)):
        p2 = path.with_name(path.stem + suffix)
        with atomic_text(p2, "csv", force) as f:
            w = csv.writer(f)
            w.writerow(_csv_head(ks))
            for row in rows:
                w.writerow(_csv_row(row, ks))
        written.append(p2)
    return written


def sorted_cards(cards: Sequence[dict[str, Any]], sort: str = "iwd") -> list[dict[str, Any]]:
    """Card rows by a CARD_SORTS key (rows without a value last), then deck and card."""
    key, desc = CARD_SORTS[sort]
    have = [c for c in cards if c.get(key) is not None]
    none = [c for c in cards if c.get(key) is None]
    have.sort(key=lambda c: (c["deck"], c["agent"], c["card"]))
    have.sort(key=lambda c: c[key], reverse=desc)
    return have + sorted(none, key=lambda c: (c["deck"], c["agent"], c["card"]))


def _ratio(x: float | None) -> str:
    return "–" if x is None else f"{x:.2f}"


def _pct(rate: float | None, ci: Sequence[float] | None = None) -> str:
    if rate is None:
        return "–"
    return f"{100 * rate:.0f}" + (f" {100 * ci[0]:.0f}–{100 * ci[1]:.0f}" if ci is not None else "")


def _points(x: float) -> str:
    return f"{round(100 * x) + 0:+d}"        # (+ 0: never "-0")


def _signed(d: float | None, ci: Sequence[float] | None = None) -> str:
    if d is None:
        return "–"
    return _points(d) + (f" {_points(ci[0])}…{_points(ci[1])}" if ci is not None else "")


def deck_names(report: dict[str, Any]) -> dict[str, str]:
    """How the tables name each deck of a report: its own name ("Ironbound"), with its label (file stem
    or path) only to tell two decks of the same name apart. A report without its decks table (the
    library's `run` alone) keeps the labels."""
    decks = report.get("decks") or {}
    names = {label: str((d or {}).get("name") or label) for label, d in decks.items()}
    count: dict[str, int] = {}
    for n in names.values():
        count[n] = count.get(n, 0) + 1
    return {label: n if count[n] == 1 else f"{n} ({label})" for label, n in names.items()}


def _named(names: dict[str, str], entry: str) -> str:
    """A deck label, or "label (agent)", with the deck's name in place of its label."""
    if entry in names:
        return names[entry]
    label, sep, agent = entry.rpartition(" (")
    return f"{names[label]} ({agent}" if sep and label in names else entry


def card_table(report: dict[str, Any], top: int | None = None, sort: str = "iwd", width: int = 120) -> Any:
    """The card statistics as a table: every card (or the first `top` by `sort`), each rate in % with its n
    and its Wilson 95% interval; IWD = win rate when drawn − when not drawn (points, Newcombe 95% interval).
    Narrower than 144 columns: without the win rates in the opening hand and when played; narrower than 113,
    without the damage per play and per Influence; narrower than 96, without the win rate when not drawn
    either (they are all in the JSON and CSV)."""
    from rich import box
    from rich.table import Table

    rows = sorted_cards(report["cards"], sort)
    names = deck_names(report)
    agents = {c["agent"] for c in rows}
    decks = {c["deck"] for c in rows}
    wide = width >= 144             # every column
    damage = width >= 113           # and the damage per play and per Influence (the Lab at 120 columns)
    medium = width >= 96            # and the win rate when not drawn
    shown = rows if top is None else rows[:top]
    what = "every card" if top is None or top >= len(rows) else f"the first {top} of {len(rows)}"
    t = Table(title=f"Cards ({what}, by {sort}) — win rates in % with 95% intervals, draws ½; n = matches; "
                    "hand₀ = in the opening hand; drawn includes it; IWD = win drawn − win not drawn"
                    + ("; dmg/play = damage dealt per play, dmg/Inf = per Influence paid for the card" if damage
                       else ""),
              title_justify="left", box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False, collapse_padding=True)
    heads = ["deck"] if len(decks) > 1 or len(agents) > 1 else []
    narrow = width < 76             # a small panel: without the opening hand's count too
    heads += ["card", "n"] + ([] if narrow else ["hand₀"]) + (["win hand₀"] if wide else []) + ["drawn", "win drawn"]
    heads += (["win not drawn"] if medium else []) + ["IWD", "played"]
    heads += ["win played"] if wide else []
    heads += ["dmg/play", "dmg/Inf"] if damage else []
    for head in heads:
        t.add_column(head, justify="left" if head in ("deck", "card") else "right", no_wrap=True,
                     overflow="ellipsis", max_width={"deck": 18 if wide else 12 - 2 * narrow, "card": 22 if wide else 16 - 2 * narrow}.get(head),
                     min_width=6 if head in ("deck", "card") else (12 if head == "IWD" else
                                                                  10 if head.startswith("win") else len(head)))
    for c in shown:
        deck = names.get(c["deck"], c["deck"])
        cells = [deck if len(agents) == 1 else f"{deck} ({c['agent']})"] if heads[0] == "deck" else []
        cells += [c["name"], str(c["matches"])] + ([] if narrow else [str(c["opening"])])
        if wide:
            cells.append(_pct(c["win_rate_opening"], c["ci95_opening"] if c["opening"] else None))
        cells += [str(c["drawn"]), _pct(c["win_rate_drawn"], c["ci95_drawn"] if c["drawn"] else None)]
        if medium:
            cells.append(_pct(c["win_rate_not_drawn"], c["ci95_not_drawn"] if c["not_drawn"] else None))
        cells += [_signed(c["iwd"], c["ci95_iwd"] if c["iwd"] is not None else None), str(c["played"])]
        if wide:
            cells.append(_pct(c["win_rate_played"], c["ci95_played"] if c["played"] else None))
        if damage:             # reports written before these keys have none: a dash
            cells += [_ratio(c.get("damage_per_play")), _ratio(c.get("damage_per_influence"))]
        t.add_row(*cells)
    return t


def _pct_text(rate: float | None, ci: Sequence[float]) -> str:
    return "–" if rate is None else f"{100 * rate:.1f}% [{100 * ci[0]:.1f}–{100 * ci[1]:.1f}]"


def compare_renderables(cmp: dict[str, Any], names: dict[str, str] | None = None) -> list[Any]:
    """The A/B answer: both lists' win rates against the same field, the difference and the cards that moved.
    `names`: each deck label's name in the tables (`deck_names`)."""
    from rich.table import Table

    names = names or {}
    cmp = {**cmp, "old": _named(names, cmp["old"]), "new": _named(names, cmp["new"])}
    old, new = cmp["old_vs_field"], cmp["new_vs_field"]
    lo, hi = cmp["ci95"]
    if lo > 0:
        verdict = f"[green]{cmp['new']} is better than {cmp['old']}[/green] (the interval is above 0)"
    elif hi < 0:
        verdict = f"[red]{cmp['new']} is worse than {cmp['old']}[/red] (the interval is below 0)"
    else:
        verdict = "no difference shown at 95% (the interval contains 0): play more matches to narrow it"
    out: list[Any] = [
        f"[bold]A/B[/bold] against the same {len(cmp['field'])} decks, same seeds and seats "
        f"({cmp['paired_matches']} matches each, agent {cmp['agent']}):",
        f"  old  {cmp['old']:<28} {_pct_text(old['win_rate'], old['ci95'])}  (n {old['n']})",
        f"  new  {cmp['new']:<28} {_pct_text(new['win_rate'], new['ci95'])}  (n {new['n']})",
        f"  new − old: {100 * cmp['diff']:+.1f} points, 95% interval [{100 * lo:+.1f}, {100 * hi:+.1f}] "
        f"(paired; unpaired [{100 * cmp['ci95_unpaired'][0]:+.1f}, {100 * cmp['ci95_unpaired'][1]:+.1f}])",
        "  " + verdict,
    ]
    t = Table(title="Against each deck of the field (win rate, Wilson 95%; difference, paired 95%)",
              title_justify="left")
    for head in ("field deck", "n", "old", "new", "new − old"):
        t.add_column(head, justify="left" if head == "field deck" else "right")
    for f in cmp["per_field"]:
        same = f["ci95"][0] == f["ci95"][1] == f["diff"]
        t.add_row(_named(names, f["deck"]), str(f["matches"]), _pct(f["old"]["win_rate"], f["old"]["ci95"]),
                  _pct(f["new"]["win_rate"], f["new"]["ci95"]),
                  "+0 (every match alike)" if same else _signed(f["diff"], f["ci95"]))
    out.append(t)
    ct = Table(title="Cards that moved most (changed copies first, then |Δ win rate when drawn|)",
               title_justify="left")
    for head in ("card", "copies", "drawn n", "played %", "win when drawn", "IWD"):
        ct.add_column(head, justify="left" if head == "card" else "right")

    def arrow(a: Any, b: Any, fmt: Callable[[Any], str]) -> str:
        return f"{fmt(a)} → {fmt(b)}"

    for c in cmp["cards_moved"]:
        ct.add_row(c["name"], arrow(c["copies_old"], c["copies_new"], str),
                   arrow(c["drawn_old"], c["drawn_new"], lambda v: "–" if v is None else str(v)),
                   arrow(c["played_pct_old"], c["played_pct_new"], lambda v: "–" if v is None else f"{v:.0f}"),
                   arrow(c["win_rate_drawn_old"], c["win_rate_drawn_new"], _pct),
                   arrow(c["iwd_old"], c["iwd_new"], _signed))
    out.append(ct)
    return out


def print_report(report: dict[str, Any], console: Any, top_cards: int | None = 10, sort: str = "iwd") -> None:
    for part in report_renderables(report, top_cards, sort, console.width):
        console.print(part)


def report_renderables(report: dict[str, Any], top_cards: int | None = 10, sort: str = "iwd",
                       width: int = 120) -> list[Any]:
    """The report as rich renderables (tables and lines): what `c1k simulate` prints and the Lab shows.
    `top_cards`: how many card rows (None: every card; 0: no card table)."""
    from rich.table import Table

    out: list[Any] = []
    names = deck_names(report)
    if report.get("compare"):
        out += compare_renderables(report["compare"], names)
        if report["cards"] and top_cards not in (0, None):
            out.append(card_table(report, top_cards, sort, width))
        return out

    pairs = report["pairs"]
    rows = sorted({(p["deck_a"], p["agent_a"]) for p in pairs})
    cols = sorted({(p["deck_b"], p["agent_b"]) for p in pairs} | (set(rows) if len({p["agent_a"] for p in pairs}
                                                                                  | {p["agent_b"] for p in pairs}) == 1
                                                                 else set()))
    same_agent = all(p["agent_a"] == p["agent_b"] for p in pairs)
    if same_agent:
        cols = rows = sorted(set(rows) | set(cols))
    cell: dict[tuple[tuple[str, str], tuple[str, str]], str] = {}
    for p in pairs:
        a, b = (p["deck_a"], p["agent_a"]), (p["deck_b"], p["agent_b"])
        lo, hi = p["ci95_a"]
        cell[(a, b)] = f"{100 * p['win_rate_a']:.0f}% [{100 * lo:.0f}–{100 * hi:.0f}]"
        if same_agent:
            cell[(b, a)] = f"{100 * (1 - p['win_rate_a']):.0f}% [{100 * (1 - hi):.0f}–{100 * (1 - lo):.0f}]"
    t = Table(title="Win rate of the row against the column (draws = ½), Wilson 95% interval")
    t.add_column("deck (agent)")
    for c in cols:
        t.add_column(_named(names, c[0]) if same_agent else f"{_named(names, c[0])} ({c[1]})", justify="right")
    for r in rows:
        t.add_row(_named(names, r[0]) if same_agent else f"{_named(names, r[0])} ({r[1]})",
                  *[cell.get((r, c), "·") for c in cols])
    out.append(t)
    fp = report["first_player"]
    out.append(f"First player wins {100 * fp['win_rate']:.1f}% [{100 * fp['ci95'][0]:.1f}–"
                  f"{100 * fp['ci95'][1]:.1f}] of {fp['matches']} matches; average {report['avg_turns']} turns.")
    rt = Table(title="Ratings (Bradley–Terry, Elo scale, mean 0)")
    for head in ("deck (agent)", "rating", "95% interval"):
        rt.add_column(head, justify="left" if head.startswith("deck") else "right")
    for r in report["ratings"]:
        rt.add_row(_named(names, r["name"]), f"{r['rating']:+.0f}", f"{r['ci95'][0]:+.0f} … {r['ci95'][1]:+.0f}")
    out.append(rt)
    if report["cards"] and top_cards != 0:
        out.append(card_table(report, top_cards, sort, width))
    for e in report["errors"][:10]:
        out.append(f"[red]error[/red] {e}")
    return out


# ---------------------------------------------------------------- terminal plots (plotext)


def field_rates(report: dict[str, Any]) -> list[dict[str, Any]]:
    """Each entry's win rate against the field: its points (draws ½) over all its matches, with a Wilson
    95% interval — one row per entry (deck, or deck (agent) when agents differ), best first."""
    same_agent = all(p["agent_a"] == p["agent_b"] for p in report["pairs"])
    pts: dict[str, list[float]] = {}
    for p in report["pairs"]:
        a = p["deck_a"] if same_agent else f"{p['deck_a']} ({p['agent_a']})"
        b = p["deck_b"] if same_agent else f"{p['deck_b']} ({p['agent_b']})"
        for name, won in ((a, p["wins_a"]), (b, p["wins_b"])):
            row = pts.setdefault(name, [0.0, 0.0])
            row[0] += won + p["draws"] / 2
            row[1] += p["matches"]
    out: list[dict[str, Any]] = []
    for name, (won, n) in pts.items():
        lo, hi = wilson(won, int(n))
        out.append({"name": name, "matches": int(n), "win_rate": round(won / n, 4) if n else 0.0,
                    "ci95": [round(lo, 4), round(hi, 4)]})
    out.sort(key=lambda r: (-float(r["win_rate"]), str(r["name"])))
    return out


def interval_plot(title: str, rows: Sequence[tuple[str, float, float, float]], width: int = 100,
                  ref: float | None = None, xlim: tuple[float, float] | None = None, color: bool = True) -> str:
    """A forest plot: one row per (label, value, low, high) — the interval as a bar │───●───│, the value as
    ●, an optional reference line (e.g. 50% or rating 0). Text (with ANSI colours unless `color` is off)."""
    import plotext as plt

    plt.clf()
    n = len(rows)
    plt.plotsize(max(40, width), 2 * n + 5)
    plt.theme("clear")
    ys = list(range(n, 0, -1))
    for (_, v, lo, hi), y in zip(rows, ys, strict=True):
        plt.plot([lo, hi], [y, y], marker="─", color="blue")
        plt.scatter([lo, hi], [y, y], marker="│", color="blue")
        plt.scatter([v], [y], marker="●", color="red")
    plt.yticks(ys, [r[0][:24] for r in rows])
    plt.ylim(0.5, n + 0.5)
    if xlim is None:
        lo_all = min([r[2] for r in rows] + ([ref] if ref is not None else []))
        hi_all = max([r[3] for r in rows] + ([ref] if ref is not None else []))
        pad = (hi_all - lo_all) * 0.05 or 1.0
        xlim = (lo_all - pad, hi_all + pad)
    plt.xlim(*xlim)
    if ref is not None:
        plt.vline(ref, "gray")
    plt.title(title)
    out: str = plt.build()
    plt.clf()
    return out if color else plt.uncolorize(out)


def report_plots(report: dict[str, Any], width: int = 100, color: bool = True) -> list[str]:
    """The report's plots: win rate against the field (50% marked) and the ratings (0 marked), both with
    their 95% intervals."""
    if not report["pairs"]:
        return []
    rates = field_rates(report)
    names = deck_names(report)
    win = interval_plot("Win rate vs the field (draws ½), Wilson 95% interval",
                        [(_named(names, r["name"]), 100 * r["win_rate"], 100 * r["ci95"][0], 100 * r["ci95"][1]) for r in rates],
                        width, ref=50.0, xlim=(0.0, 100.0), color=color)
    ratings = sorted(report["ratings"], key=lambda r: (-r["rating"], r["name"]))
    rat = interval_plot("Ratings (Bradley–Terry, Elo scale, mean 0), 95% interval",
                        [(_named(names, r["name"]), float(r["rating"]), float(r["ci95"][0]), float(r["ci95"][1]))
                         for r in ratings],
                        width, ref=0.0, color=color)
    return [win, rat]

