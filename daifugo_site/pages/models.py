"""The rules reference as data: sections, example hands, option descriptions, FAQ, glossary.

Every text field is translated with django-modeltranslation (``translation.py``): the
columns are ``title_zh_hans`` and ``title_ja``, and ``section.title`` reads the active
language's. The content itself lives in ``content/`` and is loaded by ``loader.py``
(``manage.py load_site_content``); the admin edits the same rows.

Rendered HTML (``body_html``, ``answer_html``) is derived, per language, from the Markdown
source when a row is saved (``render_html``), so a page does not render Markdown on request;
``html_catalogue`` records which translations it was rendered with, and a page re-renders
the rare row rendered with other ones (``markup.ensure_current``).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from rules_engine import RuleSet
from rules_engine.scenarios import run_scenario

#: Every option name of RULES.md (the RuleSet fields a player can set), the house rules of
#: section 8 included (issue 40): the rules reference describes each one.
OPTION_NAMES: tuple[str, ...] = tuple(
    f.name for f in dataclasses.fields(RuleSet) if f.name not in {"preset_name", "ff_mask"}
)

#: Section slugs that would shadow another page under /rules/.
RESERVED_SLUGS = frozenset({"presets", "faq", "glossary"})


class RuleSection(models.Model):
    class Group(models.TextChoices):
        BASICS = "basics", pgettext_lazy("rules group", "The basics")
        LOCAL_RULES = "local-rules", pgettext_lazy("rules group", "Local rules")
        MORE = "more", pgettext_lazy("rules group", "Presets, tips and background")

    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    order = models.PositiveIntegerField(_("order"), default=0)
    group = models.CharField(_("group"), max_length=20, choices=Group.choices)
    title = models.CharField(_("title"), max_length=200)
    summary = models.CharField(_("summary"), max_length=400)
    body = models.TextField(
        _("body"),
        help_text=_("Markdown; shortcodes [[cards: S7 H7]] and [[example: slug]]."),
    )
    body_html = models.TextField(_("rendered body"), editable=False, default="")
    # Which catalogue each language's HTML was rendered with (markup.catalogue_version):
    # a page re-renders HTML whose stamp is not the running catalogue's.
    html_catalogue = models.CharField(
        _("catalogue of the rendered text"), max_length=40, editable=False, default="", blank=True
    )
    options = models.JSONField(
        _("rule options"),
        default=list,
        blank=True,
        help_text=_('Option names explained here, e.g. ["eight_cut"].'),
    )

    class Meta:
        ordering = ["order", "slug"]
        verbose_name = _("rule section")
        verbose_name_plural = _("rule sections")

    def __str__(self) -> str:
        return self.title or self.slug

    def save(self, *args: Any, render: bool = True, **kwargs: Any) -> None:
        if render:
            self.render_html()
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("rules:section", kwargs={"slug": self.slug})

    def clean(self) -> None:
        from . import markup
        from .languages import language_fields

        errors: dict[str, list[str]] = {}
        if self.slug in RESERVED_SLUGS:
            errors.setdefault("slug", []).append(str(_("This slug is reserved for another page.")))
        if not isinstance(self.options, list) or any(
            name not in OPTION_NAMES for name in self.options
        ):
            errors.setdefault("options", []).append(
                str(_("A list of rule option names, each one of: %(names)s."))
                % {"names": ", ".join(OPTION_NAMES)}
            )
        for field_name, _language in language_fields("body"):
            problem = markup.check(getattr(self, field_name) or "")
            if problem:
                errors.setdefault(field_name, []).append(problem)
        if errors:
            raise ValidationError(errors)

    def render_html(self) -> None:
        """Set ``body_html`` in every language from ``body`` (examples must exist)."""
        from . import markup

        markup.render_translated(self, "body", "body_html")


class Example(models.Model):
    """A worked example hand: a scenario (SCENARIOS.md) whose claim is its caption."""

    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    section = models.ForeignKey(
        RuleSection,
        verbose_name=_("rule section"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="examples",
    )
    caption = models.CharField(_("caption"), max_length=400)
    scenario = models.JSONField(
        _("scenario"), help_text=_("A SCENARIOS.md scenario; the rules engine runs it.")
    )
    order = models.PositiveIntegerField(_("order"), default=0)

    class Meta:
        ordering = ["order", "slug"]
        verbose_name = _("example hand")
        verbose_name_plural = _("example hands")

    def __str__(self) -> str:
        return self.slug

    def get_absolute_url(self) -> str:
        if self.section is None:
            return reverse("rules:index")
        return self.section.get_absolute_url()

    def clean(self) -> None:
        result = run_scenario(self.scenario)
        if not result.ok:
            where = "" if result.step is None else f" (step {result.step})"
            raise ValidationError(
                {
                    "scenario": _("The rules engine does not agree%(where)s: %(message)s")
                    % {"where": where, "message": result.message}
                }
            )


class RuleOptionManager(models.Manager["RuleOption"]):
    # The value labels come along with every option: value_labels() never queries again.
    def get_queryset(self) -> models.QuerySet[RuleOption]:
        return super().get_queryset().prefetch_related("values")


class RuleOption(models.Model):
    """What one RULES.md option means, keyed by its RuleSet field name."""

    name = models.CharField(
        _("option name"),
        max_length=60,
        unique=True,
        choices=[(name, name) for name in OPTION_NAMES],
    )
    section = models.ForeignKey(
        RuleSection,
        verbose_name=_("rule section"),
        on_delete=models.PROTECT,
        related_name="rule_options",
    )
    label = models.CharField(_("label"), max_length=120)
    description = models.TextField(_("description"))

    objects = RuleOptionManager()

    class Meta:
        ordering = ["name"]
        verbose_name = _("rule option")
        verbose_name_plural = _("rule options")

    def __str__(self) -> str:
        return self.label or self.name

    def get_absolute_url(self) -> str:
        return f"{self.section.get_absolute_url()}#option-{self.name}"

    def value_labels(self) -> dict[str, str]:
        """``{"off": "不采用", "groups": ...}``: the active language's label of each value."""
        return {value.value: value.label for value in self.values.all()}


