"""Actions: small frozen value objects whose text form is the command language of docs/formats.md §1.

`str(action)` prints the canonical command (card instances as `#id`); `parse_action(str(a)) == a`.
Names, aliases and `p1`/`p2` are resolved against a game by `Game.parse()`: this module only knows
syntax. Two error types, both ValueErrors: `MalformedCommand` (the text is not a command) and
`IllegalAction` (a well-formed command the rules forbid now; it carries the rule id).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from engine.errors import BadInput, RulesError
from engine.values import fast_init


class MalformedCommand(BadInput, ValueError):
    """The text is not a command of docs/formats.md §1. Nothing in the game changes."""


class IllegalAction(RulesError, ValueError):
    """A well-formed command the rules forbid now. `rule` is the rule id, `reason` the learner's words."""

    def __init__(self, rule: str, reason: str) -> None:
        self.rule = rule
        self.reason = reason
        super().__init__(f"{reason} ({rule})")


# A reference before resolution: '#12', a name, an alias, 'p1'.
RawRef = str


def fmt_ref(ref: int) -> str:
    return f"#{ref}"


def _targets(targets: tuple[int, ...]) -> str:
    return "".join(f" target #{t}" for t in targets)


@fast_init
@dataclass(frozen=True, slots=True)
class Pass:
    def __str__(self) -> str:
        return "pass"


@fast_init
@dataclass(frozen=True, slots=True)
class Play:
    card: int
    slot: int | None = None
    targets: tuple[int, ...] = ()
    mode: int | None = None
    voidcast: bool = False

    def __str__(self) -> str:
        s = f"play #{self.card}"
        if self.slot is not None:
            s += f" slot {self.slot}"
        s += _targets(self.targets)
        if self.mode is not None:
            s += f" mode {self.mode}"
        if self.voidcast:
            s += " pay voidcast"
        return s


@fast_init
@dataclass(frozen=True, slots=True)
class Activate:
    source: int
    n: int = 1
    targets: tuple[int, ...] = ()

    def __str__(self) -> str:
        s = f"activate #{self.source}"
        if self.n != 1:
            s += f" {self.n}"
        return s + _targets(self.targets)


@fast_init
@dataclass(frozen=True, slots=True)
class Attack:
    units: tuple[int, ...] = ()   # empty: `attack none`

    def __str__(self) -> str:
        if not self.units:
            return "attack none"
        return "attack " + " ".join(f"#{u}" for u in self.units)


@fast_init
@dataclass(frozen=True, slots=True)
class Block:
    pairs: tuple[tuple[int, int], ...] = ()   # (blocker, attacker); empty: `block none`

    def __str__(self) -> str:
        if not self.pairs:
            return "block none"
        return "block " + ", ".join(f"#{b} -> #{a}" for b, a in self.pairs)


@fast_init
@dataclass(frozen=True, slots=True)
class Interrupt:
    source: int
    targets: tuple[int, ...] = ()

    def __str__(self) -> str:
        return f"interrupt #{self.source}" + _targets(self.targets)


@fast_init
@dataclass(frozen=True, slots=True)
class Decline:
    def __str__(self) -> str:
        return "decline"


@fast_init
@dataclass(frozen=True, slots=True)
class Choose:
    options: tuple[int, ...]

    def __str__(self) -> str:
        return "choose " + " ".join(str(n) for n in self.options)


@fast_init
@dataclass(frozen=True, slots=True)
class SetCard:
    card: int

    def __str__(self) -> str:
        return f"set #{self.card}"


@fast_init
@dataclass(frozen=True, slots=True)
class Concede:
    def __str__(self) -> str:
        return "concede"


Action = Pass | Play | Activate | Attack | Block | Interrupt | Decline | Choose | SetCard | Concede


@fast_init
@dataclass(frozen=True, slots=True)
class Command:
    """A syntactically valid command whose references are still raw text (names, aliases, '#12')."""

    verb: str
    refs: tuple[RawRef, ...] = ()            # play/set: card; activate/interrupt: source; attack: units
    pairs: tuple[tuple[RawRef, RawRef], ...] = ()
    targets: tuple[RawRef, ...] = ()
    numbers: tuple[int, ...] = ()            # choose: options; activate: ability number
    slot: int | None = None
    mode: int | None = None
    voidcast: bool = False
    player: str | None = None                # the `p2:` prefix, if any


