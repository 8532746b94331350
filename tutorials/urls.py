from django.urls import path

from . import views

app_name = "tutorials"

# Mounted inside i18n_patterns at learn/: /zh-hans/learn/…, /ja/learn/….
urlpatterns = [
    path("", views.index, name="index"),
    path("<slug:slug>/", views.lesson, name="lesson"),
    path("<slug:slug>/act/", views.act, name="act"),
]
