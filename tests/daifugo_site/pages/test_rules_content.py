"""The rules reference's content: complete in both languages, checked by the engine, loadable."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from modeltranslation.translator import translator

from daifugo_site.pages import loader
from daifugo_site.pages.models import (
    OPTION_NAMES,
    Example,
    FAQEntry,
    GlossaryTerm,
    RuleOption,
    RuleOptionValue,
    RuleSection,
)
from daifugo_site.pages.translation import LANGUAGES, language_fields
from rules_engine import PRESET_NAMES, RuleSet
from rules_engine.rules import (
    EIGHT_CUT_VALUES,
    FORBIDDEN_FINISH_ENTRIES,
    HOUSE_OPTIONS,
    HOUSE_VALUES,
    JBACK_VALUES,
)
from rules_engine.scenarios import run_scenario

CONTENT = loader.CONTENT_DIR
MODELS = [RuleSection, Example, RuleOption, RuleOptionValue, FAQEntry, GlossaryTerm]


def _examples_toml() -> list[dict[str, object]]:
    with (CONTENT / "examples.toml").open("rb") as handle:
        return tomllib.load(handle)["examples"]


@pytest.mark.parametrize("entry", _examples_toml(), ids=lambda entry: str(entry["slug"]))
def test_every_example_scenario_passes_through_the_engine(entry: dict[str, object]) -> None:
    scenario = json.loads((CONTENT / str(entry["scenario"])).read_text(encoding="utf-8"))
    result = run_scenario(scenario)
    assert result.ok, f"step {result.step}: {result.message}"


def test_every_scenario_file_is_used_by_an_example() -> None:
    used = {Path(str(entry["scenario"])).name for entry in _examples_toml()}
    assert used == {path.name for path in (CONTENT / "examples").glob("*.json")}


def test_every_stored_example_passes_through_the_engine(content: None) -> None:
    examples = list(Example.objects.all())
    assert len(examples) == len(_examples_toml())
    for example in examples:
        result = run_scenario(example.scenario)
        assert result.ok, f"{example.slug} step {result.step}: {result.message}"
        assert example.section is not None, f"{example.slug} is shown by no section"


@pytest.mark.parametrize("model", MODELS, ids=lambda model: model.__name__)
def test_every_translatable_field_is_filled_in_both_languages(content: None, model: type) -> None:
    fields = translator.get_options_for_model(model).fields
    rows = list(model._default_manager.all())
    assert rows, f"no {model.__name__} loaded"
    empty = [
        f"{model.__name__} {row.pk}: {name}"
        for row in rows
        for field in fields
        for name, _language in language_fields(field)
        if not (getattr(row, name) or "").strip()
    ]
    assert empty == []


def test_the_two_languages_are_written_separately(content: None) -> None:
    # The same body in both languages would mean one was never translated.
    for section in RuleSection.objects.all():
        assert section.body_zh_hans != section.body_ja, section.slug
        assert section.title_zh_hans and section.title_ja
    for entry in FAQEntry.objects.all():
        assert entry.answer_zh_hans != entry.answer_ja, entry.order


def test_enough_content(content: None) -> None:
    assert FAQEntry.objects.count() >= 12
    assert GlossaryTerm.objects.count() >= 20
    slugs = set(RuleSection.objects.values_list("slug", flat=True))
    local_rules = {
        "revolution", "eight-cut", "eleven-back", "suit-lock", "number-lock",
        "spade-3-return", "illegal-finish", "miyako-ochi", "pass-until-clear",
        "house-rules", "seven-pass", "ten-discard", "twelve-bomber", "five-skip",
        "nine-reverse", "sandstorm",
    }  # fmt: skip
    assert local_rules <= slugs


def test_one_description_per_rule_option(content: None) -> None:
    options = {option.name: option for option in RuleOption.objects.select_related("section")}
    assert set(options) == set(OPTION_NAMES)
    for name, option in options.items():
        assert name in option.section.options, f"{name} not listed by {option.section.slug}"


def test_value_labels_cover_every_named_value(content: None) -> None:
    expected = {
        "eight_cut": set(EIGHT_CUT_VALUES),
        "jback": set(JBACK_VALUES),
        "forbidden_finish": set(FORBIDDEN_FINISH_ENTRIES),
        "sequence_beats": {"above_top", "above_bottom"},
        **{name: set(HOUSE_VALUES) for name in HOUSE_OPTIONS},
    }
    options = {option.name: option for option in RuleOption.objects.all()}
    for name, values in expected.items():
        labels = options[name].value_labels()
        assert set(labels) == values, name
        assert all(labels.values())


@pytest.mark.parametrize("name", [*HOUSE_OPTIONS, "sandstorm"])
def test_every_house_option_has_a_rules_section_in_both_languages(content: None, name: str) -> None:
    """Issue 40: each house rule of RULES.md section 8 has its own section, written in both
    languages, that names the rule by its option label and shows an engine-checked example."""
    option = RuleOption.objects.select_related("section").get(name=name)
    section = option.section
    assert section.group == RuleSection.Group.LOCAL_RULES
    assert section.options == [name]  # its own section, not a paragraph of another
    examples = set(Example.objects.filter(section=section).values_list("slug", flat=True))
    assert examples, f"{section.slug} shows no example"
    for suffix in ("zh_hans", "ja"):
        label = getattr(option, f"label_{suffix}")
        assert label and getattr(section, f"title_{suffix}") == label
        body = getattr(section, f"body_{suffix}")
        assert name in body  # the option's own name, as the options table shows it
        for slug in examples:
            assert f"[[example: {slug}]]" in body, (suffix, slug)
    assert section.body_zh_hans != section.body_ja


def test_the_house_rules_overview_shows_the_order_of_resolution(content: None) -> None:
    section = RuleSection.objects.get(slug="house-rules")
    for slug in ("house-give-then-cut", "house-reverse-then-give"):
        assert Example.objects.get(slug=slug).section == section
    for suffix in ("zh_hans", "ja"):
        body = getattr(section, f"body_{suffix}")
        for name in (*HOUSE_OPTIONS, "sandstorm"):
            label = getattr(RuleOption.objects.get(name=name), f"label_{suffix}")
            assert label in body, (suffix, label)


def test_value_labels_follow_the_active_language(content: None) -> None:
    from django.utils import translation

    option = RuleOption.objects.get(name="eight_cut")
    with translation.override("ja"):
        ja = option.value_labels()
    with translation.override("zh-hans"):
        zh = option.value_labels()
    assert ja["off"] == "なし"
    assert zh["off"] == "不采用"


def test_value_labels_are_prefetched(
    content: None, django_assert_num_queries: pytest.FixtureRequest
) -> None:
    with django_assert_num_queries(2):  # type: ignore[operator]
        options = list(RuleOption.objects.select_related("section"))
        for option in options:
            option.value_labels()
            option.section.get_absolute_url()


def test_loading_twice_changes_nothing(content: None) -> None:
    def snapshot() -> dict[str, list[tuple[object, ...]]]:
        return {
            model.__name__: sorted(map(repr, model._default_manager.values_list()))
            for model in MODELS
        }

    before = snapshot()
    summary = loader.load()
    assert "0 created, 0 updated, 0 deleted" in summary
    assert snapshot() == before


def test_loader_deletes_rows_whose_entry_vanished(content: None, tmp_path: Path) -> None:
    import shutil

    copy = tmp_path / "content"
    shutil.copytree(CONTENT, copy)
    glossary = (copy / "glossary.toml").read_text(encoding="utf-8")
    first, _sep, rest = glossary.partition('slug = "daifugo"')
    # Drop the first term (the entry from its [[terms]] header to the next header).
    head, _header, _ = first.rpartition("[[terms]]")
    remainder = rest[rest.index("[[terms]]") :]
    (copy / "glossary.toml").write_text(head + remainder, encoding="utf-8")
    loader.load(copy)
    assert not GlossaryTerm.objects.filter(slug="daifugo").exists()
    assert GlossaryTerm.objects.filter(slug="daihinmin").exists()


def test_loader_refuses_a_failing_example(content: None, tmp_path: Path) -> None:
    import shutil

    copy = tmp_path / "content"
    shutil.copytree(CONTENT, copy)
    path = copy / "examples" / "eight-cut-single.json"
    scenario = json.loads(path.read_text(encoding="utf-8"))
    scenario["rules"] = {"preset": "basic"}  # no 8-cut: its expectations no longer hold
    path.write_text(json.dumps(scenario), encoding="utf-8")
    with pytest.raises(loader.ContentError, match="eight-cut-single"):
        loader.load(copy)


def test_management_command_loads_the_pages_app(content: None) -> None:
    from io import StringIO

    out = StringIO()
    call_command("load_site_content", "--app", "pages", stdout=out)
    assert out.getvalue().startswith("pages: ")
    assert "rule sections" in out.getvalue()


def test_example_clean_refuses_a_scenario_the_engine_rejects(content: None) -> None:
    example = Example.objects.get(slug="eight-cut-single")
    example.scenario = {**example.scenario, "rules": {"preset": "basic"}}
    with pytest.raises(ValidationError) as info:
        example.full_clean()
    assert "scenario" in info.value.message_dict


def test_section_clean_refuses_unknown_shortcodes(content: None) -> None:
    section = RuleSection.objects.get(slug="eight-cut")
    section.body_ja = section.body_ja + "\n\n[[cards: S1]]\n"
    with pytest.raises(ValidationError) as info:
        section.full_clean()
    assert "body_ja" in info.value.message_dict
    section.refresh_from_db()
    section.body_zh_hans += "\n\n[[example: no-such-example]]\n"
    with pytest.raises(ValidationError):
        section.full_clean()


def test_presets_exist_for_the_table() -> None:
    # The presets page is generated from these: they must all build.
    for name in PRESET_NAMES:
        assert RuleSet.preset(name).preset_name == name
    assert set(LANGUAGES) == {"zh-hans", "ja"}


def test_the_house_preset_is_what_the_reference_says_it_adds() -> None:
    """The house-rules section, the presets' background and the FAQ say: standard plus
    11-back (groups) and 7-pass, 10-discard, 5-skip, 9-reverse (groups); 12-bomber and the
    sandstorm in no preset."""
    import dataclasses

    house, standard = RuleSet.preset("house"), RuleSet.preset("standard")
    changed = {
        f.name: getattr(house, f.name)
        for f in dataclasses.fields(RuleSet)
        if f.name not in {"preset_name", "ff_mask"}
        and getattr(house, f.name) != getattr(standard, f.name)
    }
    assert changed == {
        "jback": "groups",
        "seven_pass": "groups",
        "ten_discard": "groups",
        "five_skip": "groups",
        "nine_reverse": "groups",
    }
    assert house.twelve_bomber == "off" and not house.sandstorm
    for name in (n for n in PRESET_NAMES if n != "house"):
        preset = RuleSet.preset(name)
        assert preset.twelve_bomber == "off" and not preset.sandstorm
        assert all(getattr(preset, option) == "off" for option in HOUSE_OPTIONS)
