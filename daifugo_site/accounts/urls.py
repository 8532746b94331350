from django.urls import path

from . import views

app_name = "accounts"

# Mounted inside i18n_patterns, before allauth's routes under the same prefix.
urlpatterns = [
    path("profile/", views.profile, name="profile"),
    path("games/<str:game_id>/", views.game_replay, name="replay"),
]
