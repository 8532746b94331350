"""The import graph in docs/architecture.md is the current one (issue 42)."""

from __future__ import annotations

from daifugo_site import layers


def test_the_documented_import_graph_is_current() -> None:
    text = layers.DOC.read_text()
    assert layers.START in text and layers.END in text
    assert layers.with_diagram(text, layers.mermaid()) == text, (
        "docs/architecture.md's import graph is out of date: "
        "run python -m daifugo_site.layers --write"
    )


def test_the_site_layers_point_down() -> None:
    """No arrow from a box to one above it in the layers' order (apart from one layer's
    own boxes): the picture says what .importlinter enforces."""
    rank = {
        "daifugo_site.asgi": 0,
        "daifugo_site.rooms": 1,
        "daifugo_site.rated": 1,
        "daifugo_site.accounts": 1,
        "daifugo_site.play": 2,
        "daifugo_site.pages": 2,
        "daifugo_site.review": 2,
        "tutorials": 2,
        "daifugo_site.ui": 3,
    }
    for source, target in layers.edges():
        if source in rank and target in rank:
            assert rank[source] <= rank[target], (source, target)
