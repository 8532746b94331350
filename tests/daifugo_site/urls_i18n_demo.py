"""A URLconf for tests: the real site plus a page with arguments."""

from django.conf.urls.i18n import i18n_patterns
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path

from daifugo_site.urls import urlpatterns as site_urlpatterns


def demo_page(request: HttpRequest, number: int) -> HttpResponse:
    return render(request, "base.html")


urlpatterns = [
    *site_urlpatterns,
    *i18n_patterns(
        path("demo/<int:number>/", demo_page, name="demo"),
        prefix_default_language=True,
    ),
]
