"""The rule browser in the app: any rule id opens its text; every rule can be browsed and searched.

`open_rule(app, "C1K 4.3")` pushes the browser at that rule (an unknown id opens its nearest family
section). The search field has the focus: type words and Enter for every rule (and explanatory section,
such as "How priority works") that contains them, each with the words around the match — a keyword or rule
id named comes first — or a did-you-mean when nothing matches; ↓ goes to the list. Left: the rules; right:
the rule as Markdown. Escape closes it.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Markdown, OptionList, Static
from textual.widgets.option_list import Option

from c1k_tui.model import rulesdoc
from c1k_tui.screens.controls import KeysFooter


class RuleBrowser(ModalScreen[None]):
    BINDINGS = [Binding("escape", "close", "close")]
    DEFAULT_CSS = """
    RuleBrowser > Vertical { width: 90%; height: 90%; border: round $accent; background: $surface; }
    RuleBrowser #rule-ids { width: 30; }
    RuleBrowser #rule-text { width: 1fr; }
    RuleBrowser Input { height: 3; }
    RuleBrowser #rule-note { height: auto; color: $text-muted; }
    """

    def __init__(self, rule_id: str = "", on_screen: list[str] | None = None) -> None:
        super().__init__()
        rid = rulesdoc.normalize_id(rule_id) if rule_id else None
        self.rule_id = rid or (rulesdoc.section(rule_id)[0] if rule_id else "C1K 6")
        #: the rule ids on screen when the browser was opened (a refusal's, the card's keywords, the
        #: window's): listed first, so each is one ↑/↓ away
        self.pinned: list[str] = []
        for x in on_screen or []:
            got = rulesdoc.normalize_id(x) or (rulesdoc.section(x)[0] if x else "")
            if got and got not in self.pinned:
                self.pinned.append(got)
        self.ids = rulesdoc.all_ids()

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Input(placeholder="find rules by word (Enter) · ↓ the list · Escape closes", id="rule-search")
            yield Static("", id="rule-note")
            with Horizontal():
                yield OptionList(*self._pinned_options(), *self._options(self.ids), *self._topic_options(),
                                 id="rule-ids")
                with VerticalScroll(id="rule-text"):
                    yield Markdown(rulesdoc.rule_markdown(self.rule_id), id="rule-md")
        yield KeysFooter()

    def _options(self, ids: list[str]) -> list[Option]:
        table = rulesdoc.rules()
        return [Option(Text.assemble((rid, "bold cyan"), " ", table.get(rid, ("", ""))[0]), id=rid) for rid in ids]

    def _topic_options(self) -> list[Option]:
        return [Option(Text.assemble(("§ ", "bold"), (title, "bold")), id=title) for title in rulesdoc.topics()]

    def _hit_options(self, hits: list[rulesdoc.Hit]) -> list[Option]:
        out = []
        for h in hits:
            head = Text.assemble((h.id, "bold cyan"), " ", h.title) if h.title else Text.assemble(("§ ", "bold"),
                                                                                                 (h.id, "bold"))
            out.append(Option(Text.assemble(head, "\n", (h.snippet, "dim")), id=h.id))
        return out

    def _pinned_options(self) -> list[Option]:
        table = rulesdoc.rules()
        return [Option(Text.assemble(("• ", "bold"), (rid, "bold cyan"), " ", table.get(rid, ("", ""))[0]),
                       id=f"pin:{rid}") for rid in self.pinned]

    def on_mount(self) -> None:
        ol = self.query_one("#rule-ids", OptionList)
        if self.rule_id in self.pinned:
            ol.highlighted = self.pinned.index(self.rule_id)
        elif self.rule_id in self.ids:
            ol.highlighted = len(self.pinned) + self.ids.index(self.rule_id)
        self.query_one("#rule-search", Input).focus()

    def on_key(self, event: events.Key) -> None:
        """↓/↑ in the search field: into the list, one rule on (the pinned rules are one key away)."""
        ol = self.query_one("#rule-ids", OptionList)
        if self.focused is self.query_one("#rule-search", Input) and event.key in ("down", "up"):
            event.stop()
            ol.focus()
            if event.key == "down":
                ol.action_cursor_down()
            else:
                ol.action_cursor_up()

    def show(self, rid: str) -> None:
        self.rule_id = rid
        self.query_one("#rule-md", Markdown).update(rulesdoc.rule_markdown(rid))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id:
            self.show(event.option.id.removeprefix("pin:"))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        words = event.value.strip()
        note = self.query_one("#rule-note", Static)
        ol = self.query_one("#rule-ids", OptionList)
        ol.clear_options()
        if not words:
            note.update("")
            ol.add_options([*self._options(self.ids), *self._topic_options()])
            return
        hits, maybe = rulesdoc.find(words)
        if not hits:
            note.update(Text.assemble(f"no rule mentions '{words}'", (f" — did you mean '{maybe}'?" if maybe else
                                                                     " — `c1k rules` lists every rule id")))
            if maybe:
                hits, _ = rulesdoc.find(maybe)
        else:
            note.update(f"{len(hits)} rule{'s' if len(hits) != 1 else ''} mention '{words}' (best first)")
        ol.add_options(self._hit_options(hits))
        if hits:
            ol.highlighted = 0
            self.show(hits[0].id)

    def action_close(self) -> None:
        self.dismiss(None)


def open_rule(app: Any, rule_id: str = "", on_screen: list[str] | None = None) -> None:
    """Open the rule browser at `rule_id` (any id shown on screen: a window's, a refusal's, a keyword's),
    with the other ids on screen (`on_screen`) listed first."""
    app.push_screen(RuleBrowser(rule_id, on_screen))
