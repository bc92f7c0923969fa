"""`c1k cards`: the card set as a Rich table, filtered by Realm, keyword or text."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from engine import CardDB, CardDef


def card_matches(card: CardDef, realm: str | None, keyword: str | None, search: str | None,
                 card_type: str | None) -> bool:
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
                card_type: str | None = None, tokens: bool = True) -> Table:
    rows = [c for c in db.by_id.values() if card_matches(c, realm, keyword, search, card_type)
            and (tokens or not c.token)]
    order = {"champion": 0, "seat": 1, "unit": 2, "relic": 3, "action": 4}
    rows.sort(key=lambda c: (c.realm, order.get(c.type, 9), c.cost, c.name))
    title = f"{len(rows)} card(s)" + "".join(f" · {k} {v}" for k, v in (("realm", realm), ("keyword", keyword),
                                                                     ("type", card_type), ("search", search)) if v)
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
                width: int | None = None) -> int:
    table = cards_table(db, realm, keyword, search, card_type)
    Console(width=width).print(table)
    return table.row_count
