"""Admin for lessons and steps; saving runs the engine over the lesson.

A lesson page edits the lesson and its steps (each step links to its own page for script
captions, tempting wrong moves and choices). Before anything is saved, the lesson as it
would be is validated (:mod:`tutorials.validation`: engine and solver); an invalid lesson
does not save, and each problem names the step.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin
from django.core.exceptions import ValidationError
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from modeltranslation.admin import (
    TabbedTranslationAdmin,
    TranslationStackedInline,
    TranslationTabularInline,
)

from .models import Choice, Lesson, PlayerPuzzle, Progress, ScriptLine, Step, WrongMove
from .spec import LessonSpec, StepSpec, lesson_from_model, step_from_model
from .validation import validate_lesson

FORM_VALID = "_tutor_main_form_valid"


class ValidatedFormSet(BaseInlineFormSet):
    """The last inline formset of a page runs the whole-lesson validation in its clean()."""

    tutor_validate: Callable[[], list[str]] | None = None

    def clean(self) -> None:
        super().clean()
        if self.tutor_validate is not None:
            problems = self.tutor_validate()
            if problems:
                raise ValidationError(problems)


def _live_forms(formset: Any) -> list[Any]:
    """The forms of a (valid) formset that will exist after saving, with their instances
    built from the posted data."""
    forms = []
    for form in formset.forms:
        cleaned = getattr(form, "cleaned_data", None)
        if not cleaned or cleaned.get("DELETE"):
            continue
        if form.instance.pk is None and not form.has_changed():
            continue
        forms.append(form)
    return forms


class ValidatingAdmin(TabbedTranslationAdmin):
    def save_form(self, request: HttpRequest, form: Any, change: bool) -> Any:
        setattr(request, FORM_VALID, True)  # called only when the main form is valid
        return super().save_form(request, form, change)

    def _create_formsets(self, request: HttpRequest, obj: Any, change: bool) -> Any:
        formsets, inlines = super()._create_formsets(request, obj, change)
        if request.method == "POST" and formsets:
            last = formsets[-1]

            def run() -> list[str]:
                if not getattr(request, FORM_VALID, False):
                    return []  # the main form shows its own errors first
                if not all(fs.is_valid() for fs in formsets if fs is not last):
                    return []
                if not all(form.is_valid() for form in last.forms):
                    return []
                return self.problems(obj, formsets)

            last.tutor_validate = run
        return formsets, inlines

    def problems(self, obj: Any, formsets: list[Any]) -> list[str]:  # pragma: no cover
        raise NotImplementedError


class StepInline(TranslationStackedInline):
    model = Step
    formset = ValidatedFormSet
    extra = 0
    show_change_link = True
    fields = (
        "order",
        "kind",
        "table",
        "data",
        "text",
        "prompt",
        "question",
        "hint1",
        "hint2",
        "right",
        "other",
    )


@admin.register(Lesson)
class LessonAdmin(ValidatingAdmin):
    list_display = ("slug", "title", "category", "order", "difficulty", "section", "source")
    list_filter = ("category",)
    search_fields = ("slug", "title_zh_hans", "title_ja", "section")
    readonly_fields = ("source",)
    inlines = [StepInline]

    def problems(self, obj: Any, formsets: list[Any]) -> list[str]:
        forms = sorted(_live_forms(formsets[0]), key=lambda form: form.instance.order)
        steps = [step_from_model(form.instance) for form in forms]
        return [str(p) for p in validate_lesson(lesson_from_model(obj, steps)).problems]


class ScriptLineInline(TranslationTabularInline):
    model = ScriptLine
    formset = ValidatedFormSet
    extra = 0
    fields = ("order", "caption")


class WrongMoveInline(TranslationStackedInline):
    model = WrongMove
    formset = ValidatedFormSet
    extra = 0
    fields = ("move", "text")


class ChoiceInline(TranslationStackedInline):
    model = Choice
    formset = ValidatedFormSet
    extra = 0
    fields = ("order", "text", "explain", "correct", "engine_check")


@admin.register(Step)
class StepAdmin(ValidatingAdmin):
    list_display = ("__str__", "lesson", "order", "kind")
    list_filter = ("kind", "lesson__category")
    search_fields = ("lesson__slug",)
    inlines = [ScriptLineInline, WrongMoveInline, ChoiceInline]

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        # A new lesson version: visitors' saved answers for the old one are set aside.
        obj.lesson.save(update_fields=["updated"])

    def problems(self, obj: Any, formsets: list[Any]) -> list[str]:
        by_model = {fs.model: [form.instance for form in _live_forms(fs)] for fs in formsets}
        this = step_from_model(
            obj,
            script_lines=by_model.get(ScriptLine, []),
            wrong_moves=by_model.get(WrongMove, []),
            choices=by_model.get(Choice, []),
        )
        lesson = obj.lesson
        others = [s for s in lesson.steps.all() if s.pk != obj.pk] if lesson.pk else []
        ordered: list[tuple[int, int, StepSpec]] = [
            (s.order, s.pk or 0, step_from_model(s)) for s in others
        ]
        ordered.append((obj.order, obj.pk or 10**9, this))
        ordered.sort(key=lambda item: (item[0], item[1]))
        index = next(i for i, item in enumerate(ordered) if item[2] is this)
        spec: LessonSpec = lesson_from_model(lesson, [item[2] for item in ordered])
        return [str(p) for p in validate_lesson(spec).problems if p.step == index]


@admin.register(Progress)
class ProgressAdmin(admin.ModelAdmin):
    list_display = (
        "lesson",
        "user",
        "session_token",
        "step_index",
        "stars",
        "completed",
        "updated",
    )
    list_filter = ("completed", "lesson__category")
    readonly_fields = ("updated",)


@admin.register(PlayerPuzzle)
class PlayerPuzzleAdmin(admin.ModelAdmin):
    """Moderation: a puzzle made from a player's game is listed in the tutor only once
    approved here (it was validated by the engine and the solver when it was made). One
    found by the miner in finished games (``manage.py mine_player_games``) has no page at
    all before that: approving it makes it a live rated puzzle, withdrawing or rejecting it
    takes it off again (a rejected one is purged after PURGE_REJECTED_PUZZLES_DAYS)."""

    list_display = (
        "__str__",
        "approved",
        "rejected",
        "mined_summary",
        "game_id",
        "action_index",
        "created",
    )
    list_filter = ("approved", "rejected")
    readonly_fields = (
        "lesson",
        "game_id",
        "action_index",
        "mined_summary",
        "record",
        "created",
        "decided",
    )
    fields = ("approved", "rejected", *readonly_fields)
    actions = ("approve", "withdraw", "reject")

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        """The form's switches do what the actions do (a mined candidate goes live only
        through :func:`tutorials.mine_games.publish`)."""
        if obj.record is None or not change:
            super().save_model(request, obj, form, change)
            return
        from .mine_games import publish, withdraw

        if obj.approved:
            publish(obj)
        elif "approved" in form.changed_data or "rejected" in form.changed_data:
            withdraw(obj, reject=obj.rejected)

    @admin.display(description=_("puzzle"))
    def mined_summary(self, obj: PlayerPuzzle) -> str:
        record = obj.record or {}
        if not record:
            return ""
        hands = " | ".join(record["table"]["hands"])
        themes = ", ".join(record.get("themes", []))
        parts = (record["preset"], hands, record["solution"], themes, str(record["rating"]))
        return " · ".join(parts)

    @admin.action(description=_("Approve: list in the tutor"))
    def approve(self, request: HttpRequest, queryset: Any) -> None:
        from .mine_games import publish

        for candidate in queryset:
            if candidate.record is not None:
                publish(candidate)
        queryset.filter(record__isnull=True).update(approved=True, rejected=False)

    @admin.action(description=_("Withdraw from the tutor's list"))
    def withdraw(self, request: HttpRequest, queryset: Any) -> None:
        from .mine_games import withdraw

        for candidate in queryset.filter(record__isnull=False):
            withdraw(candidate)
        queryset.filter(record__isnull=True).update(approved=False)

    @admin.action(description=_("Reject (deleted by the next purge)"))
    def reject(self, request: HttpRequest, queryset: Any) -> None:
        from .mine_games import withdraw

        for candidate in queryset.filter(record__isnull=False):
            withdraw(candidate, reject=True)
