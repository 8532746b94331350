"""Feedback for every refusal reason of the engine is a translated sentence in both
languages, and the tutor shows it for a refused move."""

from __future__ import annotations

import pytest
from django.utils import translation

from daifugo_site.ui.reasons import REASON_TEXT, reason_text
from rules_engine import REASONS


@pytest.mark.parametrize("lang", ["zh-hans", "ja"])
@pytest.mark.parametrize("reason", REASONS)
def test_every_refusal_reason_is_translated(reason: str, lang: str) -> None:
    with translation.override("en"):
        english = str(REASON_TEXT[reason])
    with translation.override(lang):
        text = reason_text(reason)
    assert text and text != english


@pytest.mark.parametrize("lang", ["zh-hans", "ja"])
def test_the_tutor_shows_the_reason(client: object, loaded: None, lang: str) -> None:
    from tests.tutorials.helpers import act, feedback_text, read

    read(client, "tutor-test-basics", 2, lang)  # type: ignore[arg-type]
    html = act(client, "tutor-test-basics", "answer", lang=lang, card=["S4"]).content.decode()  # type: ignore[arg-type]
    with translation.override(lang):
        assert reason_text("not_stronger") in feedback_text(html)
