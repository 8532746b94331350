"""modeltranslation: every text of the rules reference exists in zh-hans and ja.

``required_languages`` makes the admin refuse a row with an empty language: a rules page
never falls back to the other language (and a test checks the loaded content too).
"""

from __future__ import annotations

from modeltranslation.translator import TranslationOptions, register

from .languages import LANGUAGES, language_fields
from .models import Example, FAQEntry, GlossaryTerm, RuleOption, RuleOptionValue, RuleSection

__all__ = ["LANGUAGES", "language_fields"]


def _required(*fields: str) -> dict[str, tuple[str, ...]]:
    return {language: fields for language in LANGUAGES}


@register(RuleSection)
class RuleSectionTranslation(TranslationOptions):
    fields = ("title", "summary", "body", "body_html", "html_catalogue")
    required_languages = _required("title", "summary", "body")


@register(Example)
class ExampleTranslation(TranslationOptions):
    fields = ("caption",)
    required_languages = _required("caption")


@register(RuleOption)
class RuleOptionTranslation(TranslationOptions):
    fields = ("label", "description")
    required_languages = _required("label", "description")


@register(RuleOptionValue)
class RuleOptionValueTranslation(TranslationOptions):
    fields = ("label",)
    required_languages = _required("label")


@register(FAQEntry)
class FAQEntryTranslation(TranslationOptions):
    fields = ("question", "answer", "answer_html", "html_catalogue")
    required_languages = _required("question", "answer")


@register(GlossaryTerm)
class GlossaryTermTranslation(TranslationOptions):
    fields = ("term", "reading", "explanation")
    required_languages = _required("term", "reading", "explanation")
