from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.views.decorators.http import require_safe
from django.views.decorators.vary import vary_on_headers


@require_safe
@vary_on_headers("Accept-Language", "Cookie")
def root_redirect(request: HttpRequest) -> HttpResponse:
    """``/`` -> ``/zh-hans/`` or ``/ja/``: the language cookie, then Accept-Language.

    A temporary redirect, since the answer depends on who asks.
    """
    language = translation.get_language_from_request(request)
    with translation.override(language):
        return HttpResponseRedirect(reverse("home"))


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "pages/home.html")
