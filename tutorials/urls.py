from django.urls import path

from . import puzzle_views, views

app_name = "tutorials"

# Mounted inside i18n_patterns at learn/: /zh-hans/learn/…, /ja/learn/….
urlpatterns = [
    path("", views.index, name="index"),
    path("puzzles/", puzzle_views.hub, name="puzzles"),
    path("puzzles/next/", puzzle_views.next_puzzle, name="puzzle_next"),
    path("puzzles/daily/", puzzle_views.daily, name="puzzle_daily"),
    path("puzzles/dashboard/", puzzle_views.dashboard, name="puzzle_dashboard"),
    path("<slug:slug>/", views.lesson, name="lesson"),
    path("<slug:slug>/act/", views.act, name="act"),
]
