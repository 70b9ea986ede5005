"""The docs' links and section names hold: every relative Markdown link of README.md,
CONTRIBUTING.md and docs/ names a file that exists and, with ``#anchor``, a heading of
it (GitHub's anchors); every place in the code or the docs that names a section of a
doc in words (``docs/scaling.md, "Memory soak"``) names a heading or a bold paragraph
that the doc has; and docs/operations.md names every metric and setting.  Docs are
rewritten and cut into history (docs/history/); a pointer left behind fails here instead
of sending a reader nowhere."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest

from app.settings import Settings
from app.web import metrics

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted([ROOT / "README.md", ROOT / "CONTRIBUTING.md",
               *(p for p in (ROOT / "docs").rglob("*.md") if "spec" not in p.parts)])
LINK = re.compile(r"\]\(([^)\s]+)\)")
# docs/NAME.md, "Section" or docs/NAME.md ("Section"; the section's first words
NAMED = re.compile(r"docs/([\w/.-]+\.md)[,:]? \(?\"([^\"]+)\"")


def anchors(path: Path) -> set[str]:
    """GitHub's anchors of a Markdown file's headings."""
    seen: dict[str, int] = {}
    out: set[str] = set()
    fenced = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        if fenced or not line.startswith("#"):
            continue
        text = line.lstrip("#").strip().lower()
        slug = re.sub(r"[^\w\- ]", "", text, flags=re.UNICODE).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def sections(path: Path) -> list[str]:
    """What a doc's sections start with: its headings and its bold paragraphs and items."""
    text = path.read_text(encoding="utf-8")
    heads = [m.group(1) for m in re.finditer(r"^#+ (.+)$", text, flags=re.M)]
    bold = [m.group(1) for m in re.finditer(r"^(?:- )?\*\*([^*]+)\*\*", text, flags=re.M)]
    return [s.replace("`", "") for s in heads + bold]


@pytest.mark.parametrize("doc", [d for d in DOCS if d.exists()],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_reaches_its_file_and_heading(doc: Path) -> None:
    broken = []
    for target in LINK.findall(doc.read_text(encoding="utf-8")):
        if re.match(r"^[a-z]+:", target) or target.startswith("/"):
            continue  # a URL, or a path of the running app
        file, _, anchor = target.partition("#")
        path = (doc.parent / file).resolve() if file else doc
        if not path.exists() or (anchor and path.suffix == ".md"
                                 and anchor not in anchors(path)):
            broken.append(target)
    assert broken == [], f"{doc.relative_to(ROOT)}: links that lead nowhere: {broken}"


def test_every_section_named_in_words_exists() -> None:
    files = [*DOCS, *(ROOT / "app").rglob("*.py"), *(ROOT / "benchmarks").rglob("*.py"),
             *(ROOT / "tests").rglob("*.py"), *(ROOT / "deploy").iterdir()]
    missing = []
    for file in files:
        if not file.is_file() or file.suffix not in {".md", ".py", ".conf", ".yml"}:
            continue
        text = re.sub(r"\s+", " ", file.read_text(encoding="utf-8"))
        for name, section in NAMED.findall(text):
            doc = ROOT / "docs" / name
            if "spec/" in name or not doc.exists():
                continue  # the spec is a copy; a doc that does not exist is another test's
            if not any(s.startswith(section.replace("`", "")) for s in sections(doc)):
                missing.append(f"{file.relative_to(ROOT)}: docs/{name}, \"{section}\"")
    assert missing == [], "sections named that the docs do not have:\n" + "\n".join(missing)


def test_every_metric_and_setting_is_in_the_operations_doc() -> None:
    """docs/operations.md's tables name every metric app/web/metrics.py exports and every
    ``AMERIKANER_*`` setting of app/settings.py (CONTRIBUTING.md's checklists)."""
    text = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    assert [m for m in sorted(metrics.EXPORTED) if f"`{m}" not in text] == []
    assert [f.name for f in fields(Settings)
            if f"AMERIKANER_{f.name.upper()}" not in text] == []
