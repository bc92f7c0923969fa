"""The app's first frame waits for nothing it doesn't draw (issue 8 item 8: start-up ≤ 1.5× an empty Textual
app): what `c1k play` imports before the splash screen is painted holds neither the engine (pydantic) nor
rich's Markdown renderer (markdown-it, pygments), which only `c1k rules` and the rule browser need. The
timing itself is measured in bench/tui_bench.py, never here."""

from __future__ import annotations

import subprocess
import sys

#: module families that must not be loaded on the way to the first frame
HEAVY = ("engine", "pydantic", "markdown_it", "pygments", "rich.markdown", "rich.syntax", "linkify_it")
#: but the engine's front door and its error family (engine/errors.py) are light, and the command line's
#: errors descend from them: `engine/__init__.py` loads the rest on first use
LIGHT = ("engine", "engine.errors")


def test_first_frame_imports_nothing_heavy() -> None:
    code = ("import sys\n"
            "from c1k_tui.cli import main as cli\n"
            "from c1k_tui.screens.app import C1KApp\n"
            "from c1k_tui.screens.splash_screen import SplashScreen\n"
            "from c1k_tui.screens.start_screen import StartScreen\n"
            "from c1k_tui.screens.handoff_screen import HandoffScreen\n"
            f"heavy, light = {HEAVY!r}, {LIGHT!r}\n"
            "print(','.join(sorted(m for m in sys.modules if m not in light and any(m == h or "
            "m.startswith(h + '.') for h in heavy))))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "", f"imported before the first frame: {out}"
