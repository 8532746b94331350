from django.apps import AppConfig


class UiConfig(AppConfig):
    """Shared UI pieces: the card component and the layout's template tags."""

    name = "daifugo_site.ui"
    label = "ui"

    def ready(self) -> None:
        # The card component and the table's helpers, for the Jinja2 fragments too
        # (daifugo_site/ui/jinja.py): the same functions the Django tags call.
        from . import jinja
        from .templatetags import cards, site, table

        jinja.register("card", cards.card_html)
        jinja.register("cards", cards.cards_html)
        jinja.register("backs", table.backs)
        jinja.register("seat_places", table.seat_places)
        jinja.register("previous_play", table.previous_play)
        jinja.register("list_text", site.list_text)