class RuleOptionValue(models.Model):
    option = models.ForeignKey(
        RuleOption, verbose_name=_("rule option"), on_delete=models.CASCADE, related_name="values"
    )
    value = models.CharField(_("value"), max_length=40)
    label = models.CharField(_("label"), max_length=200)

    class Meta:
        ordering = ["option", "id"]
        constraints = [
            models.UniqueConstraint(fields=["option", "value"], name="unique_option_value")
        ]
        verbose_name = _("option value")
        verbose_name_plural = _("option values")

    def __str__(self) -> str:
        return f"{self.option.name}={self.value}"


class FAQEntry(models.Model):
    class Category(models.TextChoices):
        BASICS = "basics", pgettext_lazy("faq category", "The basics")
        LOCAL_RULES = "local-rules", pgettext_lazy("faq category", "Local rules")
        EXCHANGE_AND_TITLES = (
            "exchange-and-titles",
            pgettext_lazy("faq category", "Titles and the exchange"),
        )
        PLAYING_HERE = "playing-here", pgettext_lazy("faq category", "Playing on this site")

    order = models.PositiveIntegerField(_("order"), unique=True)
    category = models.CharField(_("category"), max_length=30, choices=Category.choices)
    question = models.CharField(_("question"), max_length=300)
    answer = models.TextField(_("answer"), help_text=_("Markdown, with the same shortcodes."))
    answer_html = models.TextField(_("rendered answer"), editable=False, default="")
    # Which catalogue each language's HTML was rendered with (markup.catalogue_version):
    # a page re-renders HTML whose stamp is not the running catalogue's.
    html_catalogue = models.CharField(
        _("catalogue of the rendered text"), max_length=40, editable=False, default="", blank=True
    )

    class Meta:
        ordering = ["order"]
        verbose_name = _("FAQ entry")
        verbose_name_plural = _("FAQ entries")

    def __str__(self) -> str:
        return self.question

    def save(self, *args: Any, render: bool = True, **kwargs: Any) -> None:
        if render:
            self.render_html()
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return f"{reverse('rules:faq')}#{self.anchor}"

    @property
    def anchor(self) -> str:
        return f"faq-{self.order}"

    def clean(self) -> None:
        from . import markup
        from .languages import language_fields

        errors = {}
        for field_name, _language in language_fields("answer"):
            problem = markup.check(getattr(self, field_name) or "")
            if problem:
                errors[field_name] = problem
        if errors:
            raise ValidationError(errors)

    def render_html(self) -> None:
        from . import markup

        markup.render_translated(self, "answer", "answer_html")


class GlossaryTerm(models.Model):
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    order = models.PositiveIntegerField(_("order"), default=0)
    term = models.CharField(_("term"), max_length=100)
    reading = models.CharField(
        _("reading"), max_length=200, help_text=_("Pinyin in Chinese, kana in Japanese.")
    )
    explanation = models.TextField(_("explanation"))
    section = models.ForeignKey(
        RuleSection,
        verbose_name=_("rule section"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="glossary_terms",
    )

    class Meta:
        ordering = ["order", "slug"]
        verbose_name = _("glossary term")
        verbose_name_plural = _("glossary terms")

    def __str__(self) -> str:
        return self.term or self.slug

    def get_absolute_url(self) -> str:
        return f"{reverse('rules:glossary')}#{self.anchor}"

    @property
    def anchor(self) -> str:
        return f"term-{self.slug}"
