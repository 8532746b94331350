"""Issue 38, section 3: the rating chart has axes and labels (it was a bare line), on the
profile and in the rated lobby."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from daifugo_site.rated import services

from .test_rated import new_rated_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(
    ("lang", "rating", "games"), [("ja", "レーティング", "対戦数"), ("zh-hans", "等级分", "对局数")]
)
@pytest.mark.parametrize("path", ["/accounts/profile/", "/rated/"])
def test_the_rating_chart_has_axes_and_labels(
    lang: str, rating: str, games: str, path: str
) -> None:
    rated, key_a, _key_b = new_rated_game()
    assert services.resign(rated.game_id, rated.seat1)
    client = Client()
    client.cookies["sessionid"] = key_a
    page = client.get(f"/{lang}{path}").content.decode()
    found = re.search(r'<figure class="rating-chart".*?</figure>', page, re.S)
    assert found, "a chart"
    chart = found.group(0)
    assert 'data-axis="x"' in chart and 'data-axis="y"' in chart
    texts = [re.sub(r"\s+", " ", t).strip() for t in re.findall(r"<text[^>]*>(.*?)</text>", chart)]
    assert rating in texts and games in texts
    assert "1500" in texts  # the starting rating, at one end of the axis
    assert any(t.isdigit() and t != "1500" for t in texts)  # the other end
