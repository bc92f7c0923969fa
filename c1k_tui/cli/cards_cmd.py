"""`c1k cards`: the card set as a Rich table, filtered by Realm, keyword, type, cost or text."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from engine import CardDB, CardDef


def parse_cost(text: str | None) -> tuple[int, int] | None:
    """`--cost`: "2" (exactly), "2-4" (a range) or "5+" (5 or more), as (low, high). ValueError says why."""
    if text is None:
        return None
    t = text.strip()
    try:
        if t.endswith("+"):
            lo, hi = int(t[:-1]), 10**6
        elif "-" in t.lstrip("-"):
            a, b = t.split("-", 1)
            lo, hi = int(a), int(b)
        else:
            lo = hi = int(t)
    except ValueError:
        raise ValueError(f"--cost '{text}': expected a cost (2), a range (2-4) or a floor (5+)") from None
    if lo < 0 or hi < lo:
        raise ValueError(f"--cost '{text}': expected costs from 0 up, the lower first (2-4)")
    return lo, hi


def card_matches(card: CardDef, realm: str | None, keyword: str | None, search: str | None,
                 card_type: str | None, costs: tuple[int, int] | None = None) -> bool:
    if costs is not None and not costs[0] <= card.cost <= costs[1]:
        return False
    if realm and card.realm != realm.lower():
        return False
    if keyword and keyword.lower().split()[0] not in card.keywords:
        return False
    if card_type and card.type != card_type.lower():
        return False
    if search:
        s = search.lower()
        if s not in card.name.lower() and s not in card.text.lower() and s not in card.id:
            return False
    return True


def stats(card: CardDef) -> str:
    if card.type == "unit":
        return f"{card.power}/{card.health}"
    if card.type == "champion":
        return f"♥{card.life}"
    return ""


def cards_table(db: CardDB, realm: str | None = None, keyword: str | None = None, search: str | None = None,
                card_type: str | None = None, tokens: bool = True, costs: tuple[int, int] | None = None) -> Table:
    rows = [c for c in db.by_id.values() if card_matches(c, realm, keyword, search, card_type, costs)
            and (tokens or not c.token)]
    order = {"champion": 0, "seat": 1, "unit": 2, "relic": 3, "action": 4}
    rows.sort(key=lambda c: (c.realm, order.get(c.type, 9), c.cost, c.name))
    title = f"{len(rows)} card(s)" + "".join(f" · {k} {v}" for k, v in (("realm", realm), ("keyword", keyword),
                                                                     ("type", card_type), ("search", search)) if v)
    if costs is not None:
        title += f" · cost {costs[0]}" + ("+" if costs[1] >= 10**6 else f"–{costs[1]}" if costs[1] != costs[0] else "")
    table = Table(title=title, show_lines=False, expand=False)
    for col, style in (("id", "dim"), ("name", "bold"), ("realm", ""), ("type", ""), ("cost", ""),
                       ("speed", ""), ("stats", ""), ("text", "")):
        table.add_column(col, style=style or None, overflow="fold")
    for c in rows:
        kind = c.type + (" (token)" if c.token else "")
        speed = c.speed if c.type in ("unit", "relic", "action") else ""
        table.add_row(c.id, c.name, c.realm, kind, str(c.cost), speed, stats(c), c.text)
    return table


def print_cards(db: CardDB, realm: str | None, keyword: str | None, search: str | None, card_type: str | None,
                width: int | None = None, costs: tuple[int, int] | None = None) -> int:
    table = cards_table(db, realm, keyword, search, card_type, costs=costs)
    Console(width=width).print(table)
    return table.row_count