COMMAND_VERBS = ("pass", "play", "activate", "attack", "block", "interrupt", "decline", "choose", "set", "concede")
USAGE = {
    "pass": "pass",
    "play": "play <card> [slot <n>] [target <ref> ...] [mode <n>] [pay voidcast]",
    "activate": "activate <ref> [<n>] [target <ref> ...]",
    "attack": "attack <ref> [<ref> ...]  or  attack none",
    "block": "block <blocker> -> <attacker> [, <blocker> -> <attacker> ...]  or  block none",
    "interrupt": "interrupt <ref> [target <ref> ...]",
    "decline": "decline",
    "choose": "choose <n> [<n> ...]",
    "set": "set <card>",
    "concede": "concede",
}


#: the longest command accepted (the longest real command — six blocks by name — is a few hundred);
#: anything longer is refused before it is read, so parsing can't be made slow by its input
MAX_COMMAND_CHARS = 1_000
#: numbers in commands (slots, modes, options, card ids) have at most this many digits
MAX_DIGITS = 6


def show(tok: str, width: int = 40) -> str:
    """A token as an error message quotes it: at most `width` characters."""
    return tok if len(tok) <= width else tok[:width] + "…"


def _bad(verb: str, what: str) -> MalformedCommand:
    return MalformedCommand(f"{what}; expected: {USAGE[verb]}")


def is_number(tok: str) -> bool:
    """ASCII digits only ('²', '①' and '٣' are not numbers here), and not too many of them."""
    return tok.isascii() and tok.isdigit() and len(tok) <= MAX_DIGITS


def _int(verb: str, tok: str, what: str) -> int:
    if not is_number(tok):
        if tok.isascii() and tok.isdigit():
            raise _bad(verb, f"'{show(tok)}' is too large ({what}: at most {MAX_DIGITS} digits)")
        raise _bad(verb, f"'{show(tok)}' is not a number ({what}: digits 0-9)")
    return int(tok)


def _check_ref(verb: str, tok: str) -> str:
    """A raw reference: '#12' (ASCII digits) or a name; '#²', '#x' and '#' followed by 7+ digits are refused."""
    if tok.startswith("#") and not is_number(tok[1:]):
        raise _bad(verb, f"'{show(tok)}' is not a card id like #12")
    return tok


def _split_prefix(text: str) -> tuple[str | None, str]:
    head, sep, rest = text.partition(":")
    if sep and head.strip() and " " not in head.strip() and '"' not in head:
        return head.strip().lower(), rest.strip()
    return None, text.strip()


_RUN = re.compile(r"""[^\s"',]+""")


def tokens(body: str) -> list[str]:
    """Split a command into words, in one pass (linear in its length): whitespace separates words,
    "double" or 'single' quotes keep spaces inside a word, and ',' is a word of its own. Raises
    MalformedCommand on an unclosed quote."""
    out: list[str] = []
    cur: list[str] = []
    word = False
    i, n = 0, len(body)
    while i < n:
        c = body[i]
        if c.isspace() or c == ",":
            if word:
                out.append("".join(cur))
                cur, word = [], False
            if c == ",":
                out.append(",")
            i += 1
        elif c in "\"'":
            j = body.find(c, i + 1)
            if j < 0:
                raise MalformedCommand(f"cannot read '{show(body)}': no closing quotation "
                                       "(close the quotes around a name)")
            cur.append(body[i + 1:j])
            word = True
            i = j + 1
        else:
            m = _RUN.match(body, i)
            assert m is not None
            cur.append(m.group())
            word = True
            i = m.end()
    if word:
        out.append("".join(cur))
    return out


