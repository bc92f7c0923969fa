"""`c1k decks` and `c1k decks show NAME|FILE`: the decks, and one deck's summary — its curve, Realms, card
types, the list by cost, and every construction problem (docs/formats.md §3) at once."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from engine import CardDB, CardFileError, Deck, deck_from_data
from engine.cardset import LIBRARY_SIZE, MAX_COPIES, MAX_REALMS, read_toml

#: the curve's last column holds this cost and more
CURVE_TOP = 7


def deck_summary(deck: Deck, db: CardDB, problems: list[str]) -> dict[str, Any]:
    """What `decks show` prints (and --json writes): counts by cost, Realm and type, the list, problems."""
    lib = deck.library
    curve = Counter(min(c.cost, CURVE_TOP) for c in lib)
    realms = Counter(c.realm for c in lib)
    types = Counter(c.type for c in lib)
    speeds = Counter(c.speed for c in lib)
    keywords = Counter(k for c in lib for k in c.keywords)
    cards = [{"id": cid, "name": db.by_id[cid].name, "copies": n, "cost": db.by_id[cid].cost,
              "type": db.by_id[cid].type, "realm": db.by_id[cid].realm, "speed": db.by_id[cid].speed}
             for cid, n in deck.counts.items()]
    cards.sort(key=lambda c: (c["cost"], c["name"]))
    return {
        "name": deck.name, "path": deck.path, "champion": deck.champion.name, "seat": deck.seat.name,
        "library": len(lib), "distinct": len(deck.counts),
        "curve": {(f"{k}+" if k == CURVE_TOP else str(k)): curve.get(k, 0) for k in range(CURVE_TOP + 1)},
        "average_cost": round(sum(c.cost for c in lib) / len(lib), 2) if lib else 0.0,
        "realms": dict(sorted(realms.items())), "types": dict(sorted(types.items())),
        "speeds": dict(sorted(speeds.items())), "keywords": dict(keywords.most_common()),
        "cards": cards, "problems": problems,
    }


def load_for_summary(path: Path, db: CardDB) -> tuple[Deck, list[str]]:
    """The deck as far as it loads (a deck that breaks the format still has a summary) and every problem
    the construction rules find. Raises CardFileError when it can't be read at all."""
    data, text = read_toml(path)
    problems: list[str] = []
    try:
        deck_from_data(data, db, str(path), text, playtest=False)
    except CardFileError as err:
        problems = list(err.problems)
    cards = data.get("cards")
    if isinstance(cards, dict):            # the summary of what is known: unknown cards and bad counts left out
        data = {**data, "cards": {k: v for k, v in cards.items() if db.get(k) is not None and isinstance(v, int)
                                  and not isinstance(v, bool) and 0 < v <= LIBRARY_SIZE}}
    try:
        deck = deck_from_data(data, db, str(path), text, playtest=True)
    except CardFileError as err:
        raise CardFileError(str(path), problems or list(err.problems)) from err
    return deck, problems


def print_summary(s: dict[str, Any], console: Console) -> None:
    console.print(f"[bold]{s['name']}[/bold]  ({s['path']})")
    console.print(f"Champion {s['champion']} · Seat {s['seat']} · {s['library']} cards ({s['distinct']} different), "
                  f"average cost {s['average_cost']}")
    peak = max(s["curve"].values(), default=0) or 1
    console.print("[bold]Curve[/bold] (cards by cost)")
    for cost, n in s["curve"].items():
        console.print(f"  {cost:>2} │{'█' * round(20 * n / peak):<20} {n}")
    console.print("[bold]Realms[/bold]  " + " · ".join(f"{k} {v}" for k, v in s["realms"].items()))
    console.print("[bold]Types[/bold]   " + " · ".join(f"{k} {v}" for k, v in s["types"].items())
                  + "   [bold]Speed[/bold] " + " · ".join(f"{k} {v}" for k, v in s["speeds"].items()))
    if s["keywords"]:
        console.print("[bold]Keywords[/bold] " + " · ".join(f"{k} {v}" for k, v in s["keywords"].items()))
    t = Table(title="The list", title_justify="left", show_lines=False)
    for col in ("×", "cost", "card", "type", "realm", "speed"):
        t.add_column(col, justify="right" if col in ("×", "cost") else "left")
    for c in s["cards"]:
        t.add_row(str(c["copies"]), str(c["cost"]), c["name"], c["type"], c["realm"], c["speed"])
    console.print(t)
    if s["problems"]:
        console.print(f"[bold red]{len(s['problems'])} construction problem(s)[/bold red] "
                      f"(a deck has {LIBRARY_SIZE} cards, at most {MAX_COPIES} of each, at most {MAX_REALMS} "
                      "Realms plus Neutral):")
        for p in s["problems"]:
            console.print(f"  {p}", markup=False)
    else:
        console.print("[green]no construction problems[/green]")


