"""The admin of the rules reference: tabs per language, lists, previews, engine validation."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from daifugo_site.pages.models import (
    Example,
    FAQEntry,
    GlossaryTerm,
    RuleOption,
    RuleSection,
)

MODELS = [RuleSection, Example, RuleOption, FAQEntry, GlossaryTerm]


@pytest.fixture
def admin_client_logged_in(client: Client, content: None) -> Client:
    user = get_user_model().objects.create_superuser("editor", "editor@example.com", "pw")
    client.force_login(user)
    return client


@pytest.mark.parametrize("model", MODELS, ids=lambda model: model.__name__)
def test_changelist_and_change_form_render(admin_client_logged_in: Client, model: type) -> None:
    name = model._meta.model_name
    response = admin_client_logged_in.get(f"/admin/pages/{name}/?q=a")
    assert response.status_code == 200
    row = model._default_manager.first()
    response = admin_client_logged_in.get(f"/admin/pages/{name}/{row.pk}/change/")
    assert response.status_code == 200
    html = response.content.decode()
    # modeltranslation's tabbed admin: one field per language.
    assert "_zh_hans" in html and "_ja" in html
    # "View on site" previews the row on its page.
    assert "/r/" in html


def test_section_list_links_to_a_preview(admin_client_logged_in: Client) -> None:
    html = admin_client_logged_in.get("/admin/pages/rulesection/").content.decode()
    assert "/rules/eight-cut/" in html


def test_example_admin_refuses_a_scenario_the_engine_rejects(
    admin_client_logged_in: Client,
) -> None:
    example = Example.objects.get(slug="eight-cut-single")
    scenario = {**example.scenario, "rules": {"preset": "basic"}}
    response = admin_client_logged_in.post(
        f"/admin/pages/example/{example.pk}/change/",
        {
            "slug": example.slug,
            "section": example.section_id or "",
            "caption_zh_hans": example.caption_zh_hans,
            "caption_ja": example.caption_ja,
            "scenario": json.dumps(scenario),
            "order": example.order,
        },
    )
    assert response.status_code == 200  # the form again, with the error
    assert "errorlist" in response.content.decode()
    example.refresh_from_db()
    assert example.scenario["rules"] != {"preset": "basic"}


def test_saving_an_example_rerenders_the_sections_that_show_it(
    admin_client_logged_in: Client,
) -> None:
    example = Example.objects.get(slug="eight-cut-single")
    response = admin_client_logged_in.post(
        f"/admin/pages/example/{example.pk}/change/",
        {
            "slug": example.slug,
            "section": example.section_id or "",
            "caption_zh_hans": "新的说明文字。",
            "caption_ja": "新しい説明文です。",
            "scenario": json.dumps(example.scenario),
            "order": example.order,
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    section = RuleSection.objects.get(slug="eight-cut")
    assert "新しい説明文です。" in section.body_html_ja
    assert "新的说明文字。" in section.body_html_zh_hans
