"""Draw the import graph between the project's packages as a Mermaid diagram, from the
imports themselves (grimp, the graph import-linter checks): ``python -m daifugo_site.layers``
prints it, ``--write`` puts it into docs/architecture.md between its markers, and a test
checks that the diagram there is the current one.

A developer tool (grimp comes with import-linter, a dev dependency); the site never imports
this module.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[1]
DOC = BASE_DIR / "docs" / "architecture.md"
START = "<!-- import graph: start (python -m daifugo_site.layers --write) -->"
END = "<!-- import graph: end -->"

#: The boxes, top to bottom as the layers contract (.importlinter) orders them.
NODES = [
    ("daifugo_site.asgi", "asgi / urls / routing / settings"),
    ("daifugo_site.rooms", "rooms"),
    ("daifugo_site.rated", "rated"),
    ("daifugo_site.accounts", "accounts"),
    ("daifugo_site.play", "play"),
    ("daifugo_site.pages", "pages"),
    ("daifugo_site.review", "review"),
    ("tutorials", "tutorials"),
    ("daifugo_site.ui", "ui"),
    ("rules_engine.__main__", "rules_engine command line"),
    ("uecda", "uecda (UECda client)"),
    ("rules_engine.ai", "rules_engine.ai"),
    ("rules_engine", "rules_engine"),
]
TOP = ("daifugo_site.asgi", "daifugo_site.urls", "daifugo_site.routing", "daifugo_site.settings")


def _node(module: str) -> str | None:
    """The box a module belongs to (the longest matching prefix), or None."""
    if module.startswith(TOP):
        return "daifugo_site.asgi"
    best = None
    for name, _label in NODES:
        if (module == name or module.startswith(name + ".")) and (
            best is None or len(name) > len(best)
        ):
            best = name
    return best


def edges() -> list[tuple[str, str]]:
    import grimp

    graph = grimp.build_graph("rules_engine", "daifugo_site", "tutorials", "uecda")
    found: set[tuple[str, str]] = set()
    for importer in graph.modules:
        source = _node(importer)
        if source is None:
            continue
        for imported in graph.find_modules_directly_imported_by(importer):
            target = _node(imported)
            if target is not None and target != source:
                found.add((source, target))
    return sorted(found)


def mermaid() -> str:
    ids = {name: name.replace(".", "_") for name, _label in NODES}
    lines = ["```mermaid", "flowchart TD"]
    lines += [f'    {ids[name]}["{label}"]' for name, label in NODES]
    lines += [f"    {ids[a]} --> {ids[b]}" for a, b in edges()]
    lines.append("```")
    return "\n".join(lines)


def with_diagram(text: str, diagram: str) -> str:
    head, _old, tail = text.partition(START)
    _old_diagram, _end, rest = tail.partition(END)
    return f"{head}{START}\n{diagram}\n{END}{rest}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="update docs/architecture.md")
    args = parser.parse_args()
    diagram = mermaid()
    if args.write:
        DOC.write_text(with_diagram(DOC.read_text(), diagram))
    else:
        sys.stdout.write(diagram + "\n")


if __name__ == "__main__":
    main()
