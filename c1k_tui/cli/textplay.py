"""`c1k play --text`: a plain prompt loop for two players at one terminal (before/alongside the app).

It prints what the player at the keyboard may know — read only through `engine.observe(game, player)`
and `engine.events_for` (rules.md §7a) — reads docs/formats.md §1 commands typed as that player, and sends
them to the engine; it never advances a window itself. Extra words: `help`, `legal`, `why`, `log`, `quit`.
With hands hidden a line is checked before it is sent (`precheck`), as the app does: a refusal is said
to the typist alone. At a terminal the line is edited with readline (`LineEditor`): each player's own
history, Tab completion from what the player at the keyboard may see.

Hot-seat: unless hands are open, whenever the player who must decide changes the screen is cleared
(scrollback too) and the loop asks the next player to take the keyboard ("pass to p2, press Enter"), so
one player's hand is never printed into the other's scrollback. The seed is not shown while the match
hides anything (it would reveal every hidden card); it is shown when the match is over.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from c1k_tui.model.matchnames import view_result
from c1k_tui.model.paths import DEFAULT_STOPS
from c1k_tui.model.recap import learning_preamble, learning_text, learning_visits
from c1k_tui.model.safetext import escape_output
from c1k_tui.model.savelock import hold
from c1k_tui.model.yields import Yield, may_choose, until_of
from c1k_tui.model.yields import holds as until_holds
from c1k_tui.model.yields import over as until_over
from c1k_tui.model.yields import words as until_words
from engine import (
    Deck,
    Game,
    IllegalAction,
    MalformedCommand,
    PlayerView,
    RulesLoopError,
    UnitView,
    log_lines_for,
    observe,
    parse_action,
)
from engine.record import Recorder, save

HELP = """Commands (c1k docs formats 1): pass · play <card> [slot <n>] [target <ref> ...] [mode <n>]
  activate <ref> [<n>] [target <ref> ...] · attack <ref> ... | attack none
  block <blocker> -> <attacker>, ... | block none · interrupt <ref> [target ...] · decline
  choose <n> ... · set <card> · concede      (cards by #id or "Name"; champions are p1 / p2)
  pass until combat | turn | me   (keep passing until the end of this combat, of this turn, or until a
      card of yours is targeted, you are attacked or a trigger of yours goes on the stack; your next turn
      at the latest — the other player is told)
Extra: legal (list legal commands) · why (what you can't do now, and the rule) · log · quit"""

#: clears the screen and the terminal's scrollback (xterm and most terminals), cursor home
CLEAR = "\x1b[H\x1b[2J\x1b[3J"

SHORT = {"declare_attackers": "attackers", "declare_blockers": "blockers", "priority": "main",
         "response": "response"}
FORCED = ("pass", "attack none", "block none")


def phase_bar(v: PlayerView) -> str:
    """Every window of the turn, the current one in brackets: DRAW start·draw·post | INFLUENCE … | END …"""
    groups: list[str] = []
    for phase in ("draw", "influence", "main", "combat", "end"):
        steps = []
        for i, w in enumerate(v.structure):
            if w.startswith(phase + "."):
                short = SHORT.get(w.split(".")[1], w.split(".")[1])
                steps.append(f"[{short.upper()}]" if i == v.step else short)
        groups.append(f"{phase.upper()} " + "·".join(steps) if phase != "main" else "·".join(steps).upper()
                      if any(s.startswith("[") for s in steps) else "MAIN")
    return " | ".join(groups)


def unit_text(u: UnitView) -> str:
    flags = (["exhausted"] if u.exhausted else []) + (["deploying"] if u.deploying else []) + \
            (["attacking"] if u.attacking else []) + list(u.statuses)
    body = f"#{u.cid} {u.name} {u.power}/{u.health}" if u.type == "unit" else f"#{u.cid} {u.name}"
    if u.damage:
        body += f" (dmg {u.damage})"
    extra = " ".join(list(u.keywords) + [f"[{f}]" for f in flags])
    return body + (f" {extra}" if extra else "")


def render(v: PlayerView, other: PlayerView | None = None) -> str:
    """The match as `v.viewer` may know it; `other` (open hands only): the other player's view, for their hand."""
    active = v.me if v.active == v.viewer else v.opponent
    lines = [f"── Turn {v.turn} · {active.name} (p{v.active + 1}) active"
             + (f" · seed {v.seed}" if v.seed is not None else ""),
             phase_bar(v), f"{v.window} ({v.rule}): {v.window_text}"]
    for side in (v.opponent, v.me):
        lines.append(f"{side.name} (p{side.player + 1}, champion #{side.champion}) life {side.life} · Influence "
                     f"{side.influence}/{side.capacity} · library {side.library} · graveyard {side.graveyard} "
                     f"· hand {side.hand_size}" + (f" · Set {side.set_count}" if side.set_count else ""))
        units = [unit_text(u) for u in side.units if u is not None]
        relics = [unit_text(u) for u in side.relics if u is not None]
        lines.append("   units: " + (" | ".join(units) if units else "(none)"))
        if relics:
            lines.append("   relics: " + " | ".join(relics))
    if v.stack:
        lines.append("STACK (top first):")
        for it in v.stack:
            tg = " → " + ", ".join(it.targets) if it.targets else ""
            lines.append(f"  {it.pos}. {it.name} ({it.who}){tg}" + (f" — {it.choice}" if it.choice else ""))
    if v.outcome is not None:
        lines.append(view_result(v) + (f" · seed {v.seed}" if v.seed is not None else ""))
        return "\n".join(lines)
    d = v.decision
    if d is None:
        lines.append(f">> {v.waiting_text}")
    else:
        lines.append(f">> {d.prompt.split(' — ')[0]} [{d.rule}]")
        lines += [f"   {i}. {o}" for i, o in enumerate(d.options, 1)]
    for view in (v, other):
        if view is None:
            continue
        hand = ", ".join(f"{'✓' if c.playable else '·'}#{c.cid} {c.name} ({c.cost} {c.speed})" for c in view.hand)
        lines.append(f"Hand of {view.me.name} (✓ playable now): {hand or '(empty)'}")
    return "\n".join(lines)


def why_text(v: PlayerView) -> str:
    if v.decision is None:
        return f"  {v.waiting_text or 'nothing to decide'}"
    out = []
    for e in v.decision.explain:
        out.append(f"  {'ok ' if e.legal else 'no '}{e.what}" + (f" — {e.reason} ({e.rule})" if not e.legal else ""))
    return "\n".join(out) or "  (nothing to explain)"


def legal_text(v: PlayerView) -> str:
    d = v.decision
    legal = [str(a) for a in d.legal] if d is not None else []
    if d is not None and d.kind in ("attackers", "blockers"):
        legal = [f"{'attack' if d.kind == 'attackers' else 'block'} none"] + \
                [f"(eligible: {', '.join(f'#{c}' for c in d.eligible)})"] * bool(d.eligible)
    return "\n".join(f"  {a}" for a in legal + ["concede"])


def public_only_choice(v: PlayerView, open_hands: bool) -> str | None:
    """The command sent for the deciding player without asking, or None (ask them).

    With open hands: pass (or attack none / block none) when it is the only legal action. With hidden
    hands only what follows from public facts, never from what the hand holds (rules.md §7a: whether a
    player could respond is private): a declaration no unit can make (the board is public); pass with an
    empty hand and Set; and pass in a window that is not one of the player's stops while the stack is
    empty (the app's default stops: your main phase, blocks on your turn, the opponent's declarations)."""
    d = v.decision
    if d is None:
        return None
    if d.kind in ("attackers", "blockers"):
        return ("attack none" if d.kind == "attackers" else "block none") if not d.eligible else None
    if d.kind != "priority":
        return "decline" if open_hands and [str(a) for a in d.legal] == ["decline"] else None
    only_pass = [str(a) for a in d.legal] == ["pass"]
    if open_hands or not (v.me.hand_size or v.me.set_count):
        return "pass" if only_pass else None
    stop = ("own:" if v.active == v.viewer else "opp:") + v.window
    return "pass" if not v.stack and stop not in DEFAULT_STOPS else None


def unseen_decline(g: Game, v: PlayerView, open_hands: bool) -> str | None:
    """Hidden hands: `decline` for a player whose only answer to an Interrupt question or a permission
    (asked on public facts, rules.md §7a) is decline — only when the same player is asked next anyway,
    so the other player sees the same hand-offs whatever the hand held. `v`: the deciding player's view.
    None: ask them."""
    p = v.viewer
    if open_hands or v.decision is None or v.decision.kind not in ("interrupt", "choice") \
            or [str(a) for a in v.decision.legal] != ["decline"]:
        return None
    nxt = g.clone()
    try:
        nxt.apply(parse_action("decline"), p)
    except (IllegalAction, RulesLoopError):
        return None
    if nxt.is_terminal() or nxt.current_player() != p or public_only_choice(observe(nxt, p), False) is not None:
        return None
    return "decline"


def send(g: Game, line: str, player: int) -> None:
    """Send a typed line as `player` types it: names are resolved from what they may see (rules.md §7a)."""
    g.apply_command(line, typist=player)


def precheck(g: Game, line: str, player: int) -> str | None:
    """With hands hidden, a typed line is checked before it is sent, as the app does (rules.md §7a,
    "Where a refusal would tell"): the engine would refuse it, and its refusal would tell the other
    player a rule about the hand (its cost, a card in it). The message to show the typist (it is not
    sent; they keep priority), or None: send it. Names are resolved from what the typist may see."""
    try:
        who, action = g.parse(line, player)
    except MalformedCommand as err:
        return f"?? {err}"
    except IllegalAction as err:
        return f"!! not sent: {err.reason} ({err.rule}) — you keep priority"
    if who is not None and who != player:
        return f"!! not sent: you type for yourself (p{player + 1}) (C1K 10)"
    r = g.why_not(action, player)
    return None if r is None else f"!! not sent: {r.reason} ({r.rule}) — you keep priority"


class LineEditor:
    """The text loop's line editing (readline, when the input is a terminal): history (↑/↓), editing,
    and Tab completion of commands and card names. Each player has their own history, swapped in when
    they take the keyboard, and completion offers only what the player at the keyboard may see (rules.md
    §7a): one player never recalls or completes the other's hidden cards."""

    def __init__(self, readline: Any = None) -> None:
        self.rl: Any = readline
        self.histories: dict[int, list[str]] = {0: [], 1: []}
        self.player = -1
        self.legal: tuple[str, ...] = ()
        self.names: tuple[str, ...] = ()
        self.cycle: list[str] = []
        rl = self.rl
        if rl is not None:
            rl.set_completer(self._complete)
            rl.set_completer_delims("")          # the whole line is completed, names with spaces too
            if "libedit" in str(getattr(rl, "__doc__", "")):     # macOS: Tab completes
                rl.parse_and_bind("bind ^I rl_complete")
            else:                                                 # GNU readline: Tab again cycles
                rl.parse_and_bind("tab: menu-complete")

    @classmethod
    def for_terminal(cls) -> LineEditor:
        try:
            import readline
        except ImportError:        # (no readline on this platform: plain input)
            return cls(None)
        return cls(readline)

    def take(self, player: int, v: PlayerView) -> None:
        """`player` has the keyboard: their history, and completion from their view."""
        from c1k_tui.model.completion import visible_names

        d = v.decision
        self.legal = tuple(str(a) for a in d.legal) if d is not None else ()
        self.names = visible_names(v.hand, (v.me, v.opponent))
        if player == self.player or self.rl is None:
            self.player = player
            return
        if self.player in (0, 1):
            self.histories[self.player] = [self.rl.get_history_item(i)
                                           for i in range(1, self.rl.get_current_history_length() + 1)]
        self.rl.clear_history()
        for line in self.histories[player]:
            self.rl.add_history(line)
        self.player = player

    def candidates(self, text: str) -> list[str]:
        from c1k_tui.model.completion import completions

        return completions(text, self.legal, self.names)

    def _complete(self, text: str, state: int) -> str | None:
        if state == 0:
            self.cycle = self.candidates(text)
        return self.cycle[state] if state < len(self.cycle) else None

    def read(self, prompt: str) -> str:
        return input(prompt)


def discard_typeahead() -> None:
    """Drop what was typed but not yet read at the terminal (the hand-off waits for a fresh Enter: a
    double Enter after a command would otherwise pass it and show the next player's hand to the one who
    typed, rules.md §7a). Nothing to do when the input is not a terminal."""
    import sys
    try:
        import termios
        if sys.stdin.isatty():
            termios.tcflush(sys.stdin.fileno(), termios.TCIFLUSH)
    except (ImportError, OSError, ValueError):   # not a POSIX terminal: nothing was typed ahead to drop
        pass


def loop(g: Game, decks: list[Deck], read: Callable[[str], str], raw_write: Callable[[str], None],
         save_path: Path | None = None, open_hands: bool = False, auto_pass: bool = False,
         recorder: Recorder | None = None, handoff: bool = False, learning: bool = False,
         editor: LineEditor | None = None, app: dict[str, Any] | None = None) -> Game:
    """Play at one terminal. `handoff`: a person is at the keyboard (a terminal): clear the screen and
    wait for Enter between players. Without it (piped input) the change of player is only announced.
    `learning` (the learning flow, issue #11): the news before each decision lists every window entered,
    with its id, its rule id and what happened in it, as the app's learning flow does. `app`: the record's
    app settings to keep (a resumed record's); a new record says whether hands are open."""
    def write(text: str) -> None:        # names and typed text reach the terminal escaped (never ESC, BEL…)
        raw_write(escape_output(text, (CLEAR,)))

    failed = [False]
    auto: set[int] = set()        # record indices of the commands sent without asking
    seen = [0, 0]                 # per player: how much of the event list they have been shown
    at_keyboard = -1
    until: dict[int, Yield] = {}  # each player's "pass until…" (model/yields.py)
    told: list[list[str]] = [[], []]   # public news for a player: the other's "pass until…"

    def autosave() -> None:
        if save_path is None or recorder is None:
            return
        try:
            hold(save_path)           # one process at a time writes a match's file (savelock.py)
            save(recorder.record(g, auto, {"open_hands": open_hands} if app is None else app), save_path)
            if failed[0]:
                write(f"(saving to {save_path} works again)")
            failed[0] = False
        except OSError as err:    # the match goes on; say so once
            if not failed[0]:
                write(f"!! can't save the match to {save_path}: {err.strerror or err} — playing on without saving")
            failed[0] = True

    def news(p: int) -> None:
        if learning:
            visits = learning_visits(g, p, seen[p], open_hands)
            before = learning_preamble(g, p, seen[p], open_hands)
            seen[p] = len(g.events)
            if visits or before:
                write(learning_text(visits, before=before).plain)
            return
        if open_hands:
            lines = [e.text for e in g.events.since(seen[p]) if e.kind != "priority"]
        else:
            lines = log_lines_for(g, p, seen[p])
        seen[p] = len(g.events)
        if lines:
            write("\n".join(lines))

    def show(p: int) -> None:
        v = observe(g, p)
        write(render(v, observe(g, 1 - p) if open_hands else None))

    while not g.is_terminal():
        p = g.current_player()
        v = observe(g, p)
        only = (public_only_choice(v, open_hands) or unseen_decline(g, v, open_hands)) if auto_pass else None
        if p in until and until_over(g, p, until[p], v):
            del until[p]        # over: its turn, its combat, their own next turn, or something happened
        if only is None and p in until and g.decision.kind == "priority" and until_holds(g, p, until[p], v):
            only = "pass"       # their own "pass until…": public, and read from public facts only
        if only is not None:
            # an explicit command, sent for the player who has nothing else to do (recorded as such)
            auto.add(len(g.record))
            try:
                g.apply(parse_action(only), p)
            except IllegalAction as err:          # (can't happen: it was legal)
                write(f"!! refused: {err.reason} ({err.rule})")
            autosave()
            continue
        if p != at_keyboard:
            if not open_hands and (at_keyboard >= 0 or handoff):   # (resume: whoever is at the keyboard)
                write((CLEAR if handoff else "") + f"── pass to {v.me.name} (p{p + 1})"
                      + (", press Enter ──" if handoff else " ──"))
                if handoff:
                    discard_typeahead()   # the outgoing player's extra Enter must not pass this point
                    try:
                        read("")
                    except EOFError:
                        write("\n(input closed" + (" — the match is saved)" if save_path else ")"))
                        break
                    write(CLEAR)
            at_keyboard = p
            news(p)
            if told[p]:
                write("\n".join(told[p]))
                told[p] = []
            show(p)
        if editor is not None:
            editor.take(p, v)
        try:
            line = read(f"{v.me.name} (p{p + 1})> ").strip()
        except EOFError:
            write("\n(input closed — the match is saved)" if save_path else "\n(input closed)")
            break
        if not line:
            continue
        word = line.lower()
        if word in ("quit", "exit"):
            break
        if word in ("help", "?"):
            write(HELP)
            continue
        if word == "legal":
            write(legal_text(v))
            continue
        if word == "why":
            write(why_text(v))
            continue
        if word == "log":
            write("\n".join(log_lines_for(g, -1 if open_hands else p)[-30:]))
            continue
        kind = until_of(line)
        if kind is not None:
            refusal = may_choose(kind, v.window) or ("" if g.decision.kind == "priority" else
                                                     "pass until… is chosen where you may pass (C1K 10)")
            if refusal:
                write(f"!! not sent: {refusal}")
                continue
            until[p] = Yield(kind, v.turn, len(g.events))
            told[1 - p].append(until_words(v.me.name, until[p]))
            line = "pass"
        elif line.split(" ", 1)[0].lower() in ("play", "activate", "set", "interrupt"):
            until.pop(p, None)      # acting again ends it
        if not open_hands and not g.options.practice:
            why = precheck(g, line, p)
            if why is not None:
                write(why)          # not sent: nothing reaches the other player (rules.md §7a)
                continue
        try:
            send(g, line, p)
        except MalformedCommand as err:
            write(f"?? {err}")
            continue
        except IllegalAction as err:
            write(f"!! refused: {err.reason} ({err.rule})")
        except RulesLoopError as err:     # nothing changed (the engine undoes it): say so, go on
            write(f"!! {err} — nothing changed; a player may concede")
            continue
        autosave()
        if g.is_terminal():
            break
        news(p)
        if g.current_player() == p:
            show(p)
    if g.is_terminal():
        p = max(at_keyboard, 0)
        news(p)
        show(p)      # the match is over: nothing is hidden any more, the seed included
    return g
