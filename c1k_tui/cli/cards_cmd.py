"""`c1k cards`: the card set as a Rich table, filtered by Realm, keyword, type, cost or text."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from engine import CardDB, CardDef


def parse_cost(text: str | None) -> tuple[int, int] | None:
    """`--cost`: "2" (exactly), "2-4" (a range) or "5+" (5 or more), as (low, high); the deck builder's rule
    (c1k_tui/model/deckbuild.py). Given but empty is a mistake here. ValueError says why."""
    from c1k_tui.model.deckbuild import parse_cost as parse

    if text is not None and not text.strip():
        raise ValueError(f"--cost '{text}': expected a cost (2), a range (2-4) or a floor (5+)")
    return parse(text, "--cost")


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


COLUMNS = ("id", "name", "realm", "type", "cost", "speed", "stats", "text")


def selected(db: CardDB, realm: str | None = None, keyword: str | None = None, search: str | None = None,
             card_type: str | None = None, tokens: bool = True, costs: tuple[int, int] | None = None) -> list[CardDef]:
    """The cards shown, in the table's order: by Realm, then type, cost and name."""
    rows = [c for c in db.by_id.values() if card_matches(c, realm, keyword, search, card_type, costs)
            and (tokens or not c.token)]
    order = {"champion": 0, "seat": 1, "unit": 2, "relic": 3, "action": 4}
    rows.sort(key=lambda c: (c.realm, order.get(c.type, 9), c.cost, c.name))
    return rows


def _cells(c: CardDef) -> tuple[str, ...]:
    kind = c.type + (" (token)" if c.token else "")
    speed = c.speed if c.type in ("unit", "relic", "action") else ""
    return (c.id, c.name, c.realm, kind, str(c.cost), speed, stats(c), c.text)


def card_rows(db: CardDB, realm: str | None = None, keyword: str | None = None, search: str | None = None,
              card_type: str | None = None, costs: tuple[int, int] | None = None) -> list[dict[str, object]]:
    """`c1k cards --json`: each card shown as data."""
    out: list[dict[str, object]] = []
    for c in selected(db, realm, keyword, search, card_type, costs=costs):
        row: dict[str, object] = {"id": c.id, "name": c.name, "realm": c.realm, "type": c.type, "cost": c.cost,
                                  "keywords": dict(c.keywords), "text": c.text, "token": c.token}
        if c.type in ("unit", "relic", "action"):
            row["speed"] = c.speed
        if c.type == "unit":
            row["power"], row["health"] = c.power, c.health
        if c.type == "champion":
            row["life"] = c.life
        out.append(row)
    return out


def cards_table(db: CardDB, realm: str | None = None, keyword: str | None = None, search: str | None = None,
                card_type: str | None = None, tokens: bool = True, costs: tuple[int, int] | None = None) -> Table:
    rows = selected(db, realm, keyword, search, card_type, tokens, costs)
    title = f"{len(rows)} card(s)" + "".join(f" · {k} {v}" for k, v in (("realm", realm), ("keyword", keyword),
                                                                     ("type", card_type), ("search", search)) if v)
    if costs is not None:
        title += f" · cost {costs[0]}" + ("+" if costs[1] >= 10**6 else f"–{costs[1]}" if costs[1] != costs[0] else "")
    table = Table(title=title, show_lines=False, expand=False)
    for col, style in (("id", "dim"), ("name", "bold"), ("realm", ""), ("type", ""), ("cost", ""),
                       ("speed", ""), ("stats", ""), ("text", "")):
        table.add_column(col, style=style or None, overflow="fold")
    for c in rows:
        table.add_row(*_cells(c))
    return table


def plain_line(cells: tuple[str, ...] | list[str]) -> str:
    """One row for a pipe: tab-separated, each cell on one line (tabs and newlines become spaces)."""
    return "\t".join(" ".join(str(x).split()) for x in cells)


def print_cards(db: CardDB, realm: str | None, keyword: str | None, search: str | None, card_type: str | None,
                width: int | None = None, costs: tuple[int, int] | None = None, plain: bool = False) -> int:
    """The table on a terminal; `plain` (stdout is a pipe or a file): a header line, then one card a line."""
    if plain:
        import typer

        rows = selected(db, realm, keyword, search, card_type, costs=costs)
        typer.echo(plain_line(COLUMNS))
        for c in rows:
            typer.echo(plain_line(_cells(c)))
        return len(rows)
    table = cards_table(db, realm, keyword, search, card_type, costs=costs)
    Console(width=width).print(table)
    return table.row_count
