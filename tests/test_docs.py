"""The documentation holds together: a README that fits on a screen, and no dead links.

The README is the first page a newcomer reads, so it stays short and points into docs/;
every relative link there and in docs/*.md must reach a file (and, with a #fragment, a
heading of that file) that exists.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
README_MAX_LINES = 150

# [text](target) outside code: inline links only, which is all these files use.
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"`[^`\n]*`")


def links(path: Path) -> list[str]:
    """The link targets of a Markdown file, code blocks and code spans left out."""
    text = CODE_SPAN.sub("", FENCE.sub("", path.read_text(encoding="utf-8")))
    return LINK.findall(text)


def is_relative(target: str) -> bool:
    return not re.match(r"^[a-z][a-z0-9+.-]*:", target) and not target.startswith("//")


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to
    hyphens."""
    text = CODE_SPAN.sub(lambda m: m.group(0).strip("`"), heading.strip()).lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return {slug(m[1]) for m in re.finditer(r"^#{1,6}\s+(.+?)\s*#*$", text, re.MULTILINE)}


def doc_files() -> list[Path]:
    return sorted(DOCS.glob("*.md"))


def test_the_readme_fits_on_a_screen() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) < README_MAX_LINES, f"README.md has {len(lines)} lines"


def test_the_readme_maps_the_docs_folder() -> None:
    linked = {
        (README.parent / target.split("#", 1)[0]).resolve()
        for target in links(README)
        if is_relative(target) and target.startswith("docs/")
    }
    assert linked, "the README links no docs/*.md file"
    missing = sorted(str(path.relative_to(ROOT)) for path in linked if not path.is_file())
    assert not missing, f"README.md links missing files: {missing}"
    # And the map is complete: every guide in docs/ is reachable from the front page.
    unlinked = sorted(path.name for path in doc_files() if path.resolve() not in linked)
    assert not unlinked, f"docs/ files the README does not link: {unlinked}"


@pytest.mark.parametrize("path", [README, *doc_files()], ids=lambda p: p.name)
def test_every_relative_link_reaches_a_file_and_heading(path: Path) -> None:
    broken = []
    for target in links(path):
        if not is_relative(target):
            continue
        file_part, _, fragment = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        if not linked.exists():
            broken.append(f"{target}: no such file")
        elif fragment and linked.suffix == ".md" and fragment not in anchors(linked):
            broken.append(f"{target}: no heading #{fragment}")
    assert not broken, f"{path.name}: {broken}"


def test_link_checking_finds_a_dead_link(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "# Title\n\nSee [gone](missing.md), [here](#title), `[code](nowhere.md)` and\n"
        "[the web](https://example.com).\n\n```\n[fenced](nowhere.md)\n```\n",
        encoding="utf-8",
    )
    assert links(page) == ["missing.md", "#title", "https://example.com"]
    assert slug("Housekeeping: run `manage.py purge` daily") == (
        "housekeeping-run-managepy-purge-daily"
    )
    assert "title" in anchors(page)
