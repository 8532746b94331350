"""Admin for the rules reference: one tab per language (modeltranslation), search, filters.

Saving re-renders the stored HTML (models' ``save``); an example hand is refused when the
rules engine does not agree with its scenario (``Example.clean``), and a body with an
unknown card or example is refused (``RuleSection.clean``). "View on site" previews a row
on its page; the lists link there too.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Q
from django.http import HttpRequest
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from modeltranslation.admin import TabbedTranslationAdmin, TranslationTabularInline

from .models import Example, FAQEntry, GlossaryTerm, RuleOption, RuleOptionValue, RuleSection
from .translation import language_fields


def _preview(obj: Any) -> str:
    return format_html(
        '<a href="{}" target="_blank" rel="noopener">{}</a>', obj.get_absolute_url(), _("View")
    )


@admin.register(RuleSection)
class RuleSectionAdmin(TabbedTranslationAdmin):
    list_display = ("title", "slug", "group", "order", "preview")
    list_display_links = ("title",)
    list_editable = ("order",)
    list_filter = ("group",)
    search_fields = ("slug", "title", "summary", "body")
    ordering = ("order", "slug")

    @admin.display(description=_("preview"))
    def preview(self, obj: RuleSection) -> str:
        return _preview(obj)


@admin.register(Example)
class ExampleAdmin(TabbedTranslationAdmin):
    list_display = ("slug", "caption", "section", "order", "preview")
    list_filter = ("section",)
    search_fields = ("slug", "caption")
    ordering = ("order", "slug")
    autocomplete_fields = ("section",)

    @admin.display(description=_("preview"))
    def preview(self, obj: Example) -> str:
        return _preview(obj)

    def save_model(self, request: HttpRequest, obj: Example, form: Any, change: bool) -> None:
        # clean() already ran the scenario through the engine (ModelForm validation).
        super().save_model(request, obj, form, change)
        # The sections and answers that embed this example carry its rendered HTML.
        marker = f"example: {obj.slug}"
        query = Q()
        for name, _language in language_fields("body"):
            query |= Q(**{f"{name}__contains": marker})
        for section in RuleSection.objects.filter(query):
            section.save()
        query = Q()
        for name, _language in language_fields("answer"):
            query |= Q(**{f"{name}__contains": marker})
        for entry in FAQEntry.objects.filter(query):
            entry.save()


class RuleOptionValueInline(TranslationTabularInline):
    model = RuleOptionValue
    extra = 0


@admin.register(RuleOption)
class RuleOptionAdmin(TabbedTranslationAdmin):
    list_display = ("name", "label", "section", "preview")
    list_filter = ("section",)
    search_fields = ("name", "label", "description")
    ordering = ("name",)
    autocomplete_fields = ("section",)
    inlines = [RuleOptionValueInline]

    @admin.display(description=_("preview"))
    def preview(self, obj: RuleOption) -> str:
        return _preview(obj)


@admin.register(FAQEntry)
class FAQEntryAdmin(TabbedTranslationAdmin):
    list_display = ("question", "category", "order", "preview")
    list_editable = ("order",)
    list_filter = ("category",)
    search_fields = ("question", "answer")
    ordering = ("order",)

    @admin.display(description=_("preview"))
    def preview(self, obj: FAQEntry) -> str:
        return _preview(obj)


@admin.register(GlossaryTerm)
class GlossaryTermAdmin(TabbedTranslationAdmin):
    list_display = ("term", "reading", "slug", "section", "order", "preview")
    list_editable = ("order",)
    list_filter = ("section",)
    search_fields = ("slug", "term", "reading", "explanation")
    ordering = ("order", "slug")
    autocomplete_fields = ("section",)

    @admin.display(description=_("preview"))
    def preview(self, obj: GlossaryTerm) -> str:
        return _preview(obj)