def parse_command(text: str) -> Command:
    """Parse one command line (docs/formats.md §1) into a `Command` with raw references."""
    if len(text) > MAX_COMMAND_CHARS:
        raise MalformedCommand(f"a command is at most {MAX_COMMAND_CHARS:,} characters; this one has {len(text):,}")
    player, body = _split_prefix(text)
    toks = tokens(body.replace("->", " -> "))
    if not toks:
        raise MalformedCommand("empty command; expected one of: " + ", ".join(COMMAND_VERBS))
    verb = toks[0].lower()
    args = toks[1:]
    if verb not in COMMAND_VERBS:
        from engine.cards import suggest

        raise MalformedCommand(f"unknown command '{show(toks[0])}'{suggest(verb[:40], COMMAND_VERBS)}; expected one of: "
                               f"{', '.join(COMMAND_VERBS)}")
    if verb in ("pass", "decline", "concede"):
        if args:
            raise _bad(verb, f"'{verb}' takes nothing after it")
        return Command(verb, player=player)
    if verb == "choose":
        if not args:
            raise _bad(verb, "choose needs at least one number")
        return Command(verb, numbers=tuple(_int(verb, a, "an option number") for a in args), player=player)
    if verb == "set":
        if len(args) != 1:
            raise _bad(verb, "set needs exactly one card")
        return Command(verb, refs=(_check_ref(verb, args[0]),), player=player)
    if verb == "attack":
        if not args:
            raise _bad(verb, "attack needs units or 'none'")
        if [a.lower() for a in args] == ["none"]:
            return Command(verb, player=player)
        return Command(verb, refs=tuple(_check_ref(verb, a) for a in args), player=player)
    if verb == "block":
        if not args:
            raise _bad(verb, "block needs pairs or 'none'")
        if [a.lower() for a in args] == ["none"]:
            return Command(verb, player=player)
        pairs: list[tuple[str, str]] = []
        groups: list[list[str]] = [[]]
        for a in args:
            if a == ",":
                groups.append([])
            else:
                groups[-1].append(a)
        for g in groups:
            if len(g) != 3 or g[1] != "->":
                raise _bad(verb, f"'{show(' '.join(g))}' is not '<blocker> -> <attacker>'")
            pairs.append((_check_ref(verb, g[0]), _check_ref(verb, g[2])))
        return Command(verb, pairs=tuple(pairs), player=player)
    # play / activate / interrupt: <ref> then options
    if not args:
        raise _bad(verb, f"{verb} needs a card")
    ref = _check_ref(verb, args[0])
    rest = args[1:]
    targets: list[str] = []
    numbers: list[int] = []
    slot = mode = None
    voidcast = False
    i = 0
    while i < len(rest):
        word = rest[i].lower()
        nxt = rest[i + 1] if i + 1 < len(rest) else None
        if word == "target" and nxt is not None:
            targets.append(_check_ref(verb, nxt))
            i += 2
        elif word == "slot" and nxt is not None and verb == "play":
            slot = _int(verb, nxt, "the slot")
            i += 2
        elif word == "mode" and nxt is not None and verb == "play":
            mode = _int(verb, nxt, "the mode")
            i += 2
        elif word == "pay" and nxt is not None and nxt.lower() == "voidcast" and verb == "play":
            voidcast = True
            i += 2
        elif verb == "activate" and i == 0 and word.isascii() and word.isdigit():
            numbers.append(_int(verb, word, "the ability number"))
            i += 1
        else:
            raise _bad(verb, f"unexpected '{show(rest[i])}'")
    return Command(verb, refs=(ref,), targets=tuple(targets), numbers=tuple(numbers), slot=slot, mode=mode,
                   voidcast=voidcast, player=player)


def _id(tok: str) -> int:
    if tok.startswith("#") and is_number(tok[1:]):
        return int(tok[1:])
    raise MalformedCommand(f"'{show(tok)}' is not a card id like #12 (names need a game: use Game.parse)")


def command_to_action(cmd: Command, resolve: Callable[[str, str], int] | None = None) -> Action:
    """Build the Action of a command; `resolve(raw, role)` maps raw refs to ids (default: '#n' only)."""
    res: Callable[[str, str], int] = resolve if resolve is not None else (lambda raw, role: _id(raw))
    v = cmd.verb
    if v == "pass":
        return Pass()
    if v == "decline":
        return Decline()
    if v == "concede":
        return Concede()
    if v == "choose":
        return Choose(cmd.numbers)
    if v == "set":
        return SetCard(res(cmd.refs[0], "hand"))
    if v == "attack":
        return Attack(tuple(res(r, "attacker") for r in cmd.refs))
    if v == "block":
        return Block(tuple((res(b, "blocker"), res(a, "attacker")) for b, a in cmd.pairs))
    targets = tuple(res(t, "target") for t in cmd.targets)
    if v == "play":
        return Play(res(cmd.refs[0], "hand"), cmd.slot, targets, cmd.mode, cmd.voidcast)
    if v == "activate":
        return Activate(res(cmd.refs[0], "source"), cmd.numbers[0] if cmd.numbers else 1, targets)
    return Interrupt(res(cmd.refs[0], "source"), targets)


def parse_action(text: str) -> Action:
    """Parse canonical command text (ids as `#n`) into an Action; the inverse of `str(action)`."""
    return command_to_action(parse_command(text))


__all__ = [
    "COMMAND_VERBS", "MAX_COMMAND_CHARS", "MAX_DIGITS", "USAGE", "Action", "Activate", "Attack",
    "Block", "Choose", "Command", "Concede", "Decline", "IllegalAction", "Interrupt",
    "MalformedCommand", "Pass", "Play", "RawRef", "SetCard", "command_to_action", "fmt_ref",
    "is_number", "parse_action", "parse_command", "show", "tokens",
]
