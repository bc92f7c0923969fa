"""A whole simulation run and its report: the decks (a deck is what it contains: a pair's seeds come from
its decks' contents and agents, never from where they were named), the plan of jobs, the summary
(matrix, ratings, card statistics, every match), the A/B comparison, and reading a report back
(`load_report`, `replay_match`: `c1k replay REPORT --match N`)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from c1k_tui.sim.backends import Backend
from c1k_tui.sim.jobs import DEFAULT_MAX_TURNS, Job, JobResult, SimulateError, _card_db
from c1k_tui.sim.stats import bradley_terry, diff_interval, paired_interval, wilson


class DeckRef(NamedTuple):
    """A deck as the run knows it: its label (file stem; its path when two stems are the same), file, the
    digest of its list (what it contains: Champion, Seat, cards) and the list itself."""

    label: str
    path: str
    digest: str = ""
    cards: tuple[tuple[str, int], ...] = ()      # the library, in file order: (card id, copies)
    champion: str = ""
    seat: str = ""
    name: str = ""


def deck_digest(champion: str, seat: str, counts: Iterable[tuple[str, int]]) -> str:
    """A deck's identity: the digest of its list, whatever its file is called or where it is."""
    text = json.dumps({"champion": champion, "seat": seat, "cards": sorted(counts)}, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass
class Entry:
    deck: str            # the deck's label
    path: str
    agent: str
    digest: str = ""     # of the deck's list (DeckRef.digest)
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return f"{self.deck} ({self.agent})"

    @property
    def identity(self) -> str:
        return f"{self.digest or self.path}/{self.agent}"


def _entry(d: tuple[str, str] | DeckRef, agent: str) -> Entry:
    if isinstance(d, DeckRef):
        return Entry(d.label, d.path, agent, d.digest, dict(d.cards))
    return Entry(d[0], d[1], agent)


def _key(text: str) -> int:
    return int(hashlib.sha256(text.encode()).hexdigest()[:16], 16)


def pair_seed(seed: int, ea: Entry, eb: Entry) -> tuple[int, bool]:
    """The seed of a pair's series, from the two entries' identities (never their order or position),
    and whether `ea` is the entry that sits first in the pair's even matches."""
    from engine import derive_seed

    ia, ib = ea.identity, eb.identity
    a_canon = (ia, ea.deck) <= (ib, eb.deck)
    lo, hi = (ia, ib) if a_canon else (ib, ia)
    return derive_seed(seed, _key(f"pair|{lo}|{hi}")), a_canon


def plan(decks: Sequence[tuple[str, str] | DeckRef], agent: str, opponent: str, matches: int, seed: int,
         max_turns: int = DEFAULT_MAX_TURNS,
         cards: Sequence[str] = (), compensation: str | None = None) -> tuple[list[tuple[Entry, Entry]], list[Job]]:
    """The pairs and jobs. Same agent on both sides: each unordered pair of decks once. Different
    agents: every (deck with `agent`, deck with `opponent`) pair, mirrors included. Decks are taken in
    label order and each pair's seeds come from its identity (pair_seed), so the order they are given in
    changes nothing."""
    from engine import derive_seed

    ordered = sorted(decks, key=lambda d: (d[0], d[1]))
    if agent == opponent:
        pairs = [(_entry(a, agent), _entry(b, agent)) for i, a in enumerate(ordered) for b in ordered[i + 1:]]
        if len(ordered) == 1:
            pairs = [(_entry(ordered[0], agent), _entry(ordered[0], agent))]
    else:
        pairs = [(_entry(a, agent), _entry(b, opponent)) for a in ordered for b in ordered]
    jobs: list[Job] = []
    for pi, (ea, eb) in enumerate(pairs):
        ps, a_canon = pair_seed(seed, ea, eb)
        for k in range(matches):
            jobs.append(Job(len(jobs), pi, k, ea.path, eb.path, ea.agent, eb.agent, derive_seed(ps, k),
                            (k % 2 == 0) == a_canon, max_turns, tuple(cards), compensation))
    return pairs, jobs


def plan_compare(old: DeckRef, new: DeckRef, field_decks: Sequence[DeckRef], agent: str, opponent: str,
                 matches: int, seed: int, max_turns: int = DEFAULT_MAX_TURNS,
                 cards: Sequence[str] = ()) -> tuple[list[tuple[Entry, Entry]], list[Job]]:
    """OLD and NEW each against every deck of the field, on the same seeds and seats: match k against
    deck F has the same seed for both (from F's identity, the agents and k), and the candidate sits first
    in the even matches. Pairs: OLD's first (in field order), then NEW's."""
    from engine import derive_seed

    ordered = sorted(field_decks, key=lambda d: (d.label, d.path))
    pairs = [(_entry(x, agent), _entry(f, opponent)) for x in (old, new) for f in ordered]
    jobs: list[Job] = []
    for pi, (ex, ef) in enumerate(pairs):
        ps = derive_seed(seed, _key(f"compare|{ef.identity}|{ex.agent}"))
        for k in range(matches):
            jobs.append(Job(len(jobs), pi, k, ex.path, ef.path, ex.agent, ef.agent, derive_seed(ps, k),
                            k % 2 == 0, max_turns, tuple(cards)))
    return pairs, jobs


def _rate(points: float, n: int) -> dict[str, Any]:
    lo, hi = wilson(points, n)
    return {"n": n, "win_rate": round(points / n, 4) if n else None, "ci95": [round(lo, 4), round(hi, 4)]}


def card_stats(pairs: Sequence[tuple[Entry, Entry]], jobs: Sequence[Job], results: dict[int, JobResult],
               names: dict[str, str]) -> list[dict[str, Any]]:
    """Per (deck, agent, card of its list or seen in its matches): how often it was in the opening hand,
    drawn (seen in hand, the opening hand included), played — each with the deck's win rate then and a
    Wilson 95% interval — and the win rate when not drawn, and their difference (IWD, improvement when
    drawn) with Newcombe's 95% interval. Draws count ½."""
    acc: dict[tuple[str, str], dict[str, Any]] = {}
    for j in jobs:
        r = results[j.index]
        ea, eb = pairs[j.pair]
        for e, side, opening, drawn, played, dealt, spent in (
                (ea, "a", r.opening_a, r.drawn_a, r.played_a, r.damage_a, r.spent_a),
                (eb, "b", r.opening_b, r.drawn_b, r.played_b, r.damage_b, r.spent_b)):
            if ea is eb and side == "b":
                continue                  # a deck against itself: its statistics once, from side a
            key = (e.deck, e.agent)
            st = acc.setdefault(key, {"matches": 0, "points": 0.0, "counts": e.counts, "cards": {}})
            pts = 1.0 if r.winner == side else (0.5 if r.winner == "draw" else 0.0)
            st["matches"] += 1
            st["points"] += pts
            seen = set(drawn) | set(opening)
            for cid in set(e.counts) | seen | set(played) | set(dealt) | set(spent):
                # oh, pts, drawn, pts, played, pts, plays, damage to Champions, to units, Influence spent
                c = st["cards"].setdefault(cid, [0, 0.0, 0, 0.0, 0, 0.0, 0, 0, 0, 0])
                to_champions, to_units = dealt.get(cid, (0, 0))
                c[7] += to_champions
                c[8] += to_units
                c[9] += spent.get(cid, 0)
                if cid in opening:
                    c[0] += 1
                    c[1] += pts
                if cid in seen:
                    c[2] += 1
                    c[3] += pts
                if cid in played:
                    c[4] += 1
                    c[5] += pts
                    c[6] += played.count(cid)
    rows: list[dict[str, Any]] = []
    for (deck, agent), st in sorted(acc.items()):
        m, total = st["matches"], st["points"]
        for cid, (oh, p_oh, dr, p_dr, pl, p_pl, plays, dmg_ch, dmg_un, spent_in) in sorted(st["cards"].items()):
            nd, p_nd = m - dr, total - p_dr
            o, d, nd_r, p = _rate(p_oh, oh), _rate(p_dr, dr), _rate(p_nd, nd), _rate(p_pl, pl)
            iwd = round(p_dr / dr - p_nd / nd, 4) if dr and nd else None
            ilo, ihi = diff_interval(p_dr, dr, p_nd, nd)
            rows.append({
                "deck": deck, "agent": agent, "card": cid, "name": names.get(cid, cid),
                "copies": st["counts"].get(cid, 0), "matches": m,
                "opening": oh, "opening_pct": round(100 * oh / m, 1) if m else 0.0,
                "win_rate_opening": o["win_rate"], "ci95_opening": o["ci95"],
                "drawn": dr, "drawn_pct": round(100 * dr / m, 1) if m else 0.0,
                "win_rate_drawn": d["win_rate"], "ci95_drawn": d["ci95"],
                "not_drawn": nd, "win_rate_not_drawn": nd_r["win_rate"], "ci95_not_drawn": nd_r["ci95"],
                "iwd": iwd, "ci95_iwd": [round(ilo, 4), round(ihi, 4)] if iwd is not None else [-1.0, 1.0],
                "played": pl, "played_pct": round(100 * pl / m, 1) if m else 0.0, "plays": plays,
                "win_rate_played": p["win_rate"], "ci95_played": p["ci95"],
                "damage_champions": dmg_ch, "damage_units": dmg_un,
                "damage_per_play": round((dmg_ch + dmg_un) / plays, 2) if plays else None,
                "influence_spent": spent_in,
                "damage_per_influence": round((dmg_ch + dmg_un) / spent_in, 2) if spent_in else None,
            })
    return rows


def summarize(pairs: Sequence[tuple[Entry, Entry]], jobs: Sequence[Job],
              results: dict[int, JobResult]) -> dict[str, Any]:
    """The report (the JSON written by --json), from results gathered by job index."""
    per_pair: list[dict[str, Any]] = []
    first_wins = 0.0
    decided = 0
    turns_total = 0
    errors = []
    by_pair: dict[int, list[JobResult]] = {}
    for j in jobs:
        by_pair.setdefault(j.pair, []).append(results[j.index])
    for pi, (ea, eb) in enumerate(pairs):
        rs = by_pair.get(pi, [])
        wa = sum(r.winner == "a" for r in rs)
        wb = sum(r.winner == "b" for r in rs)
        dr = len(rs) - wa - wb
        pts = wa + dr / 2
        lo, hi = wilson(pts, len(rs))
        turns = sum(r.turns for r in rs)
        turns_total += turns
        for r in rs:
            if r.error:
                errors.append(f"{ea.label} vs {eb.label} match {r.index}: {r.error}")
            a_won = r.winner == "a"
            first_won = (a_won and r.a_first) or (r.winner == "b" and not r.a_first)
            first_wins += 1.0 if first_won else (0.5 if r.winner == "draw" else 0.0)
            decided += 1
        per_pair.append({
            "deck_a": ea.deck, "deck_b": eb.deck, "agent_a": ea.agent, "agent_b": eb.agent,
            "path_a": ea.path, "path_b": eb.path,
            "matches": len(rs), "wins_a": wa, "wins_b": wb, "draws": dr,
            "win_rate_a": round(pts / len(rs), 4) if rs else 0.0, "ci95_a": [round(lo, 4), round(hi, 4)],
            "avg_turns": round(turns / len(rs), 2) if rs else 0.0,
        })
    # ratings over entries (deck + agent)
    labels: list[str] = []
    idx: dict[str, int] = {}
    for ea, eb in pairs:
        for e in (ea, eb):
            if e.label not in idx:
                idx[e.label] = len(labels)
                labels.append(e.label)
    games: dict[tuple[int, int], tuple[float, int]] = {}
    for row, (ea, eb) in zip(per_pair, pairs, strict=True):
        ia, ib = idx[ea.label], idx[eb.label]
        if ia == ib:
            continue
        pts = row["wins_a"] + row["draws"] / 2
        if ia > ib:
            ia, ib, pts = ib, ia, row["matches"] - pts
        old = games.get((ia, ib), (0.0, 0))
        games[(ia, ib)] = (old[0] + pts, old[1] + row["matches"])
    ratings = bradley_terry(labels, games)
    db = _card_db(jobs[0].cards if jobs else ())
    names = {cid: c.name for cid, c in db.by_id.items()}
    match_rows = []
    for j in jobs:
        r = results[j.index]
        ea, eb = pairs[j.pair]
        first, second = (ea, eb) if r.a_first else (eb, ea)
        winner = {"a": ea.deck, "b": eb.deck}.get(r.winner, "")
        seat = "" if r.winner == "draw" else ("p1" if (r.winner == "a") == r.a_first else "p2")
        match_rows.append({"match": j.index + 1, "pair": j.pair, "k": j.k, "seed": str(j.seed), "a_first": r.a_first,
                           "deck_a": ea.deck, "deck_b": eb.deck, "agent_a": ea.agent, "agent_b": eb.agent,
                           "p1": first.deck, "p2": second.deck, "agent_p1": first.agent, "agent_p2": second.agent,
                           "winner": r.winner, "winner_deck": winner, "winner_seat": seat,
                           "turns": r.turns, "actions": r.actions, "termination": r.termination,
                           "error": r.error})
    fl, fh = wilson(first_wins, decided)
    return {
        "pairs": per_pair,
        "ratings": ratings,
        "cards": card_stats(pairs, jobs, results, names),
        "games": match_rows,
        "first_player": {"matches": decided, "win_rate": round(first_wins / decided, 4) if decided else 0.0,
                         "ci95": [round(fl, 4), round(fh, 4)]},
        "avg_turns": round(turns_total / max(1, len(jobs)), 2),
        "matches": len(jobs),
        "errors": errors,
    }


def compare_section(report: dict[str, Any], old: str, new: str, agent: str, moved: int = 8) -> dict[str, Any]:
    """NEW against OLD from a --compare run's report: each one's win rate against the field (Wilson), the
    difference NEW − OLD with a paired 95% interval (match k against deck F has the same seed and seats
    for both), per field deck, and the cards whose statistics moved most."""
    score: dict[tuple[str, str, int], float] = {}
    for g in report["games"]:
        pts = 1.0 if g["winner"] == "a" else (0.5 if g["winner"] == "draw" else 0.0)
        score[(g["deck_a"], g["deck_b"], g["k"])] = pts
    field_decks = sorted({d for (x, d, _) in score if x == old})
    out_field = []
    diffs: list[float] = []
    totals = {old: [0.0, 0], new: [0.0, 0]}
    for f in field_decks:
        ks = sorted(k for (x, d, k) in score if x == old and d == f and (new, f, k) in score)
        ds = [score[(new, f, k)] - score[(old, f, k)] for k in ks]
        diffs += ds
        so = sum(score[(old, f, k)] for k in ks)
        sn = sum(score[(new, f, k)] for k in ks)
        totals[old][0] += so
        totals[old][1] += len(ks)
        totals[new][0] += sn
        totals[new][1] += len(ks)
        mean, lo, hi = paired_interval(ds)
        out_field.append({"deck": f, "matches": len(ks), "old": _rate(so, len(ks)), "new": _rate(sn, len(ks)),
                          "diff": round(mean, 4), "ci95": [round(lo, 4), round(hi, 4)]})
    mean, lo, hi = paired_interval(diffs)
    uo, un = totals[old], totals[new]
    ulo, uhi = diff_interval(un[0], int(un[1]), uo[0], int(uo[1]))
    by_card: dict[str, dict[str, dict[str, Any]]] = {old: {}, new: {}}
    for c in report["cards"]:
        if c["agent"] == agent and c["deck"] in by_card:
            by_card[c["deck"]][c["card"]] = c
    rows = []
    for cid in sorted(set(by_card[old]) | set(by_card[new])):
        a, b = by_card[old].get(cid), by_card[new].get(cid)
        if a is not None and b is not None and not a["copies"] and not b["copies"]:
            continue                    # a token or a card of the opponent's, in neither list
        name = (a or b or {}).get("name", cid)
        def val(c: dict[str, Any] | None, k: str) -> Any:
            return None if c is None else c.get(k)
        d_wr = (b["win_rate_drawn"] - a["win_rate_drawn"]
                if a is not None and b is not None and a["win_rate_drawn"] is not None
                and b["win_rate_drawn"] is not None else None)
        d_iwd = (b["iwd"] - a["iwd"] if a is not None and b is not None and a["iwd"] is not None
                 and b["iwd"] is not None else None)
        copies = (val(a, "copies") or 0, val(b, "copies") or 0)
        rows.append({"card": cid, "name": name, "copies_old": copies[0], "copies_new": copies[1],
                     "drawn_old": val(a, "drawn"), "drawn_new": val(b, "drawn"),
                     "played_pct_old": val(a, "played_pct"), "played_pct_new": val(b, "played_pct"),
                     "win_rate_drawn_old": val(a, "win_rate_drawn"), "win_rate_drawn_new": val(b, "win_rate_drawn"),
                     "iwd_old": val(a, "iwd"), "iwd_new": val(b, "iwd"),
                     "diff_win_rate_drawn": None if d_wr is None else round(d_wr, 4),
                     "diff_iwd": None if d_iwd is None else round(d_iwd, 4),
                     "changed": copies[0] != copies[1]})
    rows.sort(key=lambda r: (not r["changed"], -abs(r["diff_win_rate_drawn"] or 0.0), r["card"]))
    return {"old": old, "new": new, "agent": agent, "field": field_decks, "paired_matches": len(diffs),
            "old_vs_field": _rate(uo[0], int(uo[1])), "new_vs_field": _rate(un[0], int(un[1])),
            "diff": round(mean, 4), "ci95": [round(lo, 4), round(hi, 4)],
            "ci95_unpaired": [round(ulo, 4), round(uhi, 4)],
            "per_field": out_field, "cards_moved": rows[:moved], "cards_all": rows}


def run(pairs: Sequence[tuple[Entry, Entry]], jobs: Sequence[Job], backend: Backend,
        progress: Callable[[JobResult], None] | None = None) -> dict[str, Any]:
    results: dict[int, JobResult] = {}

    def done(r: JobResult) -> None:
        results[r.index] = r
        if progress is not None:
            progress(r)

    backend.run(jobs, done)
    return summarize(pairs, jobs, results)



def resolve_decks(names: Iterable[str], all_decks: bool, cards: Sequence[Path] = ()) -> list[DeckRef]:
    """The decks named (files or bundled names) and, with `all_decks`, every bundled deck — each file once,
    in label order. A label is the file's stem, or its path when another deck has the same stem (a bundled
    deck keeps its name). Every deck is loaded (with the bundled cards, `cards` and its own card files)."""
    from engine import CardFileError, bundled_deck_paths, find_deck, load_deck
    from engine.cardset import load_cards

    paths: list[Path] = []
    if all_decks:
        paths += list(bundled_deck_paths())
    for n in names:
        try:
            paths.append(Path(find_deck(n)))
        except FileNotFoundError as err:
            raise SimulateError(str(err)) from err
    if not paths:
        raise SimulateError("name at least two decks (files or bundled names), or use --all")
    unique: dict[Path, Path] = {}
    for p in paths:
        unique.setdefault(p.resolve(), p)
    bundled = {b.resolve() for b in bundled_deck_paths()}
    try:
        db = load_cards(list(cards), list(unique.values()))
    except CardFileError as err:
        raise SimulateError(str(err)) from err
    stems: dict[str, int] = {}
    for r in unique:
        stems[r.stem] = stems.get(r.stem, 0) + 1
    out = []
    for r, p in unique.items():
        try:
            deck = load_deck(p, db, playtest=True)
        except CardFileError as err:
            raise SimulateError(str(err)) from err
        label = r.stem if stems[r.stem] == 1 or r in bundled else str(p)
        counts = tuple(deck.counts.items())
        out.append(DeckRef(label, str(r), deck_digest(deck.champion.id, deck.seat.id, counts), counts,
                           deck.champion.id, deck.seat.id, deck.name))
    out.sort(key=lambda d: (d.label, d.path))
    return out


def own_card_files(cards: Sequence[Path], decks: Sequence[DeckRef]) -> tuple[str, ...]:
    """The run's own card files (absolute): `--cards` and those the decks name — what every worker loads."""
    from engine.cardset import bundled_cards_dir, card_files_for

    bundled = bundled_cards_dir().resolve()
    files = card_files_for(cards, [Path(d.path) for d in decks])
    return tuple(str(f.resolve()) for f in files if f.resolve().parent != bundled)


def deck_table(decks: Sequence[DeckRef]) -> dict[str, Any]:
    """The report's decks: label → file, digest and list (what `c1k replay REPORT --match N` plays)."""
    return {d.label: {"path": d.path, "digest": d.digest, "name": d.name, "champion": d.champion, "seat": d.seat,
                      "cards": [list(c) for c in d.cards]} for d in decks}


# ---------------------------------------------------------------- a report verifies itself

#: what a sealed report says it is (docs/formats.md §7)
REPORT_FORMAT = "c1k-simulation-report"
REPORT_VERSION = 2
#: at most this many changes are named when a changed report is refused
NAMED_CHANGES = 6


def _canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def _digest(value: Any) -> str:
    return hashlib.sha256(_canonical(value)).hexdigest()[:16]


def _parts(report: dict[str, Any]) -> dict[str, Any]:
    """The digest of each part of a report: a table (`run`, `decks`, `card_set` …) has one per key, a list
    (`games`, `pairs`, `cards` …) one per row, anything else one."""
    out: dict[str, Any] = {}
    for key, value in report.items():
        if key == "integrity":
            continue
        if isinstance(value, dict) and value:
            out[key] = {k: _digest(v) for k, v in value.items()}
        elif isinstance(value, list) and value:
            out[key] = [_digest(v) for v in value]
        else:
            out[key] = _digest(value)
    return out


def seal_report(report: dict[str, Any]) -> dict[str, Any]:
    """The report as it is written: its format and version, and an `integrity` table — the SHA-256 of
    everything else it says, and a digest of each part — which `load_report` checks (reports verify
    themselves like match records: docs/formats.md §7)."""
    body = json.loads(json.dumps({k: v for k, v in report.items() if k != "integrity"}))   # (as it will read)
    body["format"], body["version"] = REPORT_FORMAT, REPORT_VERSION
    return {**body, "integrity": {"sha256": hashlib.sha256(_canonical(body)).hexdigest(), "parts": _parts(body)}}


def _changes(said: Any, now: dict[str, Any]) -> list[str]:
    """What differs between the part digests a report carries and its content now, in words."""
    if not isinstance(said, dict):
        return []
    out: list[str] = []
    for key in sorted(set(said) | set(now)):
        a, b = said.get(key), now.get(key)
        if a == b:
            continue
        if key not in now:
            out.append(f"'{key}' was removed")
        elif key not in said:
            out.append(f"'{key}' was added")
        elif isinstance(a, dict) and isinstance(b, dict):
            out += [f"'{key}.{k}' was {'removed' if k not in b else 'added' if k not in a else 'changed'}"
                    for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
        elif isinstance(a, list) and isinstance(b, list):
            if len(a) != len(b):
                out.append(f"'{key}' has {len(b)} rows; it was written with {len(a)}")
            out += [f"'{key}[{i}]' was changed" for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y]
        else:
            out.append(f"'{key}' was changed")
    return out


def verify_report(data: dict[str, Any], where: str) -> None:
    """SimulateError unless the report is exactly as `c1k simulate` (or the Lab) wrote it, naming what
    changed where it can."""
    seal = data.get("integrity")
    if data.get("format") != REPORT_FORMAT or not isinstance(seal, dict):
        raise SimulateError(f"{where}: not a simulation report of this version (it has no 'format' "
                            f"\"{REPORT_FORMAT}\" and 'integrity' table): run `c1k simulate --json` again")
    if data.get("version") != REPORT_VERSION:
        raise SimulateError(f"{where}: a simulation report of version {data.get('version')!r}; this version of "
                            f"c1k reads version {REPORT_VERSION}: run `c1k simulate --json` again")
    body = {k: v for k, v in data.items() if k != "integrity"}
    parts = _parts(body)
    if hashlib.sha256(_canonical(body)).hexdigest() == seal.get("sha256") and parts == seal.get("parts") \
            and set(seal) == {"sha256", "parts"}:
        return
    changes = _changes(seal.get("parts"), parts) or ["its 'integrity' table was changed"]
    more = f" (and {len(changes) - NAMED_CHANGES} more)" if len(changes) > NAMED_CHANGES else ""
    raise SimulateError(f"{where}: the report was changed after it was written — "
                        + "; ".join(changes[:NAMED_CHANGES]) + more
                        + ". A report is refused unless it is exactly as written (its SHA-256 is in it)")


def load_report(path: Path) -> dict[str, Any]:
    """A `c1k simulate --json` report (bounded read), verified (`verify_report`); SimulateError names the
    file and what is wrong."""
    from engine.safeio import ReadRefused, read_bounded

    try:           # a regular file within the cap, or refused before a byte is read (a FIFO, /dev/zero)
        data = json.loads(read_bounded(path, "reports").decode("utf-8"))
    except ReadRefused as err:
        raise SimulateError(str(err)) from err
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as err:
        raise SimulateError(f"{path}: can't be read as a simulation report: {err}") from err
    if not isinstance(data, dict):
        raise SimulateError(f"{path}: not a simulation report (written by `c1k simulate --json`)")
    verify_report(data, str(path))
    if not isinstance(data.get("games"), list) or not isinstance(data.get("decks"), dict):
        raise SimulateError(f"{path}: not a simulation report with its matches (written by `c1k simulate --json` "
                            "of this version: it lists 'games' and 'decks')")
    return data


def replay_match(report: dict[str, Any], index: int, where: str = "the report") -> Any:
    """Play match `index` of a simulation report again, from its seed, decks, cards and agents, and return
    its match record (engine/record.py). SimulateError if the report lacks it, or if the match now ends
    otherwise than the report says (the engine, the agents or the cards changed)."""
    from engine import CardFileError, Game, MatchOptions, deck_from_data, derive_seed
    from engine.ai import make_agent, play_match
    from engine.record import Recorder, Start

    rows = {g.get("match"): g for g in report["games"] if isinstance(g, dict)}
    row = rows.get(index) if type(index) is int else None
    if row is None:
        raise SimulateError(f"{where} has no match {index}; {match_range(report)}")
    db = report_card_db(report, where)
    try:
        decks = {}
        for side in ("a", "b"):
            label = row[f"deck_{side}"]
            d = report["decks"][label]
            data: dict[str, object] = {"deck": {"name": d.get("name") or label, "champion": d["champion"], "seat": d["seat"]},
                    "cards": {str(cid): int(n) for cid, n in d["cards"]}}
            decks[side] = deck_from_data(data, db, f"deck '{label}' of {where}", playtest=True)
        seed = int(row["seed"])
        a_first = bool(row["a_first"])
        max_turns = int((report.get("run") or {}).get("max_turns", DEFAULT_MAX_TURNS))
        agent_a, agent_b = make_agent(row["agent_a"], derive_seed(seed, 1)), make_agent(row["agent_b"],
                                                                                         derive_seed(seed, 2))
    except CardFileError as err:
        raise SimulateError("\n".join(err.problems)) from err
    except (KeyError, TypeError, ValueError) as err:
        raise SimulateError(f"{where}: match {index} can't be set up: {type(err).__name__}: {err}") from err
    first, second = (decks["a"], decks["b"]) if a_first else (decks["b"], decks["a"])
    options = MatchOptions(max_turns=max_turns)
    game = Game.new(db, first, second, seed, options)
    recorder = Recorder(Start.of_decks([first, second], seed, options), game)
    result = play_match(game, (agent_a, agent_b) if a_first else (agent_b, agent_a))
    seat_a = 0 if a_first else 1
    winner = "draw" if result.winner is None else ("a" if result.winner == seat_a else "b")
    now = (winner, result.turns, result.termination)
    then = (row.get("winner"), row.get("turns"), row.get("termination"))
    if now != then:
        raise SimulateError(f"match {index} plays differently now: {where} says {then[0]} won after {then[1]} turns "
                            f"({then[2]}); it now ends {now[0]} after {now[1]} turns ({now[2]}) — the engine or "
                            "the agents changed since the report was written")
    record = recorder.record(game)
    try:
        record.agents = {"p1": (str(row["agent_p1"]), derive_seed(seed, 1 if a_first else 2)),
                         "p2": (str(row["agent_p2"]), derive_seed(seed, 2 if a_first else 1))}
    except KeyError as err:
        raise SimulateError(f"{where}: match {index} has no {err} field") from err
    return record


def report_card_db(report: dict[str, Any], where: str = "the report") -> Any:
    """The card set a report's matches were played with (the bundled set and the cards the report
    defines); SimulateError when today's cards differ from those it names."""
    from engine import CardFileError, load_card_db
    from engine.cardset import with_manifest

    try:
        return with_manifest(load_card_db(), report.get("card_set") or {}, where)
    except CardFileError as err:
        raise SimulateError("the report's matches were played with other cards:\n" + "\n".join(err.problems)) from err


def match_range(report: dict[str, Any]) -> str:
    """The match numbers a report holds, in words."""
    n = len(report.get("games") or [])
    return f"its matches are numbered 1 to {n}" if n else "it holds no match"


def match_number(text: str, report: dict[str, Any]) -> int:
    """`--match N` of a report: a whole number (digits only, no sign or point) of one of its matches."""
    rows = {g.get("match") for g in report.get("games") or [] if isinstance(g, dict)}
    n = int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else None
    if n is None or n not in rows:
        raise SimulateError(f"--match {text!r}: not a match of the report; {match_range(report)}")
    return n


def resolve_compare(old: str, new: str, field_names: Sequence[str] | None,
                    cards: Sequence[Path]) -> tuple[list[DeckRef], DeckRef, DeckRef, list[DeckRef]]:
    """(every deck, OLD, NEW, the field): the field is `field_names`, or every bundled deck that is neither
    OLD's nor NEW's file or list."""
    from engine import bundled_deck_paths, find_deck

    try:
        po, pn = find_deck(old).resolve(), find_deck(new).resolve()
    except FileNotFoundError as err:
        raise SimulateError(str(err)) from err
    if po == pn:
        raise SimulateError(f"--compare: OLD and NEW are the same file ({po})")
    names = list(field_names or [])
    every = resolve_decks([old, new, *names], not names, cards)
    ref_old = next(d for d in every if d.path == str(po))
    ref_new = next(d for d in every if d.path == str(pn))
    if ref_old.digest == ref_new.digest:
        raise SimulateError(f"--compare: {ref_old.label} and {ref_new.label} hold the same list")
    if names:
        wanted = {find_deck(n).resolve() for n in names}
        fld = [d for d in every if Path(d.path) in wanted and d.path not in (str(po), str(pn))]
    else:
        bundled = {b.resolve() for b in bundled_deck_paths()}
        fld = [d for d in every if Path(d.path) in bundled and d.path not in (str(po), str(pn))
               and d.digest not in (ref_old.digest, ref_new.digest)]
    if not fld:
        raise SimulateError("--compare: no deck left in the field to play against")
    used = {ref_old.path, ref_new.path} | {d.path for d in fld}
    return [d for d in every if d.path in used], ref_old, ref_new, fld
