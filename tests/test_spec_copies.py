"""The spec in the repository: docs/spec/ is an exact copy of ../shared/spec/ (the
project's contract, beside every clone in CI), and every mention of one of its documents
in the code and the docs names a file that exists (docs/rules.md, "The spec")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
COPY = ROOT / "docs" / "spec"
SHARED = ROOT.parent / "shared" / "spec"
# A mention: the document's name with whatever path is written before it.
MENTION = re.compile(r"[\w./-]*(?:RULES|GAME-RECORD|PROTOCOL)\.md")


def files_under(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` by its path relative to it, with its bytes."""
    return {path.relative_to(folder).as_posix(): path.read_bytes()
            for path in sorted(folder.rglob("*")) if path.is_file()}


@pytest.mark.skipif(not SHARED.is_dir(),
                    reason=f"{SHARED} is not beside the clone (CI has it): nothing to compare")
def test_docs_spec_is_an_exact_copy_of_the_shared_spec() -> None:
    ours, theirs = files_under(COPY), files_under(SHARED)
    assert sorted(ours) == sorted(theirs), "docs/spec/ and ../shared/spec/ hold other files"
    differing = [name for name in theirs if ours[name] != theirs[name]]
    assert differing == [], (f"docs/spec/ differs from ../shared/spec/ in {differing}: "
                             "copy the spec with cp -r ../shared/spec/. docs/spec/")


def texts() -> list[Path]:
    """The files whose mentions must name existing paths: app/, docs/ and the README."""
    found = [ROOT / "README.md"]
    for folder in (ROOT / "app", ROOT / "docs"):
        found += [path for path in sorted(folder.rglob("*"))
                  if path.is_file() and "__pycache__" not in path.parts
                  and path.suffix in {".py", ".md", ".js", ".json", ".html", ".css", ".txt"}]
    return found


def test_every_mention_of_a_spec_document_names_a_file_that_exists() -> None:
    missing: list[str] = []
    for path in texts():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for mention in MENTION.findall(line):
                # from the repository's root (app/, README) or from the file's own folder
                # (a link in docs/, a name inside docs/spec/)
                if not ((ROOT / mention).is_file() or (path.parent / mention).is_file()):
                    missing.append(f"{path.relative_to(ROOT)}:{number}: {mention}")
    assert missing == [], "mentions of files the repository does not have:\n" + "\n".join(
        missing)
