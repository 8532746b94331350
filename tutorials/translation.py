"""modeltranslation: every text of a lesson exists in zh-hans and ja.

Which step texts are required depends on the step's kind, so completeness is checked by
:mod:`tutorials.validation` (admin save, ``check_lessons``, the loader), not here; only the
lesson title is required in both languages at the database level.
"""

from __future__ import annotations

from django.conf import settings
from modeltranslation.translator import TranslationOptions, register

from .models import Choice, Lesson, ScriptLine, Step, WrongMove

LANGUAGES: tuple[str, ...] = tuple(code for code, _name in settings.LANGUAGES)


@register(Lesson)
class LessonTranslation(TranslationOptions):
    fields = ("title", "summary")
    required_languages = {language: ("title",) for language in LANGUAGES}


@register(Step)
class StepTranslation(TranslationOptions):
    fields = ("text", "prompt", "question", "hint1", "hint2", "right", "other")


@register(ScriptLine)
class ScriptLineTranslation(TranslationOptions):
    fields = ("caption",)


@register(WrongMove)
class WrongMoveTranslation(TranslationOptions):
    fields = ("text",)


@register(Choice)
class ChoiceTranslation(TranslationOptions):
    fields = ("text", "explain")
