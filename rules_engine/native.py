"""The engine compiled with mypyc, and the pure-Python engine it stands in for.

The engine is strict-typed Python; mypyc compiles the modules of :data:`COMPILED` to C
extension modules beside their sources (``make engine``, or ``python -m
rules_engine native build``). Python imports an extension module before a source file of
the same name, so once built, ``import rules_engine`` runs compiled: the advanced player's
playouts are about 2.3 times as fast, so it searches that much more in the same time.

The pure-Python engine stays the reference and is always available:

- ``RULES_ENGINE_PURE=1`` in the environment imports the sources, ignoring any build;
- a build whose sources have changed since (the stamp file holds a hash of them) is
  ignored the same way, with a warning, so an edit is never shadowed by stale C code;
- without a build (no C compiler, or never built) the sources are all there is.

:func:`select` makes that choice; ``rules_engine/__init__.py`` calls it before importing
any other module of the package. The modules left pure are the package's entry points,
the UECda client, the scenario runner and the arena (not on the hot path), ``rules.py``
(read, not run, in play; mypyc cannot compile its validation's closure inside a Python
class), and ``ai/base.py`` (its ``Player`` protocol must stay a runtime-checkable
protocol).

>>> kind() in ("compiled", "pure")
True
"""

from __future__ import annotations

import hashlib
import logging
import os
import sys
from importlib.machinery import (
    BYTECODE_SUFFIXES,
    SOURCE_SUFFIXES,
    FileFinder,
    SourceFileLoader,
    SourcelessFileLoader,
)
from pathlib import Path

log = logging.getLogger(__name__)

PACKAGE = Path(__file__).resolve().parent
#: Modules compiled, relative to the package (the hot path of rounds, moves and search).
COMPILED = (
    "cards",
    "moves",
    "effects",
    "state",
    "observation",
    "actions",
    "match",
    "solver",
    "ai/beginner",
    "ai/heuristics",
    "ai/intermediate",
    "ai/policy",
    "ai/worlds",
    "ai/advanced",
)
#: The sources' hash as of the last build (written by :func:`build`; not in git).
STAMP = PACKAGE / "_native_build.txt"
#: The shared library mypyc makes for the whole group (inside the package).
GROUP = "rules_engine._compiled"
PURE_ENV = "RULES_ENGINE_PURE"

_selected: str | None = None


def sources_hash() -> str:
    """A hash of the compiled modules' sources and the interpreter they are built for."""
    digest = hashlib.sha256(sys.version.encode())
    for name in COMPILED:
        digest.update(name.encode())
        digest.update((PACKAGE / f"{name}.py").read_bytes())
    return digest.hexdigest()


def _built() -> bool:
    return any(PACKAGE.glob("_compiled__mypyc*.so")) or any(PACKAGE.glob("_compiled__mypyc*.pyd"))


def _current() -> bool:
    """Whether a build exists and was made from the sources as they are now."""
    try:
        return _built() and STAMP.read_text().strip() == sources_hash()
    except OSError:
        return False


def _sources_only(directory: Path) -> None:
    # Submodules of a package are looked up through the finder cached for each entry of
    # its __path__: a finder that knows only source and bytecode files never sees the
    # extension modules beside them.
    sys.path_importer_cache[str(directory)] = FileFinder(
        str(directory),
        (SourceFileLoader, SOURCE_SUFFIXES),
        (SourcelessFileLoader, BYTECODE_SUFFIXES),
    )


def select() -> str:
    """Choose, once per process and before the engine's modules are imported, whether
    they load compiled or from source; returns ``"compiled"`` or ``"pure"``."""
    global _selected
    if _selected is not None:
        return _selected
    wanted = os.environ.get(PURE_ENV) != "1"
    if wanted and _current():
        _selected = "compiled"
        return _selected
    if _built():
        if wanted:
            log.warning(
                "rules_engine: the compiled engine is older than its sources; running the "
                "pure-Python engine (make engine rebuilds it)"
            )
        for directory in (PACKAGE, PACKAGE / "ai"):
            _sources_only(directory)
    _selected = "pure"
    return _selected


def kind() -> str:
    """``"compiled"`` or ``"pure"``: what this process runs (for benches and the arena)."""
    import rules_engine.state as state

    return "compiled" if not str(state.__file__).endswith(".py") else "pure"


def clean() -> None:
    """Remove the extension modules and the stamp (the sources are all that is left)."""
    for directory in (PACKAGE, PACKAGE / "ai"):
        for path in list(directory.glob("*.so")) + list(directory.glob("*.pyd")):
            path.unlink()
    STAMP.unlink(missing_ok=True)


def build() -> None:
    """Compile :data:`COMPILED` with mypyc in place (C sources under ``.cache/mypyc``)."""
    from mypyc.build import mypycify
    from setuptools import setup  # type: ignore[import-untyped]

    root = PACKAGE.parent
    work = root / ".cache" / "mypyc"
    here = os.getcwd()
    os.chdir(root)
    try:
        clean()
        modules = mypycify(
            [f"rules_engine/{name}.py" for name in COMPILED],
            opt_level="3",
            group_name=GROUP,
            target_dir=str(work / "c"),
        )
        setup(
            name="rules_engine_native",
            packages=[],
            py_modules=[],
            ext_modules=modules,
            script_args=[
                "--quiet",
                "build_ext",
                "--inplace",
                "--build-temp",
                str(work / "temp"),
            ],
        )
    finally:
        os.chdir(here)
    STAMP.write_text(sources_hash() + "\n")
