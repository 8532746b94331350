"""The site's own error pages: no visitor ever sees Django's bare or debug pages.

- A refused form (CSRF) answers the styled 403 page in the page's language
  (settings.CSRF_FAILURE_VIEW), not Django's English one that talks about DEBUG.
- ``ErrorPageMiddleware`` gives a page to answers that have an error status and no body
  of their own (``require_POST``'s 405, a bare ``HttpResponse(status=403)``): the browser
  would show an empty white page. htmx requests keep their bodies (they are fragments, and
  the table shows their errors in place).
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _


def error_page(request: HttpRequest, status: int) -> HttpResponse:
    if status == 403:
        title = _("You cannot do that here")
        text = _(
            "This page refused the request. If you came from a form, reload its page and try again."
        )
    elif status == 404:
        title = _("Page not found")
        text = _(
            "There is no page at this address. It may have moved, or the link may be mistyped."
        )
    elif status == 405:
        title = _("This address is not a page")
        text = _("It only answers a button on the site. Go back and use the button.")
    elif status == 429:
        title = _("Too many requests")
        text = _("Please wait a moment and try again.")
    else:
        title = _("Something went wrong")
        text = _("The request could not be handled. Please go back and try again.")
    return render(request, "error.html", {"title": title, "text": text}, status=status)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """settings.CSRF_FAILURE_VIEW: the reason is for logs, never shown to the visitor."""
    return error_page(request, 403)


class ErrorPageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            response.status_code >= 400
            and not response.streaming
            and not response.content
            and request.method != "HEAD"
            and not request.headers.get("HX-Request")
            # Pages only (under a language prefix): not the admin, feeds or the sitemap.
            and request.path.split("/")[1] in dict(settings.LANGUAGES)
        ):
            page = error_page(request, response.status_code)
            # A 405 keeps its Allow header; whatever else the answer said still holds.
            for header in ("Allow", "Retry-After"):
                if header in response:
                    page[header] = response[header]
            return page
        return response
