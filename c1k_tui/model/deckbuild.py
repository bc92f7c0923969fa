"""The deck builder's policy (no Textual): the card pool and its filters, a deck being built, its live
summary (curve, Realms, types, counts), its construction problems — the same messages as `c1k validate`,
every one at once — and the TOML text it saves, written atomically.

The screen (c1k_tui/screens/deck_builder.py) only shows these and passes keys to them.
"""

from __future__ import annotations

import os
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import CardDB, CardDef, CardFileError, deck_from_data
from engine.cardset import LIBRARY_SIZE as LIBRARY_SIZE
from engine.cardset import MAX_COPIES, MAX_REALMS, read_toml

#: the kinds of card that go in a deck's library
LIBRARY_TYPES = ("unit", "relic", "action")
#: the curve's last column holds this cost and more
CURVE_TOP = 7
#: a new deck's label in messages until it has a path
UNSAVED = "(new deck)"


# ------------------------------------------------------------------------------------------ the pool


@dataclass(frozen=True)
class CardFilter:
    """What the pool is narrowed to; an empty field matches every card."""

    realm: str = ""
    type: str = ""
    cost: str = ""         # "2", "2-4" or "5+"
    keyword: str = ""
    text: str = ""         # in the name, the id or the rules text


def parse_cost(text: str | None, what: str = "cost") -> tuple[int, int] | None:
    """"2" (exactly), "2-4" (a range), "5+" (5 or more) as (low, high); "" or None is None. ValueError says
    why, naming `what` (the builder's cost field, or `c1k cards --cost`)."""
    t = (text or "").strip()
    if not t:
        return None
    try:
        if t.endswith("+"):
            lo, hi = int(t[:-1]), 10**6
        elif "-" in t.lstrip("-"):
            a, b = t.split("-", 1)
            lo, hi = int(a), int(b)
        else:
            lo = hi = int(t)
    except ValueError:
        raise ValueError(f"{what} '{text}': expected a cost (2), a range (2-4) or a floor (5+)") from None
    if lo < 0 or hi < lo:
        raise ValueError(f"{what} '{text}': expected costs from 0 up, the lower first (2-4)")
    return lo, hi


def pool(db: CardDB) -> list[CardDef]:
    """Every card a deck's library may hold (units, relics, actions; no tokens), by cost then name."""
    return sorted((c for c in db.by_id.values() if c.type in LIBRARY_TYPES and not c.token),
                  key=lambda c: (c.cost, c.name, c.id))


def heads(db: CardDB, kind: str) -> list[CardDef]:
    """The champions (kind "champion") or Seats (kind "seat"), by name."""
    return sorted((c for c in db.by_id.values() if c.type == kind), key=lambda c: (c.name, c.id))


def realms(db: CardDB) -> list[str]:
    return sorted({c.realm for c in pool(db)})


def keywords(db: CardDB) -> list[str]:
    return sorted({k for c in pool(db) for k in c.keywords})


def matches(card: CardDef, f: CardFilter) -> bool:
    """Whether the card passes the filter (ValueError: the cost field can't be read)."""
    costs = parse_cost(f.cost)
    if costs is not None and not costs[0] <= card.cost <= costs[1]:
        return False
    if f.realm and card.realm != f.realm.lower():
        return False
    if f.type and card.type != f.type.lower():
        return False
    if f.keyword and f.keyword.lower().split()[0] not in card.keywords:
        return False
    if f.text:
        s = f.text.lower().strip()
        if s not in card.name.lower() and s not in card.text.lower() and s not in card.id:
            return False
    return True


def filter_pool(db: CardDB, f: CardFilter) -> list[CardDef]:
    """The pool narrowed by the filter, by cost then name. ValueError: the cost field can't be read."""
    parse_cost(f.cost)
    return [c for c in pool(db) if matches(c, f)]


def stats(card: CardDef) -> str:
    return f"{card.power}/{card.health}" if card.type == "unit" else ""


