from django.contrib import admin

from .models import Game


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "players", "rounds", "status", "version", "updated")
    list_filter = ("status", "players")
    search_fields = ("id",)
    readonly_fields = ("id", "created", "updated", "actions", "version", "scores", "seed")
