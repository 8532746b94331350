"""The rules reference, mounted inside i18n_patterns with the namespace ``rules``.

/<lang>/rules/, /<lang>/rules/presets/, /<lang>/rules/<slug>/, /<lang>/faq/, /<lang>/glossary/
"""

from django.urls import path

from . import rules_views

urlpatterns = [
    path("rules/", rules_views.index, name="index"),
    # Before <slug>: "presets" is a reserved section slug (models.RESERVED_SLUGS).
    path("rules/presets/", rules_views.presets, name="presets"),
    path("rules/<slug:slug>/", rules_views.section, name="section"),
    path("faq/", rules_views.faq, name="faq"),
    path("glossary/", rules_views.glossary, name="glossary"),
]
