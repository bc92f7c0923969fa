"""`c1k play --text`: a plain prompt loop for two players at one terminal (before/alongside the app).

It prints the state, reads formats.md §1 commands, and sends them to the engine — it never advances a
window itself. Extra words: `help`, `legal`, `why`, `log`, `rules`, `quit`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from engine.actions import IllegalAction, MalformedCommand
from engine.decks import Deck
from engine.game import Game
from engine.record import Recorder, save
from engine.state import WINDOW_RULE, WINDOW_TEXT, WINDOWS, player_name

HELP = """Commands (formats.md §1): pass · play <card> [slot <n>] [target <ref> ...] [mode <n>]
  activate <ref> [<n>] [target <ref> ...] · attack <ref> ... | attack none
  block <blocker> -> <attacker>, ... | block none · interrupt <ref> [target ...] · decline
  choose <n> ... · concede      (cards by #id or "Name"; champions are p1 / p2)
Extra: legal (list legal commands) · why (what you can't do now, and the rule) · log · quit"""


SHORT = {"declare_attackers": "attackers", "declare_blockers": "blockers", "priority": "main",
         "response": "response"}


def phase_bar(g: Game) -> str:
    """Every window of the turn, the current one in brackets: DRAW start·draw·post | INFLUENCE … | END …"""
    groups: list[str] = []
    for phase in ("draw", "influence", "main", "combat", "end"):
        steps = []
        for i, w in enumerate(WINDOWS):
            if w.startswith(phase + "."):
                short = SHORT.get(w.split(".")[1], w.split(".")[1])
                steps.append(f"[{short.upper()}]" if i == g.win else short)
        groups.append(f"{phase.upper()} " + "·".join(steps) if phase != "main" else "·".join(steps).upper()
                      if any(s.startswith("[") for s in steps) else "MAIN")
    return " | ".join(groups)


def unit_text(g: Game, cid: int) -> str:
    perm = g.perms[cid]
    d = g.card(cid)
    flags = []
    if perm.exhausted:
        flags.append("exhausted")
    if perm.entered_turn == g.turn and g.keyword(cid, "charge") is None and cid in g.players[g.active].board:
        flags.append("deploying")
    if cid in g.attackers:
        flags.append("attacking")
    flags += perm.all_statuses()
    kws = [k if not n else f"{k} {n}" for k, n in sorted({**d.keywords, **perm.granted, **perm.temp_granted}.items())
           if k not in ("barrier", "veiled", "rooted")]
    body = f"#{cid} {d.name} {g.power(cid)}/{g.health(cid)}" if d.type == "unit" else f"#{cid} {d.name}"
    if perm.damage:
        body += f" (dmg {perm.damage})"
    extra = " ".join(kws + [f"[{f}]" for f in flags])
    return body + (f" {extra}" if extra else "")


def render(g: Game, open_hands: bool = False) -> str:
    lines = [f"── Turn {g.turn} · {g.players[g.active].name} ({player_name(g.active)}) active · seed {g.seed}",
             phase_bar(g),
             f"{g.window} ({WINDOW_RULE[g.win]}): {WINDOW_TEXT[g.win]}"]
    for p in (1 - g.active, g.active):
        ps = g.players[p]
        lines.append(f"{ps.name} ({player_name(p)}, champion #{ps.champion}) life {ps.life} · Influence "
                     f"{ps.influence}/{ps.capacity} · library {len(ps.library)} · graveyard {len(ps.graveyard)} "
                     f"· hand {len(ps.hand)}")
        units = [unit_text(g, c) for c in ps.board if c]
        relics = [unit_text(g, c) for c in ps.relics if c]
        lines.append("   units: " + (" | ".join(units) if units else "(none)"))
        if relics:
            lines.append("   relics: " + " | ".join(relics))
    if g.stack:
        lines.append("STACK (top first):")
        for i, it in enumerate(g.stack_view(), 1):
            who = "game" if it.adder < 0 else player_name(it.adder)
            tg = " → " + ", ".join(f"#{t}" for t in it.targets) if it.targets else ""
            lines.append(f"  {i}. {it.name} ({who}){tg}")
    d = g.pending
    if g.outcome is not None:
        lines.append(f"MATCH OVER: {g.outcome}")
        return "\n".join(lines)
    lines.append(f">> {d.prompt.split(' — ')[0]} [{d.rule}]")
    if d.options:
        lines += [f"   {i}. {o}" for i, o in enumerate(d.options, 1)]
    p = d.player
    for q in (0, 1):
        if q == p or open_hands:
            legal = {e.subject for e in g.explain(q) if e.legal and e.what.startswith("play")}
            hand = ", ".join(f"{'✓' if c in legal else '·'}#{c} {g.card(c).name} ({g.card(c).cost} {g.card(c).speed})"
                             for c in g.players[q].hand)
            lines.append(f"Hand of {g.players[q].name} (✓ playable now): {hand or '(empty)'}")
    return "\n".join(lines)


def why_text(g: Game, p: int) -> str:
    out = []
    for e in g.explain(p):
        mark = "ok " if e.legal else "no "
        out.append(f"  {mark}{e.what}" + (f" — {e.reason} ({e.rule})" if not e.legal else
                                           (f"  e.g. {e.examples[0]}" if e.examples else "")))
    return "\n".join(out) or "  (nothing to explain)"


def only_pass(g: Game) -> bool:
    """True when the deciding player's one legal action is a pass / `attack none` / `block none`."""
    acts = g.legal_actions()
    return len(acts) == 1 and str(acts[0]) in ("pass", "attack none", "block none")


def loop(g: Game, decks: list[Deck], read: Callable[[str], str], write: Callable[[str], None],
         save_path: Path | None = None, open_hands: bool = False, auto_pass: bool = False,
         recorder: Recorder | None = None) -> Game:
    failed = [False]

    def autosave() -> None:
        if save_path is None or recorder is None:
            return
        try:
            save(recorder.record(g), save_path)
            if failed[0]:
                write(f"(saving to {save_path} works again)")
            failed[0] = False
        except OSError as err:    # the match goes on; say so once
            if not failed[0]:
                write(f"!! can't save the match to {save_path}: {err.strerror or err} — playing on without saving")
            failed[0] = True

    write(render(g, open_hands))
    while not g.is_terminal():
        p = g.current_player()
        if auto_pass and only_pass(g):
            # an explicit pass command, sent for the player who has nothing else to do (recorded as such)
            before = len(g.log_lines)
            only = g.legal_actions()[0]
            write(f"(auto: {g.players[p].name} can only '{only}')")
            g.apply(only, p)
            write("\n".join(g.log_lines[before:]))
            autosave()
            if not only_pass(g) or g.is_terminal():
                write(render(g, open_hands))
            continue
        try:
            line = read(f"{g.players[p].name} ({player_name(p)})> ").strip()
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
            write("\n".join(f"  {a}" for a in g.legal_actions()) + "\n  concede")
            continue
        if word == "why":
            write(why_text(g, p))
            continue
        if word == "log":
            write("\n".join(g.log_lines[-30:]))
            continue
        before = len(g.log_lines)
        try:
            g.apply_command(line)
        except MalformedCommand as err:
            write(f"?? {err}")
            continue
        except IllegalAction as err:
            write(f"!! refused: {err.reason} ({err.rule})")
        autosave()
        new = g.log_lines[before:]
        if new:
            write("\n".join(new))
        write(render(g, open_hands))
    return g
