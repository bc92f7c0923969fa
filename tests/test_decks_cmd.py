"""`c1k decks show` and `c1k cards --cost` (issue #20 item 5): a deck's summary — curve, Realms, types, the
list and every construction problem at once — and the card list filtered by cost."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from c1k_tui.cli.cards_cmd import parse_cost
from c1k_tui.cli.main import app

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def test_decks_lists_the_bundled_decks() -> None:
    res = runner.invoke(app, ["decks"])
    assert res.exit_code == 0 and "emberfall" in res.output.split() and "ironbound" in res.output.split()


def test_decks_show_summarises_a_bundled_deck() -> None:
    res = runner.invoke(app, ["decks", "show", "emberfall", "--json", "-"])
    assert res.exit_code == 0, res.output
    s = json.loads(res.output)
    assert s["library"] == 40 and s["problems"] == []
    assert sum(s["curve"].values()) == 40 and sum(s["types"].values()) == 40 and s["realms"] == {"neutral": 40}
    assert sum(c["copies"] for c in s["cards"]) == 40
    assert [c["cost"] for c in s["cards"]] == sorted(c["cost"] for c in s["cards"])
    text = runner.invoke(app, ["decks", "show", "emberfall"], env={"COLUMNS": "100"}).output
    assert "Curve" in text and "no construction problems" in text and "Kaela Emberbrand" in text


def test_decks_show_lists_every_construction_problem_and_exits_1(tmp_path: Path) -> None:
    p = tmp_path / "broken.toml"
    p.write_text((ROOT / "decks" / "emberfall.toml").read_text(encoding="utf-8")
                 .replace('"ashen-skirmisher" = 2', '"ashen-skirmisher" = 4\n"no-such" = 1'), encoding="utf-8")
    res = runner.invoke(app, ["decks", "show", str(p), "--json", "-"])
    assert res.exit_code == 1
    s = json.loads(res.output)
    got = "\n".join(s["problems"])
    assert "unknown card 'no-such'" in got and "4 copies of 'Ashen Skirmisher'" in got
    assert "the library has 43 cards" in got
    assert s["library"] == 42          # the summary of what is known


def test_decks_show_unknown_deck_is_a_message() -> None:
    res = runner.invoke(app, ["decks", "show", "emberfal"])
    assert res.exit_code == 2 and "did you mean 'emberfall'" in res.output and "Traceback" not in res.output


@pytest.mark.parametrize(("text", "want"), [("2", (2, 2)), ("2-4", (2, 4)), ("5+", (5, 10**6)), (None, None)])
def test_parse_cost(text: str | None, want: tuple[int, int] | None) -> None:
    assert parse_cost(text) == want


def test_cards_filter_by_cost() -> None:
    res = runner.invoke(app, ["cards", "--cost", "7+", "--type", "unit"], env={"COLUMNS": "200"})
    assert res.exit_code == 0 and "Stormhide Behemoth" in res.output and "Ashen Skirmisher" not in res.output
    res = runner.invoke(app, ["cards", "--cost", "1", "--realm", "neutral"], env={"COLUMNS": "200"})
    assert "Ashen Skirmisher" in res.output and "Stormhide Behemoth" not in res.output
    for bad in ("x", "4-2", "-1"):
        res = runner.invoke(app, ["cards", "--cost", bad])
        assert res.exit_code == 2 and "--cost" in res.output and "Traceback" not in res.output


# ---- issue 30 item 4: `c1k decks diff OLD NEW`


def test_decks_diff_names_each_card_that_moved_and_the_curve(tmp_path: Path) -> None:
    new = tmp_path / "ironbound-b.toml"
    new.write_text((ROOT / "decks" / "ironbound.toml").read_text(encoding="utf-8")
                   .replace('"emberlash" = 3', '"emberlash" = 1\n"ashen-skirmisher" = 2'), encoding="utf-8")
    res = runner.invoke(app, ["decks", "diff", "ironbound", str(new), "--json", "-"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)
    assert d["old"]["name"] == d["new"]["name"] == "Ironbound" and d["champion"][0] == d["champion"][1]
    moved = {c["id"]: (c["old"], c["new"], c["change"]) for c in d["cards"]}
    assert moved == {"emberlash": (3, 1, -2), "ashen-skirmisher": (0, 2, 2)}
    assert d["out"] == 2 and d["in"] == 2 and d["library"] == [40, 40]
    text = runner.invoke(app, ["decks", "diff", "ironbound", str(new)]).output
    assert "2 card(s) out, 2 in" in text and "Emberlash" in text and "3 → 1 (-2)" in text
    assert "0 → 2 (+2)" in text and "Champion" in text and "(same)" in text


def test_decks_diff_of_a_deck_with_itself_says_the_same_cards() -> None:
    res = runner.invoke(app, ["decks", "diff", "emberfall", "emberfall"])
    assert res.exit_code == 0 and "The same cards." in res.output


def test_decks_diff_of_an_unknown_deck_is_a_message() -> None:
    res = runner.invoke(app, ["decks", "diff", "ironbound", "no-such-deck"])
    assert res.exit_code == 2 and "Traceback" not in res.output and "no-such-deck" in res.output
