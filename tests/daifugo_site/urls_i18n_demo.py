"""A URLconf for tests: the real site plus a page with arguments and a "rules" section."""

from django.conf.urls.i18n import i18n_patterns
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import include, path

from daifugo_site.urls import urlpatterns as site_urlpatterns


def demo_page(request: HttpRequest, number: int) -> HttpResponse:
    return render(request, "base.html")


rules_patterns = ([path("", demo_page, {"number": 0}, name="index")], "rules")

urlpatterns = [
    *site_urlpatterns,
    *i18n_patterns(
        path("demo/<int:number>/", demo_page, name="demo"),
        path("rules/", include(rules_patterns)),
        prefix_default_language=True,
    ),
]