@dataclass(frozen=True)
class CardPreview:
    """A card as the table's card panel draws it (plain strings: the screen styles them): its name; its
    kind line ("unit, ◆2, Slow, 3/4 · Emberfall"); its text; what the engine does, in the engine's own
    words (`describe_effects`: on play, and per ability), so a designer reads text and effects side by
    side; and its keywords with their rule ids."""
    name: str
    kind: str
    text: str
    effects: tuple[str, ...]
    keywords: tuple[tuple[str, str], ...]    # (keyword as the card has it, its rule id)


def _ability_head(ab: Any) -> str:
    if ab.when is not None:
        return f"when {ab.when.replace('_', ' ')}"
    if ab.activate is not None:
        act = ab.activate
        return ("activate: ◆" + str(act.cost) + (", exhaust" if act.exhaust else "") + f", {act.speed.capitalize()}"
                + (", once per turn" if act.once_per_turn or ab.once_per_turn else ""))
    return f"Interrupt ({str(ab.interrupt).replace('_', ' ')}), ◆{ab.cost}"


def card_preview(card: CardDef) -> CardPreview:
    from c1k_tui.model.rulesdoc import keyword_rule

    kind = ([card.type, f"life {card.life}"] if card.type == "champion" else
            [card.type, f"◆{card.cost}"] + ([card.speed.capitalize()] if card.speed else []))
    kind += [stats(card)] if stats(card) else []
    kind += [f"Voidcast ◆{card.voidcast}"] if card.voidcast is not None else []
    # (`card.describe`: `self` reads as the card's type says — the unit itself, an action's "your Champion")
    effects = [f"on play: {card.describe(card.effect)}"] if card.effect else []
    effects += [f"{_ability_head(ab)}: {card.describe(ab.effect)}" for ab in card.abilities]
    keywords = tuple((f"{k} {n}" if n else k, keyword_rule(k)) for k, n in card.keywords.items())
    return CardPreview(card.name, ", ".join(kind) + f" · {card.realm}", card.text, tuple(effects), keywords)


# ------------------------------------------------------------------------------------------ the deck


@dataclass
class DeckDraft:
    """A deck being built: its head, its cards (id -> copies, in the order they were added), the card files
    it names (kept as they were), the comment it opened with, and where it was opened from."""

    name: str = ""
    champion: str = ""
    seat: str = ""
    counts: dict[str, int] = field(default_factory=dict)
    card_files: list[str] = field(default_factory=list)
    comment: list[str] = field(default_factory=list)       # the file's leading "# …" lines
    path: Path | None = None

    def copies(self, card_id: str) -> int:
        return self.counts.get(card_id, 0)

    def size(self) -> int:
        return sum(self.counts.values())

    def add(self, card_id: str, n: int = 1) -> None:
        """One more copy (the rules are checked by `problems`, so a deck can pass through a broken state)."""
        self.counts[card_id] = self.counts.get(card_id, 0) + n

    def remove(self, card_id: str, n: int = 1) -> None:
        left = self.counts.get(card_id, 0) - n
        if left > 0:
            self.counts[card_id] = left
        else:
            self.counts.pop(card_id, None)


def label(draft: DeckDraft) -> str:
    return str(draft.path) if draft.path is not None else UNSAVED


