"""The tutor's pages: the lesson list, stepping through a lesson with right and wrong
answers, hints, retry, reset, progress that persists, and plain (no-JS) form posts."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

from daifugo_site.ui.reasons import reason_text
from tests.html import find_all, find_one
from tests.tutorials.conftest import LESSON, PUZZLE
from tests.tutorials.helpers import (
    act,
    current,
    feedback_text,
    lesson_url,
    progress,
    read,
    step_kind,
    step_state,
)
from tutorials.models import Progress

pytestmark = pytest.mark.usefixtures("loaded")


def zh(text: str) -> str:
    with translation.override("zh-hans"):
        return str(translation.gettext(text))


def test_index_lists_lessons_and_puzzles_by_category(client: Client) -> None:
    response = client.get("/zh-hans/learn/")
    assert response.status_code == 200
    html = response.content.decode()
    link = find_one(html, "a", data_lesson=LESSON)
    assert link.get("href") == lesson_url(LESSON) and "测试课：压牌" in link.text
    assert find_one(html, "a", data_puzzle=PUZZLE).get("href") == lesson_url(PUZZLE)
    assert [s.get("data-category") for s in find_all(html, "section")] == ["basics", "puzzles"]
    # Japanese titles on the Japanese page.
    html = client.get("/ja/learn/").content.decode()
    assert "テスト：上から出す" in find_one(html, "a", data_lesson=LESSON).text


def test_nav_learn_link_resolves(client: Client) -> None:
    html = client.get("/zh-hans/").content.decode()
    assert find_one(html, "a", data_section="learn").get("href") == "/zh-hans/learn/"


def test_unknown_lesson_is_404(client: Client) -> None:
    assert client.get(lesson_url("no-such-lesson")).status_code == 404


def test_step_through_a_lesson_with_right_and_wrong_answers(client: Client) -> None:
    html = client.get(lesson_url(LESSON)).content.decode()
    assert step_kind(html) == "explain"
    assert find_all(html, "span", data_card="S3")  # the [[cards: S3 H4]] shortcode
    assert find_one(html, "button", data_action="next").get("disabled") is None

    # Watch: Next stays disabled until every scripted play was shown.
    html = act(client, LESSON, "next").content.decode()
    assert step_kind(html) == "watch"
    assert current(client, LESSON).step_index == 1
    html = act(client, LESSON, "advance").content.decode()
    assert "1号玩家领出♦5。" in html
    assert find_one(html, "button", data_action="next").get("disabled") == ""
    html = act(client, LESSON, "advance").content.decode()
    assert "2号玩家用♥7压上。" in html
    assert find_one(html, "button", data_action="next").get("disabled") is None
    assert find_all(html, "span", data_card="H7")  # the 7 is on the field now

    # Play: an illegal move gets the engine's reason, a legal wrong one the lesson's words.
    act(client, LESSON, "next")
    response = act(client, LESSON, "answer", card=["S4"])
    assert reason_text("not_stronger") in feedback_text(response.content.decode())
    assert step_state(client, LESSON, 2)["tries"] == 1
    response = act(client, LESSON, "pass")
    assert "过牌可以，但这一步要你压住♥9。" in feedback_text(response.content.decode())
    html = act(client, LESSON, "answer").content.decode()  # nothing selected
    assert feedback_text(html) and not step_state(client, LESSON, 2).get("done")
    html = act(client, LESSON, "answer", card=["DK"]).content.decode()
    assert "♦K 比♥9 大。" in feedback_text(html)
    assert find_one(html, "section", data_kind="play").get("data-done") == "true"
    assert find_one(html, "button", data_action="next").get("data-autofocus") == ""

    # Choose: a wrong choice explains itself, the right one ends the step.
    act(client, LESSON, "next")
    html = act(client, LESSON, "answer", choice="0").content.decode()
    assert "1号玩家刚才出过了。" in feedback_text(html)
    html = act(client, LESSON, "answer", choice="1").content.decode()
    assert "3号玩家之后轮到你。" in feedback_text(html)

    # Legal quiz: missing plays are counted, impossible ones get the engine's reason.
    act(client, LESSON, "next")
    html = client.get(lesson_url(LESSON)).content.decode()
    offered = [e.get("value") for e in find_all(html, "input", name="moves")]
    assert {"pass", "S9 H9", "D6 C6", "CK", "S9 H9 D6 C6"} - set(offered) == {"S9 H9 D6 C6"}
    html = act(client, LESSON, "answer", moves=["pass", "D6 C6"]).content.decode()
    text = feedback_text(html)
    assert reason_text("not_stronger") in text and "1" in text
    html = act(client, LESSON, "answer", moves=["pass", "S9 H9", "CK"]).content.decode()
    assert reason_text("wrong_form") in feedback_text(html)
    html = act(client, LESSON, "answer", moves=["pass", "S9 H9"]).content.decode()
    assert "只有一对9比一对7大。" in feedback_text(html)

    # The end: completed, stars, and a link to play the same rules.
    html = act(client, LESSON, "next").content.decode()
    assert find_one(html, "section", data_step="end")
    assert find_one(html, "a", data_action="play-these-rules").get("href") == (
        "/zh-hans/play/?preset=basic"
    )
    row = current(client, LESSON)
    assert row.completed and row.step_index == 5 and row.stars == 3
    index = client.get("/zh-hans/learn/").content.decode()
    assert find_one(index, "span", data_stars="3")


def test_next_is_refused_until_the_step_is_answered(client: Client) -> None:
    read(client, LESSON, 2)
    act(client, LESSON, "next")
    assert current(client, LESSON).step_index == 2
    act(client, LESSON, "answer", card=["DK"])
    act(client, LESSON, "next")
    assert current(client, LESSON).step_index == 3
    act(client, LESSON, "prev")
    assert current(client, LESSON).step_index == 2


def test_hints_cost_stars_in_two_stages(client: Client) -> None:
    read(client, LESSON, 2)
    html = act(client, LESSON, "hint").content.decode()
    assert "出一张比9大的单张。" in html and "你的♦K。" not in html
    assert find_one(html, "div", data_hint="1").get("data-autofocus") == ""
    html = act(client, LESSON, "hint").content.decode()
    assert "你的♦K。" in html
    assert not find_all(html, "button", data_action="hint")  # no third stage
    act(client, LESSON, "hint")
    row = current(client, LESSON)
    assert (row.hints_used, row.stars) == (2, 1)


def test_retry_resets_the_step_only(client: Client) -> None:
    read(client, LESSON, 1)
    act(client, LESSON, "advance")
    act(client, LESSON, "advance")
    act(client, LESSON, "next")
    act(client, LESSON, "hint")
    act(client, LESSON, "answer", card=["DK"])
    assert step_state(client, LESSON, 2)["done"]
    html = act(client, LESSON, "retry").content.decode()
    state = step_state(client, LESSON, 2)
    assert not state.get("done") and "feedback" not in state and "answer" not in state
    assert state["hint"] == 1  # the hint was paid for
    assert step_state(client, LESSON, 1)["shown"] == 2  # other steps untouched
    assert current(client, LESSON).step_index == 2
    assert find_all(html, "button", data_action="play")  # the hand is playable again


def test_reset_asks_for_confirmation(client: Client) -> None:
    read(client, LESSON, 2)
    act(client, LESSON, "hint")
    act(client, LESSON, "reset")  # without the confirmation field: nothing happens
    assert current(client, LESSON).step_index == 2
    html = client.get(lesson_url(LESSON)).content.decode()
    assert find_one(html, "button", data_action="reset")  # inside a <details> confirmation
    html = act(client, LESSON, "reset", confirm="yes").content.decode()
    row = current(client, LESSON)
    assert (row.step_index, row.stars, row.completed) == (0, 3, False)
    assert row.state["steps"].keys() <= {"0"}
    assert step_kind(html) == "explain"


def test_progress_persists_across_requests_and_language_change(client: Client) -> None:
    read(client, LESSON, 2)
    act(client, LESSON, "pass")
    # A new request in Japanese: same step, and the feedback in Japanese.
    html = client.get(lesson_url(LESSON, "ja")).content.decode()
    assert step_kind(html) == "play"
    assert "パスもできますが、ここでは♥9を上回りましょう。" in feedback_text(html)
    html = act(client, LESSON, "answer", lang="ja", card=["DK"]).content.decode()
    assert "♦Kは♥9より強い。" in feedback_text(html)
    assert Progress.objects.count() == 1
    index = client.get("/ja/learn/").content.decode()
    assert find_one(index, "p", data_progress="started")


def test_progress_is_per_visitor(client: Client) -> None:
    read(client, LESSON, 2)
    act(client, LESSON, "pass")  # progress starts with a visitor's first action
    other = Client()
    html = read(other, LESSON).content.decode()
    assert step_kind(html) == "explain"
    act(other, LESSON, "next")
    assert Progress.objects.count() == 2


def test_signed_in_progress_follows_the_user(client: Client) -> None:
    read(client, LESSON, 2)
    act(client, LESSON, "pass")
    user = User.objects.create_user("learner", password="pw-for-tests-only")
    client.force_login(user)  # the session key changes; the tutor token stays
    html = client.get(lesson_url(LESSON)).content.decode()
    assert step_kind(html) == "play"
    assert Progress.objects.get().user == user
    elsewhere = Client()
    elsewhere.force_login(user)
    assert step_kind(elsewhere.get(lesson_url(LESSON)).content.decode()) == "play"


def test_plain_form_posts_without_javascript(client: Client) -> None:
    html = read(client, LESSON, 2).content.decode()
    form = find_one(html, "form", class_="tutor-answer")
    assert form.get("method") == "post" and form.get("action") == f"{lesson_url(LESSON)}act/"
    # Checkboxes carry the cards when there is no JavaScript to drive the card buttons.
    assert [e.get("value") for e in find_all(html, "input", name="card")] == ["S4", "DK"]
    response = act(client, LESSON, "answer", htmx=False, card=["DK"])
    assert response.status_code == 303
    assert response["Location"] == f"{lesson_url(LESSON)}#tutor"
    html = client.get(response["Location"]).content.decode()
    assert "♦K 比♥9 大。" in feedback_text(html)
    response = act(client, LESSON, "next", htmx=False)
    assert response.status_code == 303 and current(client, LESSON).step_index == 3


def test_htmx_answer_is_a_fragment_with_out_of_band_parts(client: Client) -> None:
    read(client, LESSON, 2)
    html = act(client, LESSON, "pass").content.decode()
    assert "<html" not in html
    assert find_one(html, "section", id="tutor-step")
    assert find_one(html, "div", id="tutor-feedback").get("hx-swap-oob") == "innerHTML"
    assert find_one(html, "div", id="tutor-controls").get("hx-swap-oob") == "true"
    page = client.get(lesson_url(LESSON)).content.decode()
    region = find_one(page, "div", id="tutor-feedback")
    assert region.get("aria-live") == "polite" and region.get("role") == "status"
    form = find_one(page, "form", class_="tutor-answer")
    assert form.get("hx-post") == f"{lesson_url(LESSON)}act/"
    assert form.get("hx-target") == "#tutor-step"
    assert find_all(page, "button", data_card="DK")[0].get("aria-pressed") == "false"


def test_an_action_for_another_step_is_ignored(client: Client) -> None:
    read(client, LESSON, 2)
    act(client, LESSON, "pass")  # the visitor's progress is on step 2 now
    act(client, LESSON, "answer", step=3, choice="1")
    act(client, LESSON, "next", step=1)
    assert current(client, LESSON).step_index == 2
    assert "3" not in current(client, LESSON).state["steps"]


def test_solution_after_two_tries_or_twenty_seconds(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    read(client, LESSON, 2)
    html = act(client, LESSON, "solution").content.decode()
    assert zh("The solution can be shown after two tries or %(seconds)d seconds.") % {
        "seconds": 20
    } in feedback_text(html)
    button = find_one(html, "button", data_action="solution")
    assert button.get("hidden") == "" and 0 < int(button.get("data-reveal-after") or 0) <= 20
    act(client, LESSON, "pass")
    html = act(client, LESSON, "pass").content.decode()
    assert find_one(html, "button", data_action="solution").get("hidden") is None
    html = act(client, LESSON, "solution").content.decode()
    assert [e.get("data-move") for e in find_all(html, "li") if e.get("data-move")] == ["DK"]
    assert current(client, LESSON).stars == 1  # a shown solution costs the step's two stars
    # Time alone is enough too.
    act(client, LESSON, "answer", card=["DK"])
    act(client, LESSON, "next")
    import time as time_module

    later = time_module.time() + 21
    monkeypatch.setattr("tutorials.presenter.time.time", lambda: later)
    html = act(client, LESSON, "solution").content.decode()
    assert "1号玩家" in html and find_all(html, "div", data_solution="")


def test_legal_quiz_solution_ticks_the_legal_set(client: Client) -> None:
    read(client, LESSON, 4)
    act(client, LESSON, "answer", moves=["CK"])
    act(client, LESSON, "answer", moves=["CK"])
    html = act(client, LESSON, "solution").content.decode()
    shown = sorted(e.get("data-move") or "" for e in find_all(html, "li") if e.get("data-move"))
    assert shown == ["S9 H9", "pass"]


def test_review_link_goes_to_a_step(client: Client) -> None:
    html = read(client, LESSON, 3).content.decode()
    assert step_kind(html) == "choose"
    assert progress(client, LESSON) is None  # reading writes nothing
    act(client, LESSON, "answer", choice="0")
    assert current(client, LESSON).step_index == 3
    assert step_kind(client.get(lesson_url(LESSON) + "?step=99").content.decode()) == "end"


def test_a_new_version_of_the_lesson_sets_old_answers_aside(client: Client) -> None:
    from tutorials.models import Lesson

    read(client, LESSON, 2)
    act(client, LESSON, "answer", card=["DK"])
    lesson = Lesson.objects.get(slug=LESSON)
    lesson.save()  # as the loader or the admin does when the lesson changes
    html = client.get(lesson_url(LESSON)).content.decode()
    assert step_kind(html) == "play" and "data-done" not in html.split("tutor-step")[1][:200]
    assert not step_state(client, LESSON, 2).get("done")
