"""Every pointer to a doc resolves (issue #21 item 2): 44 places named `formats.md`, which the product did
not have. A help text, screen, code comment or card file names `docs/X.md` (the repo's docs folder) or a
file that ships; a doc links to its neighbours by relative path; a `formats.md §N` names a section that
exists. (A bare `rules.md §7a` is the design's rule book, whose sections docs/rules.md does not number:
not checked here.) The wheel ships docs/formats.md and docs/rules.md as c1k_tui/formats.md and c1k_tui/rules.md."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("engine", "c1k_tui", "decks", "bench", "tests", ".ci")
TEXT_SUFFIXES = {".py", ".md", ".toml", ".tcss", ".txt", ""}

# a doc named in passing: `formats.md`, `docs/ai.md`, `formats.md §4`
DOC_REF = re.compile(r"(?<![\w./-])((?:docs/)?([a-z][a-z0-9_-]*\.md))(?:\s*§\s*(\d+))?")
MD_LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def _files() -> list[Path]:
    out = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for d in SOURCES:
        base = ROOT / d
        if not base.exists():
            continue
        out += [p for p in sorted(base.rglob("*")) if p.is_file() and p.suffix in TEXT_SUFFIXES
                and "__snapshots__" not in p.parts and "node_modules" not in p.parts and "__pycache__" not in p.parts
                and not p.is_symlink() and p.name != "test_docs_links.py"]
    return out


def _sections(doc: Path) -> set[str]:
    return set(re.findall(r"^#{2,3} (\d+)\.", doc.read_text(encoding="utf-8"), flags=re.M))


def dangling(files: list[Path]) -> list[str]:
    """Every doc pointer in these files that names no file (or no section) of the repo's docs."""
    bad: list[str] = []
    for f in files:
        try:
            text = f.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        in_docs = f.parent == ROOT / "docs"
        for m in DOC_REF.finditer(text):
            ref, name, section = m.group(1), m.group(2), m.group(3)
            where = f"{f.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}"
            if in_docs or ref.startswith("docs/"):
                target = ROOT / "docs" / name
            elif (f.parent / name).exists():         # a neighbour (c1k_tui/rules.md ships with the app)
                target = f.parent / name
            elif name == "formats.md":
                bad.append(f"{where}: '{name}' — say docs/{name}")
                continue
            else:                                    # some other file's name (README.md, a design note)
                continue
            if not target.exists():
                bad.append(f"{where}: {ref} does not exist")
            elif name == "formats.md" and section is not None and section not in _sections(target):
                bad.append(f"{where}: {ref} has no § {section}")
    return bad


def test_every_pointer_to_a_doc_names_a_file_of_the_repos_docs() -> None:
    assert not dangling(_files())


def test_the_guard_sees_a_bare_formats_md_and_a_missing_section() -> None:
    f = ROOT / "engine" / "_probe_docs_links.py"   # (inside the repo: pointers are read relative to it)
    try:
        f.write_text('HELP = "commands: formats.md §1; scenarios: docs/formats.md §99; docs/nothing.md"\n',
                     encoding="utf-8")
        found = dangling([f])
    finally:
        f.unlink()
    assert any("'formats.md' — say docs/formats.md" in b for b in found)
    assert any("§ 99" in b for b in found)
    assert any("docs/nothing.md does not exist" in b for b in found)


def test_relative_links_in_the_readme_and_docs_resolve() -> None:
    bad = []
    for f in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for m in MD_LINK.finditer(f.read_text(encoding="utf-8")):
            target = m.group(1)
            if "://" in target or target.startswith("mailto:"):
                continue
            if not (f.parent / target).exists():
                bad.append(f"{f.relative_to(ROOT)}: link to {target}, which does not exist")
    assert not bad


def test_the_wheel_ships_the_formats_and_the_rules_the_app_points_to() -> None:
    for name in ("formats.md", "rules.md"):
        shipped = ROOT / "c1k_tui" / name
        assert shipped.resolve() == (ROOT / "docs" / name).resolve()
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'c1k_tui = \[[^\]]*"formats\.md"', pyproject)


def test_the_readme_links_to_every_doc() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    linked = {m.group(1) for m in MD_LINK.finditer(readme)}
    missing = [f"docs/{p.name}" for p in sorted((ROOT / "docs").glob("*.md")) if f"docs/{p.name}" not in linked]
    assert not missing, f"the README doesn't link to {missing}"