def open_deck(path: Path, db: CardDB) -> DeckDraft:
    """A deck file as a draft, as far as it can be read: cards named by name become ids; unknown cards and
    odd counts are kept, so `problems` names them. CardFileError: not TOML, or no [deck]/[cards] shape."""
    data, text = read_toml(path)
    head = data.get("deck")
    cards = data.get("cards", {})
    if not isinstance(head, dict) or not isinstance(cards, dict):
        raise CardFileError(str(path), [f"{path}:1: a deck file has a [deck] table (name, champion, seat) "
                                        "and a [cards] table (card id or name = copies)"])

    def ident(key: object) -> str:
        card = db.get(str(key)) if isinstance(key, str) else None
        return card.id if card is not None else str(key)

    counts: dict[str, int] = {}
    for k, v in cards.items():
        n = v if isinstance(v, int) and not isinstance(v, bool) and v > 0 else 0
        if n:
            counts[ident(k)] = counts.get(ident(k), 0) + n
    files = head.get("card_files", [])
    comment = []
    for ln in text.splitlines():
        if not ln.startswith("#"):
            break
        comment.append(ln)
    return DeckDraft(str(head.get("name", "")) if isinstance(head.get("name", ""), str) else "",
                     ident(head.get("champion", "")) if head.get("champion") else "",
                     ident(head.get("seat", "")) if head.get("seat") else "", counts,
                     [f for f in files if isinstance(f, str)] if isinstance(files, list) else [], comment, path)


def _q(s: str) -> str:
    """A TOML basic string."""
    out = s.replace("\\", "\\\\").replace('"', '\\"')
    out = "".join(ch if ch >= " " and ch != "\x7f" else f"\\u{ord(ch):04x}" for ch in out)
    return f'"{out}"'


def toml_text(draft: DeckDraft, db: CardDB) -> str:
    """The deck file: its comment, [deck] and [cards] by cost (a "# N cost" line before each cost), as the
    bundled decks are written. Unknown cards (kept from an opened file) come last."""
    lines = list(draft.comment)
    lines += ["[deck]", f"name = {_q(draft.name or (draft.path.stem if draft.path else 'New deck'))}"]
    # a head not chosen yet is left out, so validation says what it needs rather than "unknown card ''"
    lines += [f"{key} = {_q(val)}" for key, val in (("champion", draft.champion), ("seat", draft.seat)) if val]
    if draft.card_files:
        lines.append("card_files = [" + ", ".join(_q(f) for f in draft.card_files) + "]")
    lines += ["", "[cards]"]
    known = sorted((db.by_id[c] for c in draft.counts if c in db.by_id), key=lambda c: (c.cost, c.name, c.id))
    cost = None
    for c in known:
        if c.cost != cost:
            cost = c.cost
            lines.append(f"# {cost} cost")
        lines.append(f"{_q(c.id)} = {draft.counts[c.id]}")
    unknown = [c for c in draft.counts if c not in db.by_id]
    if unknown:
        lines.append("# not in the card set")
        lines += [f"{_q(c)} = {draft.counts[c]}" for c in unknown]
    return "\n".join(lines) + "\n"


def problems(draft: DeckDraft, db: CardDB) -> list[str]:
    """Every construction problem (docs/formats.md §3), as `c1k validate` words them for the file `toml_text`
    would write (file:line: …); [] when the deck is legal."""
    text = toml_text(draft, db)
    try:
        deck_from_data(tomllib.loads(text), db, label(draft), text, playtest=False)
    except CardFileError as err:
        return list(err.problems)
    return []


# ------------------------------------------------------------------------------------------ the summary


@dataclass(frozen=True)
class Summary:
    size: int
    distinct: int
    curve: list[tuple[str, int]]          # ("0", n) … ("7+", n)
    realms: list[tuple[str, int]]
    types: list[tuple[str, int]]
    average_cost: float


def summary(draft: DeckDraft, db: CardDB) -> Summary:
    lib = [db.by_id[c] for c, n in draft.counts.items() if c in db.by_id for _ in range(n)]
    curve = Counter(min(c.cost, CURVE_TOP) for c in lib)
    return Summary(
        draft.size(), len(draft.counts),
        [(f"{k}+" if k == CURVE_TOP else str(k), curve.get(k, 0)) for k in range(CURVE_TOP + 1)],
        sorted(Counter(c.realm for c in lib).items()), sorted(Counter(c.type for c in lib).items()),
        round(sum(c.cost for c in lib) / len(lib), 2) if lib else 0.0)


