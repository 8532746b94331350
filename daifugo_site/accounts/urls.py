from django.urls import path

from . import views

app_name = "accounts"

# Mounted inside i18n_patterns, before allauth's routes under the same prefix.
urlpatterns = [
    path("profile/", views.profile, name="profile"),
    path("games/<str:game_id>/", views.game_replay, name="replay"),
    path("statistics/switch/", views.statistics_switch, name="statistics_switch"),
    path("statistics/", views.site_statistics, name="statistics"),
]
