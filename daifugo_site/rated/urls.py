from django.urls import path

from . import views

app_name = "rated"

# Mounted inside i18n_patterns: /zh-hans/rated/… and /ja/rated/….
urlpatterns = [
    path("", views.index, name="index"),
    path("join/", views.join, name="join"),
    path("leave/", views.leave, name="leave"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("<str:game_id>/", views.game, name="game"),
]