def curve_lines(s: Summary, width: int = 16) -> list[str]:
    """The curve as text bars, one line per cost: ` 2 │████████   7`."""
    peak = max((n for _, n in s.curve), default=0) or 1
    return [f"{k:>2} │{'█' * round(width * n / peak):<{width}} {n}" for k, n in s.curve]


def status_line(draft: DeckDraft, db: CardDB) -> str:
    """One line: the count against 40, the Realms against the limit, the state by glyph."""
    s = summary(draft, db)
    named = [r for r, _ in s.realms if r != "neutral"]
    ok = not problems(draft, db)
    return (f"{'✓' if ok else '✗'} {s.size}/{LIBRARY_SIZE} cards · {len(named)}/{MAX_REALMS} Realms"
            f"{' (' + ', '.join(named) + ')' if named else ''} · ≤{MAX_COPIES} each · avg cost {s.average_cost}")


# ------------------------------------------------------------------------------------------ saving


def card_files_for(draft: DeckDraft, db: CardDB, path: Path) -> list[str]:
    """The card files a deck saved at `path` names: those it named (re-rooted at the new folder when it moves),
    then the file of each own (not bundled) card it uses that isn't among them — so `c1k play DECK` finds its
    cards without --cards. Relative to the deck's folder, in / form."""
    from engine.cardset import is_bundled

    new_dir = (path.parent if str(path.parent) else Path(".")).resolve()
    old_dir = (draft.path.parent if draft.path is not None else Path(".")).resolve()
    out: list[str] = []
    have: set[Path] = set()

    def keep(file: Path) -> None:
        if file not in have:
            have.add(file)
            out.append(Path(os.path.relpath(file, new_dir)).as_posix())

    for f in draft.card_files:
        keep((old_dir / f).resolve())
    for cid in [*draft.counts, draft.champion, draft.seat]:
        where = db.origin.get(cid, "") if cid in db.by_id else ""
        if where and not is_bundled(db, cid):
            file = Path(where.rsplit(":", 1)[0])
            if file.is_file():
                keep(file.resolve())
    return out


def save(draft: DeckDraft, path: Path, db: CardDB, overwrite: bool = False) -> Path:
    """Write the deck's TOML to `path` atomically (a temporary file beside it, fsync'd, then a rename), after
    checking the text reads back as the same deck. WriteRefused (an OSError) for a device, FIFO, folder or
    link; FileExistsError when the file exists and `overwrite` is False (the screen asks first); OSError when
    it can't be written. The deck names the card files of the own cards it uses (card_files_for)."""
    files = card_files_for(draft, db, path)
    text = toml_text(DeckDraft(draft.name, draft.champion, draft.seat, draft.counts, files, draft.comment,
                               draft.path), db)
    back: dict[str, Any] = tomllib.loads(text)
    if back["cards"] != dict(draft.counts) or back["deck"].get("champion", "") != draft.champion:
        raise ValueError("the deck's TOML doesn't read back as the deck (a bug): not saved")
    from engine.safeio import place_refusal, write_atomic

    refused = place_refusal(path)      # a device, FIFO, folder or link: never, whatever was answered
    if refused is not None:
        raise refused
    if path.exists() and not overwrite:
        raise FileExistsError(f"{path} exists")
    # the one write policy (engine/safeio.py): atomic, fsync'd; the screen asked before replacing a file
    write_atomic(path, text, "decks", force=overwrite)
    draft.path, draft.card_files = path, files
    return path


def suggest_path(draft: DeckDraft) -> str:
    """Where to save by default: where it was opened from, or `<name>.toml` here."""
    if draft.path is not None:
        return str(draft.path)
    stem = "".join(ch if ch.isalnum() else "-" for ch in (draft.name or "my-deck").lower()).strip("-")
    return f"{stem or 'my-deck'}.toml"
