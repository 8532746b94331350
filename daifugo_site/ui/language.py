"""Words in the language of the push being rendered, without asking Django each time.

Django keeps the active language in an asgiref ``Local``: each ``gettext`` and
``get_language`` reads it, which costs a few microseconds (a context variable, a lock, an
attribute). A table's push asks about 60 times (card names, seat names, the macros' words),
and in a profile of the push's rendering those lookups were about a tenth of it (issue 43).

:func:`rendering_in` is ``translation.override`` that also binds the language's catalogue
to a plain context variable for the block; the functions here read that variable first and
fall back to Django's own outside such a block. They return what Django's return (the same
catalogue, the same handling of context, line ends and safe strings); the tests compare
every push both ways. Inside the block nothing may switch the language again (the
rendering code does not): the bound catalogue would not follow.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.utils import translation
from django.utils.functional import lazy
from django.utils.safestring import SafeData, mark_safe
from django.utils.translation import trans_real

#: (language code, its catalogue) while a :func:`rendering_in` block runs.
_BOUND: ContextVar[tuple[str, Any] | None] = ContextVar("daifugo_bound_language", default=None)
_CONTEXT_SEPARATOR = "\x04"


@contextmanager
def rendering_in(lang: str) -> Iterator[None]:
    """``translation.override(lang)``, with the words of this module bound to ``lang``."""
    with translation.override(lang):
        active = translation.get_language()
        token = _BOUND.set((active, trans_real.translation(active)) if active else None)
        try:
            yield
        finally:
            _BOUND.reset(token)


def get_language() -> str | None:
    bound = _BOUND.get()
    return bound[0] if bound is not None else translation.get_language()


def gettext(message: str) -> str:
    bound = _BOUND.get()
    if bound is None or not message or "\r" in message:
        return translation.gettext(message)
    result: str = bound[1].gettext(message)
    return mark_safe(result) if isinstance(message, SafeData) else result


def pgettext(context: str, message: str) -> str:
    bound = _BOUND.get()
    if bound is None or "\r" in message or "\r" in context:
        return translation.pgettext(context, message)
    # The key in a variable: a literal in a gettext() call would be read by makemessages.
    key = f"{context}{_CONTEXT_SEPARATOR}{message}"
    result: str = bound[1].gettext(key)
    if _CONTEXT_SEPARATOR in result:
        return message  # not translated: Django gives the message itself
    return mark_safe(result) if isinstance(message, SafeData) else result


def ngettext(singular: str, plural: str, number: int) -> str:
    bound = _BOUND.get()
    if bound is None:
        return translation.ngettext(singular, plural, number)
    result: str = bound[1].ngettext(singular, plural, number)
    return result


# Lazy words for module constants, read through the functions above. ``makemessages``
# finds them by these names, as it finds Django's.
gettext_lazy = lazy(gettext, str)
pgettext_lazy = lazy(pgettext, str)
