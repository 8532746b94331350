"""Jinja2, through Django's own backend, for the table's pushed fragments (issue 43).

Why a second template engine: a table move pushes a few fragments to every page of the
game (the hand, the seats that changed, the field, the log's new line). Rendered with
Django's engine they were most of a web worker's CPU per move; Jinja2 compiles templates
to Python and renders the same HTML several times faster. Everything else (pages, forms,
e-mails) stays in Django's engine: it is not on the per-move path.

The fragments are macros (``jinja2/play/table.html``), called with their arguments:

- by the push (:mod:`daifugo_site.play.rendering`): ``macro("play/table.html", "hand")(view,
  oob=True)``;
- by a Django page through ``{% fragment "play/table.html" "hand" view %}``
  (``templatetags/fragments.py``), so the page and the push share one template.

Words: ``_`` is Django's ``gettext`` in the active language, so ``{{ _("...") }}`` is
translated at render time like ``{% translate %}`` and ``make makemessages`` finds it.
A word with a context or a plural is a lazy string in Python, handed in as a global.

Apps add what their fragments need with :func:`register` from ``AppConfig.ready`` (the
review's "hints offered", the table's words): this module imports no app.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation

from jinja2 import Environment, Undefined

from . import language

#: What every template sees besides its arguments (see :func:`register`).
GLOBALS: dict[str, Any] = {}
_ENVIRONMENTS: list[Environment] = []


def register(name: str, value: Any) -> None:
    """Make ``value`` a global of every Jinja2 template, as ``name``."""
    GLOBALS[name] = value
    for env in _ENVIRONMENTS:
        env.globals[name] = value


def url(name: str, *args: Any) -> str:
    """``{% url %}``: the path of a named route, in the active language's prefix."""
    return _url(name, args, translation.get_language())


@lru_cache(maxsize=1024)
def _url(name: str, args: tuple[Any, ...], language: str | None) -> str:
    # Reversing walks the resolver: about as long as rendering the whole hand. A hand
    # asks for its game's hint route on every push, so the answers are kept (a route's
    # path depends only on its name, arguments and language prefix; the bound is memory).
    return reverse(name, args=args or None)


def environment(**options: Any) -> Environment:
    """The environment Django's Jinja2 backend builds (``TEMPLATES`` in settings)."""
    # Django's backend makes undefined values print their own expression when DEBUG is
    # on; Django's templates print nothing, and a fragment reads optional parts (a house
    # rule's choice owed, None most of the time) the same way in both modes.
    options["undefined"] = Undefined
    env = Environment(**options)
    env.globals.update(
        # The push binds its language (ui/language.py); a page falls back to Django's.
        _=language.gettext,
        gettext=language.gettext,
        url=url,
        static=static,
        **GLOBALS,
    )
    _ENVIRONMENTS.append(env)
    return env


def macro(template_name: str, name: str) -> Callable[..., Any]:
    """The macro ``name`` of ``template_name`` (the template is compiled once, then cached
    by Jinja2; its module, built once, holds the macros)."""
    found = _MACROS.get((template_name, name))
    if found is not None:
        return found
    from django.template import engines

    env: Environment = engines["jinja2"].env  # type: ignore[attr-defined]
    found = getattr(env.get_template(template_name).module, name)
    if not env.auto_reload:
        # A push calls a dozen macros, and asking the environment each time (its cache's
        # lock, the loader's mapping) was a twentieth of the push's rendering. Without
        # auto_reload (DEBUG off) a template never changes while the process runs; the
        # bound is the number of macros in the templates, a few dozen.
        _MACROS[(template_name, name)] = found
    return found  # type: ignore[no-any-return]


_MACROS: dict[tuple[str, str], Callable[..., Any]] = {}
