"""A choice of N options in a dialog (discard down to hand size, order Flux triggers) — values, no Textual.

The dialog marks rows with Space; this model keeps *the order they were marked in*. For an order choice
(a Paradox player ordering their own simultaneous Flux triggers, rules.md `C1K 8` item 4 and `C1K 9`)
the rows are numbered in marking order ("1st", "2nd"…) and the command lists them in that order —
`choose 2 1` makes option 2 resolve first. For any other choice the order does not matter and the command
lists the options in their own order. Unmarking a row moves the later ones up.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: the engine's rule for a choice of the order of one player's simultaneous Flux triggers
ORDER_RULE = "C1K 8"
#: the rule the dialog names for it: the Paradox exception to C1K 8 (lesson "Paradox — order your own
#: Flux triggers" teaches it)
PARADOX_RULE = "C1K 9"


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th … 11th, 12th, 13th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def is_order(rule: str, count: int, options: int) -> bool:
    """Whether a choice asks for an order: every option chosen (`count` of `options`) under C1K 8."""
    return rule == ORDER_RULE and count == options and count > 1


@dataclass
class Marks:
    """Which of `labels` are marked, in marking order (1-based option numbers)."""

    labels: tuple[str, ...]
    count: int
    ordered: bool = False
    order: list[int] = field(default_factory=list)

    @classmethod
    def for_choice(cls, labels: list[str] | tuple[str, ...], count: int, rule: str) -> Marks:
        return cls(tuple(labels), count, is_order(rule, count, len(labels)))

    @property
    def rule_shown(self) -> str:
        return PARADOX_RULE if self.ordered else ""

    def toggle(self, option: int) -> None:
        """Mark option (1-based) last, or unmark it (the later ones move up)."""
        if option in self.order:
            self.order.remove(option)
        elif 1 <= option <= len(self.labels):
            self.order.append(option)

    def sync(self, on: set[int]) -> None:
        """The dialog's boxes now marked (`on`): the ones unmarked leave the order, the ones newly marked
        join it at the end (in option order, if several at once)."""
        self.order = [o for o in self.order if o in on] + sorted(on - set(self.order))

    def row(self, option: int) -> str:
        """A row's label: "1st — 2. Oracle of Dew (#12)" when marked in an order choice."""
        text = f"{option}. {self.labels[option - 1]}"
        if self.ordered:
            return f"{ordinal(self.order.index(option) + 1)} — {text}" if option in self.order else f"      {text}"
        return text

    def summary(self) -> str:
        """ "0 of 2 marked" """
        return f"{len(self.order)} of {self.count} marked"

    def problem(self) -> str:
        """Why the marks can't be sent yet, and what to do ("" if they can): Enter on too few marks says
        which to mark next, never nothing."""
        n = len(self.order)
        if n == self.count:
            return ""
        if self.ordered and n == 0:
            return (f"{self.summary()}: mark the order first — Space on each, the 1st to resolve first, "
                    f"then Enter")
        if self.ordered:
            return f"{self.summary()}: mark the {ordinal(n + 1)} with Space (↑/↓ to it), then Enter"
        if n < self.count:
            return f"{self.summary()}: mark {self.count - n} more with Space (exactly {self.count}), then Enter"
        return f"{self.summary()}: unmark {n - self.count} with Space (exactly {self.count}), then Enter"

    def command(self) -> str:
        """The `choose` command: the options in marking order (an order choice) or their own order."""
        picked = self.order if self.ordered else sorted(self.order)
        return "choose " + " ".join(str(o) for o in picked)

    def hint(self) -> str:
        if self.ordered:
            return (f"Mark them with Space in the order they should resolve: the 1st resolves first "
                    f"({PARADOX_RULE}: a Paradox player orders their own simultaneous Flux triggers). Enter sends.")
        return f"Mark exactly {self.count} with Space, then Enter."


__all__ = ["Marks", "ORDER_RULE", "PARADOX_RULE", "is_order", "ordinal"]