def deck_diff(old: Deck, new: Deck, db: CardDB) -> dict[str, Any]:
    """What changed from list OLD to list NEW (`c1k decks diff A B`, as a deck designer reads a 17lands or
    MetaStone diff): champion and Seat, each card whose count moved (old → new copies, by cost), the
    curve and Realms before and after."""
    def summary(d: Deck) -> dict[str, Any]:
        return deck_summary(d, db, [])

    a, b = summary(old), summary(new)
    ids = sorted(set(old.counts) | set(new.counts), key=lambda c: (db.by_id[c].cost, db.by_id[c].name))
    moved = [(cid, old.counts.get(cid, 0), new.counts.get(cid, 0)) for cid in ids
             if old.counts.get(cid, 0) != new.counts.get(cid, 0)]
    cards = [{"id": cid, "name": db.by_id[cid].name, "cost": db.by_id[cid].cost, "old": o, "new": n,
              "change": n - o} for cid, o, n in moved]
    return {
        "old": {"name": a["name"], "path": a["path"]}, "new": {"name": b["name"], "path": b["path"]},
        "champion": [a["champion"], b["champion"]], "seat": [a["seat"], b["seat"]],
        "cards": cards, "out": sum(o - n for _, o, n in moved if n < o), "in": sum(n - o for _, o, n in moved if n > o),
        "curve": {k: [a["curve"][k], b["curve"][k]] for k in a["curve"]},
        "average_cost": [a["average_cost"], b["average_cost"]],
        "realms": {k: [a["realms"].get(k, 0), b["realms"].get(k, 0)] for k in sorted(set(a["realms"]) | set(b["realms"]))},
        "library": [a["library"], b["library"]],
    }


def print_diff(d: dict[str, Any], console: Console) -> None:
    console.print(f"[bold]{d['old']['name']}[/bold] ({d['old']['path']}) → [bold]{d['new']['name']}[/bold] "
                  f"({d['new']['path']})")
    for what in ("champion", "seat"):
        was, now = d[what]
        console.print(f"{what.capitalize():<9}{was}" + (f" → {now}" if now != was else " (same)"))
    if not d["cards"]:
        console.print("The same cards.")
    else:
        console.print(f"{d['out']} card(s) out, {d['in']} in:")
        t = Table(show_header=True, title_justify="left", box=None, padding=(0, 1))
        for col in ("", "cost", "card", "copies"):
            t.add_column(col, justify="right" if col in ("cost",) else "left")
        for c in d["cards"]:
            t.add_row("[red]−[/red]" if c["change"] < 0 else "[green]+[/green]", str(c["cost"]), c["name"],
                      f"{c['old']} → {c['new']} ({c['change']:+d})")
        console.print(t)
    moved = {k: v for k, v in d["curve"].items() if v[0] != v[1]}
    if moved:
        console.print("[bold]Curve[/bold] " + " · ".join(f"{k}: {a} → {b}" for k, (a, b) in moved.items())
                      + f"   average cost {d['average_cost'][0]} → {d['average_cost'][1]}")
    realms = {k: v for k, v in d["realms"].items() if v[0] != v[1]}
    if realms:
        console.print("[bold]Realms[/bold] " + " · ".join(f"{k}: {a} → {b}" for k, (a, b) in realms.items()))
