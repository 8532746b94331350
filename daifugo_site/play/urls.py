from django.urls import path

from . import views

app_name = "play"

# Mounted inside i18n_patterns: /zh-hans/play/… and /ja/play/….
urlpatterns = [
    path("", views.index, name="index"),
    path("<str:game_id>/", views.game, name="game"),
    path("<str:game_id>/again/", views.again, name="again"),
    path("<str:game_id>/resume/<str:token>/", views.resume, name="resume"),
]
