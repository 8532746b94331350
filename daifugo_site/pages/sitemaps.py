"""/sitemap.xml: every page of the reference and the home page, in both languages.

``i18n=True`` lists each page once per language; ``alternates=True`` adds the
``<xhtml:link rel="alternate" hreflang=...>`` of the other language (and x-default).
"""

from __future__ import annotations

from django.contrib.sitemaps import Sitemap
from django.db.models import QuerySet
from django.urls import reverse

from .models import RuleSection


class StaticPagesSitemap(Sitemap):
    i18n = True
    alternates = True
    x_default = True
    changefreq = "monthly"

    def items(self) -> list[str]:
        return ["home", "rules:index", "rules:presets", "rules:faq", "rules:glossary"]

    def location(self, item: str) -> str:
        return reverse(item)


class RuleSectionSitemap(Sitemap):
    i18n = True
    alternates = True
    x_default = True
    changefreq = "monthly"

    def items(self) -> QuerySet[RuleSection]:
        return RuleSection.objects.only("slug", "order").order_by("order", "slug")


SITEMAPS = {"pages": StaticPagesSitemap, "rules": RuleSectionSitemap}
