"""Whole journeys, as a person makes them (issue 38, section 4).

Each journey starts with one ``page.goto`` of the home page; after it, only what a person
clicks or taps (a second person, or the same person coming back, opens the room's link as
read from the page, as one copies it). Every page of every journey passes ``check_page``:
no 4xx/5xx response or console error, no Django debug or unstyled page, no Latin word
outside the names the site really shows, no horizontal overflow.

- practice: the set-up form, a one-on-one match to its end, its review, a new game;
- room: created, joined through its link in a second browser, one person drops, the
  computer plays for them, they come back through the link, the next round, the rematch;
- hotseat: one device, the curtain between every turn (``name_hotseat_players`` names
  the players when the form offers it);
- rated: sign up (with the mailed code), the language stays, a rated 1v1 against a second
  account, resign (confirmed), both profiles, the replay.

Each runs in zh-hans and ja, on a phone (390×844, touch) and a desktop (1280×800): all four
in CI (``make browser-tests`` passes ``--journeys-full``). A bare ``pytest -m browser`` runs
the two crossed combinations, (zh-hans, phone) and (ja, desktop); the other two are marked
``journeys_full`` and join with ``--journeys-full``.

The computers play at the set-up form's fastest pace, and every wait is on a condition.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.browser.conftest import (
    COUNT_FRAMES,
    FIRST_FRAME,
    SETTLED,
    WHOLE_IN_VIEW,
    DaphneServer,
    page_problems,
    watch_problems,
)
from tests.browser.test_phone_table import VISIBLE_POINT

pytestmark = pytest.mark.browser

LOCALES = {"zh-hans": "zh-CN", "ja": "ja-JP"}
SIZES: dict[str, dict[str, Any]] = {
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}
COMBINATIONS = [
    pytest.param("zh-hans", "phone", id="zh-phone"),
    pytest.param("ja", "desktop", id="ja-desktop"),
    pytest.param("zh-hans", "desktop", id="zh-desktop", marks=pytest.mark.journeys_full),
    pytest.param("ja", "phone", id="ja-phone", marks=pytest.mark.journeys_full),
]
FASTEST = "300"  # the set-up form's fastest computer pace (ms a move)
MATCH_TIMEOUT = 240.0
PASSWORD = "a long pass phrase 7"
TOUCH = "_journey_touch"

# Latin words the site really shows in both languages: the ranks of the court cards and
# the ace in card names ("黑桃 A", "スペードのK") in the log, the field and the results.
# Anything else in Latin letters is untranslated (brand and lesson names are translated).
ALLOWED_LATIN = {"A", "K", "Q", "J"}
# Not words of the page's language: addresses (the room's link, an e-mail).
NOT_WORDS = re.compile(r"https?://\S+|[\w.+-]+@[\w-]+(\.[\w-]+)+")
LATIN_WORD = re.compile(r"[A-Za-zÀ-ɏ]+")

# Everything check_page needs, in one round trip.
PAGE_FACTS = """() => {
  const skip = '[aria-hidden="true"], [hidden], script, style, noscript, template';
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode, el = node.parentElement;
    if (!el || !node.textContent.trim() || el.closest(skip)) { continue; }
    if (el.closest('select')) { continue; }
    if (!el.checkVisibility({visibilityProperty: true})) { continue; }
    texts.push(node.textContent);
  }
  // A select's options are seen when it opens.
  document.querySelectorAll('select').forEach((select) => {
    if (select.closest(skip) || !select.checkVisibility({visibilityProperty: true})) { return; }
    for (const option of select.options) { texts.push(option.textContent); }
  });
  const root = getComputedStyle(document.documentElement);
  return {
    texts,
    // site.css defines --accent; Django's own error pages have no site header.
    styled: root.getPropertyValue('--accent').trim() !== ''
      && !!document.querySelector('header.site-header'),
    debug: document.body.innerText.includes('DEBUG = True')
      || !!document.querySelector('#traceback, #technical-500, #info + #explanation'),
    lang: document.documentElement.lang,
    width: document.scrollingElement.scrollWidth,
    innerWidth: window.innerWidth,
  };
}"""


def check_page(page: Any, lang: str) -> None:
    """The page a person has in front of them now is a whole, translated page that fits."""
    page.wait_for_load_state("load")
    facts = page.evaluate(PAGE_FACTS)
    where = f"{page.url} ({lang}, {page.viewport_size['width']} px)"
    assert page_problems(page) == [], f"{where}: {page_problems(page)}"
    assert not facts["debug"], f"{where}: a Django debug page"
    assert facts["styled"], f"{where}: the site's stylesheet is not applied"
    assert facts["lang"].lower() == lang, f"{where}: the page is in {facts['lang']}"
    latin = sorted(
        {
            word
            for text in facts["texts"]
            for word in LATIN_WORD.findall(NOT_WORDS.sub(" ", text))
            if word not in ALLOWED_LATIN
        }
    )
    assert latin == [], f"{where}: Latin words on the page: {latin} in " + repr(
        [text.strip() for text in facts["texts"] if LATIN_WORD.search(text)]
    )
    assert facts["width"] <= facts["innerWidth"], (
        f"{where}: the page is {facts['width']} px wide in {facts['innerWidth']}"
    )


def open_browser(new_page: Callable[..., Any], lang: str, size: str) -> Any:
    """A person's own browser (own cookies), in their language, at the journey's size."""
    page = new_page(locale=LOCALES[lang], **SIZES[size])
    setattr(page, TOUCH, size == "phone")
    # Count the socket's frames on every page of this browser (conftest.COUNT_FRAMES).
    page.context.add_init_script(COUNT_FRAMES)
    return page


def press(control: Any, timeout: float | None = None) -> None:
    """A tap on a phone, a click elsewhere."""
    page = control.page
    if getattr(page, TOUCH, False):
        for attempt in range(3):
            try:
                control.scroll_into_view_if_needed(timeout=timeout)
                break
            except PlaywrightError as error:
                # A push swapped the control for its new copy while it was being scrolled
                # to (the hotseat's reveal, under load): the locator finds the new one.
                if "not attached" not in str(error) or attempt == 2:
                    raise
        control.tap(timeout=timeout)
    else:
        control.click(timeout=timeout)


FAN_SETTLED = """() => Promise.all(
  (document.querySelector('[data-hand-fan]')?.getAnimations({subtree: true}) || [])
    .filter((a) => a.effect && a.effect.getComputedTiming().iterations !== Infinity)
    .map((a) => a.finished.catch(() => null)))"""


def choose_card(page: Any, code: str) -> None:
    """Select one card of the hand (one not yet selected: two jokers share a code) as a
    person does: on a phone, a tap on the part of the fanned card that shows; elsewhere a
    click on the card."""
    touch = getattr(page, TOUCH, False)
    cards = page.locator(
        f'[data-hand-fan] [data-fan-card="{code}"]'
        if touch
        else f'#hand button[data-card="{code}"]'
    )
    selected = "is-selected" if touch else "aria-pressed"
    free = [
        cards.nth(i)
        for i in range(cards.count())
        if (
            "is-selected" not in (cards.nth(i).get_attribute("class") or "")
            if touch
            else cards.nth(i).get_attribute("aria-pressed") != "true"
        )
    ]
    assert free, f"no unselected {code} in the hand ({selected})"
    card = free[0]
    if not touch:
        card.click()
        expect(card).to_have_attribute("aria-pressed", "true")
        return
    point = None
    deadline = time.monotonic() + 5
    while point is None and time.monotonic() < deadline:
        # A card still rising or sinking has no fixed place yet: wait for the fan's own
        # transitions (not the whole page's, which is slower and not what a tap needs).
        page.evaluate(FAN_SETTLED)
        point = card.evaluate(VISIBLE_POINT)
    assert point is not None, f"no uncovered part of {code} to tap"
    page.touchscreen.tap(point["x"], point["y"])
    expect(card).to_have_class(re.compile(r"\bis-selected\b"))


# What a table page asks of its person now, in one round trip.
TABLE_STATE = """() => {
  const hand = document.querySelector('[data-testid="hand"]');
  const version = document.querySelector('#table-version');
  const exchange = document.querySelector('[data-testid="exchange"]');
  return {
    version: version ? version.dataset.version : null,
    owe: exchange ? Number(exchange.dataset.owe || 0) : 0,
    turn: !!hand && hand.dataset.yourTurn === 'true',
    legal: hand ? JSON.parse(hand.dataset.legal || '[]') : [],
    over: !!document.querySelector('[data-testid="round-result"]'),
    matchOver: !!document.querySelector('[data-testid="match-over"]'),
    next: !!document.querySelector(
      '#results [data-action="next"], #room-panel [data-action="next"]'),
    curtain: !!document.querySelector('[data-testid="curtain"]'),
    cards: document.querySelectorAll('#hand button[data-card]').length,
  };
}"""


def table_state(page: Any) -> dict[str, Any]:
    state: dict[str, Any] = page.evaluate(TABLE_STATE)
    return state


def make_a_move(page: Any, state: dict[str, Any]) -> bool:
    """Give back the cards owed, or play (the most cards at once, to finish sooner), or
    pass when nothing can be played; whether the move was made.

    Should the move's button (or the two readings' choice) not come up for the cards
    picked, the table is looked at again, as a person would: a new version means it moved
    on under the pick (False: the caller takes the new table); the same one means the page
    lost the pick, which is made once more, then reported."""
    for _attempt in range(2):
        if _try_move(page, state):
            return True
        now = table_state(page)
        if now["version"] != state["version"] or not (now["turn"] or now["owe"]):
            return False
        page.locator('#hand button[data-card][aria-pressed="true"]').evaluate_all(
            "(cards) => cards.forEach((card) => card.click())"
        )
    pytest.fail(f"no move possible at version {state['version']}: {table_state(page)}")


def _try_move(page: Any, state: dict[str, Any]) -> bool:
    if state["owe"]:
        codes = page.eval_on_selector_all(
            "#hand button[data-card]", "els => els.map((e) => e.dataset.card)"
        )
        for code in codes[: state["owe"]]:
            choose_card(page, code)
        return _press_when_enabled(page.locator('[data-action="give"]'))
    legal = state["legal"]
    if not legal:
        press(page.locator('[data-action="pass"]'))
        return True
    plain = [m for m in legal if not m.get("ambiguous")] or legal
    move = max(plain, key=lambda m: len(m["cards"]))
    for code in move["cards"]:
        choose_card(page, code)
    if move.get("ambiguous"):
        shape = page.locator(f'input[name="shape"][value="{move["form"]}"]')
        try:
            expect(shape).to_be_visible(timeout=5_000)
        except AssertionError:
            return False
        press(shape)
    return _press_when_enabled(page.locator('[data-action="play"]'))


def _press_when_enabled(control: Any) -> bool:
    try:
        expect(control).to_be_enabled(timeout=5_000)
    except AssertionError:
        return False
    press(control)
    return True


NEXT_AGAIN_AFTER = 5.0  # seconds: a Next that did nothing is pressed again, as a person does


def take_my_turn(page: Any, acted: dict[Any, Any], key: int) -> bool:
    """One step of ``page``'s person when the table asks for one (a move, the exchange, the
    next round, or lifting the curtain); whether a step was made."""
    state = table_state(page)
    if state["version"] == acted.get(key) and not state["curtain"]:
        return False
    if state["curtain"]:
        press(page.locator('[data-action="reveal"]'))
        expect(page.locator('[data-testid="curtain"]')).to_have_count(0)
        return True
    if state["next"] and not state["matchOver"]:
        if time.monotonic() - acted.get(("next", key), 0.0) < NEXT_AGAIN_AFTER:
            return False
        acted[("next", key)] = time.monotonic()
        button = page.locator(
            '#results [data-action="next"], #room-panel [data-action="next"]'
        ).first
        try:
            press(button, timeout=3_000)
        except PlaywrightError:
            # Someone else at the table started the next round first: the button went.
            if button.count():
                raise
        return True
    if state["owe"] or (state["turn"] and not state["over"]):
        if not make_a_move(page, state):
            return False
    else:
        return False
    acted[key] = state["version"]
    return True


def play_until(pages: list[Any], done: Callable[[], bool], what: str) -> None:
    """Every person at the table takes their turns until ``done``."""
    acted: dict[Any, Any] = {}
    deadline = time.monotonic() + MATCH_TIMEOUT
    while time.monotonic() < deadline:
        if done():
            return
        moved = False
        for key, page in enumerate(pages):
            moved = take_my_turn(page, acted, key) or moved
        if not moved:
            # Nothing to do until the server pushes: wait for the next frame of any table.
            pages[0].wait_for_timeout(100)
    states = []
    for page in pages:
        state = table_state(page)
        state["legal"] = len(state["legal"])
        states.append(f"{page.url}: {state}")
    pytest.fail(f"{what} did not happen in time; the tables: {states}")


def wait_for_table(page: Any) -> None:
    """The table page has its socket's first frame (the whole table)."""
    page.wait_for_function(FIRST_FRAME, timeout=15_000)


def set_up_form(page: Any, table: str, rounds: str | None = None) -> None:
    page.locator('select[name="table"]').select_option(table)
    page.locator('select[name="speed"]').select_option(FASTEST)
    if rounds is not None:
        page.locator('select[name="rounds"]').select_option(rounds)


def go_home(page: Any, server: DaphneServer, lang: str) -> None:
    page.goto(f"{server.url}/{lang}/")
    check_page(page, lang)


def open_play(page: Any, lang: str) -> None:
    press(page.locator('.site-nav a[data-section="play"]'))
    page.wait_for_url(re.compile(rf"/{lang}/play/$"))
    check_page(page, lang)


@pytest.mark.parametrize(("lang", "size"), COMBINATIONS)
def test_practice_to_the_end_review_and_play_again(
    daphne_server: DaphneServer, new_page: Any, lang: str, size: str
) -> None:
    page = open_browser(new_page, lang, size)
    go_home(page, daphne_server, lang)
    open_play(page, lang)
    set_up_form(page, "1v1")
    press(page.locator('[data-action="start"]'))
    page.wait_for_url(re.compile(r"/play/[^/]+/$"))
    wait_for_table(page)
    check_page(page, lang)
    over = page.locator('[data-testid="match-over"]')
    play_until([page], lambda: over.count() > 0, "the end of the match")
    page.evaluate(SETTLED)
    check_page(page, lang)
    game_url = page.url

    press(page.locator('a[data-action="review"]'))
    page.wait_for_url(re.compile(r"/review/"))
    check_page(page, lang)
    press(page.locator('button[data-action="review"]'))
    expect(page.locator('[data-testid="review"]')).to_be_visible(timeout=90_000)
    check_page(page, lang)

    press(page.locator(f'main a[href="{game_url.split(daphne_server.url)[1]}"]'))
    page.wait_for_url(game_url)
    wait_for_table(page)
    check_page(page, lang)
    press(page.locator('[data-action="again"]'))
    page.wait_for_url(lambda url: url != game_url and re.search(r"/play/[^/]+/$", url) is not None)
    wait_for_table(page)
    expect(page.locator("#hand button[data-card]").first).to_be_attached()
    check_page(page, lang)


NAMES = {"zh-hans": ("小明", "小红"), "ja": ("たろう", "はなこ")}


def seat_presence(page: Any, kind: str, seat: int) -> Any:
    return page.locator(f'#room-panel [data-presence="{kind}"][data-seat="{seat}"]')


@pytest.mark.parametrize(("lang", "size"), COMBINATIONS)
def test_a_room_with_a_friend_who_drops_and_comes_back(
    daphne_server: DaphneServer, new_page: Any, lang: str, size: str
) -> None:
    host_name, guest_name = NAMES[lang]
    host = open_browser(new_page, lang, size)
    go_home(host, daphne_server, lang)
    open_play(host, lang)
    # Three at the table (the third a computer), the fewest rounds a match offers.
    set_up_form(host, "3", rounds="3")
    host.locator("#room-nickname").fill(host_name)
    host.locator("#room-drop").select_option("15")  # the shortest wait before a take-over
    press(host.locator('[data-action="create-room"]'))
    host.wait_for_url(re.compile(r"/play/room/[^/]+/$"))
    check_page(host, lang)
    # The link as the page shows it, as a person copies it into a message.
    link = host.locator('[data-testid="room-link"]').inner_text().strip()
    assert f"/{lang}/play/room/" in link

    guest = open_browser(new_page, lang, size)
    guest.goto(link)
    check_page(guest, lang)
    guest.locator("#room-name").fill(guest_name)
    press(guest.locator('[data-testid="room-seats"] [data-action="take-seat"]').first)
    mine = guest.locator('[data-testid="room-seats"] .seat--you')
    expect(mine).to_contain_text(guest_name)
    guest_seat = int(mine.get_attribute("data-seat") or "")
    check_page(guest, lang)
    # The host's page shows the guest by itself (its poll), then the free seat goes to
    # the computer and the game starts; the guest's page follows to the table.
    expect(host.locator('[data-testid="room-seats"]')).to_contain_text(guest_name)
    check_page(host, lang)
    press(host.locator('[data-action="fill-and-start"]'))
    for page in (host, guest):
        page.wait_for_url(re.compile(r"/play/[^/]+/$"), timeout=15_000)
        wait_for_table(page)
        check_page(page, lang)
    # The guest plays a turn, then drops: their browser's page is closed.
    acted: dict[Any, Any] = {}
    deadline = time.monotonic() + MATCH_TIMEOUT
    while not take_my_turn(guest, acted, 1):
        take_my_turn(host, acted, 0)
        assert time.monotonic() < deadline, "the guest never had a turn"
        guest.wait_for_timeout(100)
    guest_browser = guest.context
    guest.close()
    # The host sees them away, then the computer playing for them (the drop time).
    standin = seat_presence(host, "standin", guest_seat)
    play_until([host], lambda: standin.count() > 0, "the computer taking over")
    check_page(host, lang)
    # The computer moves for them: the table goes on past their turns.
    log_size = host.locator("#log-list li").count()
    play_until(
        [host],
        lambda: (
            host.locator("#log-list li").count() > log_size + 2
            or host.locator('[data-testid="round-result"]').count() > 0
        ),
        "a move of the computer for the guest",
    )

    # The guest comes back: their browser again, the room's link again.
    guest = guest_browser.new_page()
    watch_problems(guest)
    setattr(guest, TOUCH, size == "phone")
    guest.goto(link)
    # The room page sends a seated person to the table by itself.
    guest.wait_for_url(re.compile(r"/play/[^/]+/$"), timeout=15_000)
    wait_for_table(guest)
    check_page(guest, lang)
    expect(standin).to_have_count(0, timeout=15_000)

    over = host.locator('[data-testid="round-result"]')
    play_until([host, guest], lambda: over.count() > 0, "the end of the first round")
    check_page(host, lang)
    check_page(guest, lang)
    first_round = host.locator("#table-version").get_attribute("data-version")
    matched = host.locator('[data-testid="match-over"]')
    # The next round: Next pressed, or started by itself when its countdown ran out (on a
    # slow machine that can happen while the guest is on the way back, so the round seen
    # over may already be the last: a match over after more than one round had its next
    # round too).
    play_until(
        [host, guest],
        lambda: (
            matched.count() > 0
            or (
                host.locator("#table-version").get_attribute("data-version") != first_round
                and over.count() == 0
            )
        ),
        "the next round",
    )
    check_page(host, lang)
    check_page(guest, lang)
    play_until(
        [host, guest],
        lambda: matched.count() > 0 and guest.locator('[data-testid="match-over"]').count() > 0,
        "the end of the match",
    )
    for page in (host, guest):
        page.evaluate(SETTLED)
        check_page(page, lang)

    # The rematch: the host starts it, and the guest's page, told so, says it and goes
    # to the new table by itself (it used to stay at the finished game).
    match_url = host.url
    new_match = re.compile(r"/play/[^/]+/$")
    press(host.locator('[data-action="again"]'))
    host.wait_for_url(lambda url: url != match_url and new_match.search(url) is not None)
    guest.wait_for_url(
        lambda url: url != match_url and new_match.search(url) is not None, timeout=15_000
    )
    assert host.url == guest.url
    for page in (host, guest):
        wait_for_table(page)
        expect(page.locator("#hand button[data-card]").first).to_be_attached()
        check_page(page, lang)


def name_hotseat_players(page: Any, names: tuple[str, ...]) -> None:
    """Give the hotseat people their names in the set-up form (one field per person at the
    device, shown once "one device" and the number of people are chosen)."""
    fields = page.locator('[data-testid="room-setup"] [data-testid="person-name"]')
    shown = [fields.nth(i) for i in range(fields.count()) if fields.nth(i).is_visible()]
    assert len(shown) == len(names), f"{len(shown)} name fields for {len(names)} people"
    for field, name in zip(shown, names, strict=True):
        field.fill(name)


@pytest.mark.parametrize(("lang", "size"), COMBINATIONS)
def test_hotseat_on_one_device_behind_the_curtain(
    daphne_server: DaphneServer, new_page: Any, lang: str, size: str
) -> None:
    page = open_browser(new_page, lang, size)
    go_home(page, daphne_server, lang)
    open_play(page, lang)
    set_up_form(page, "1v1")
    page.locator("#room-mode").select_option("hotseat")
    page.locator("#room-humans").select_option("2")
    names = NAMES[lang]
    name_hotseat_players(page, names)
    check_page(page, lang)
    press(page.locator('[data-action="create-room"]'))
    page.wait_for_url(re.compile(r"/play/[^/]+/$"), timeout=15_000)
    wait_for_table(page)

    curtain = page.locator('[data-testid="curtain"]')
    over = page.locator('[data-testid="match-over"]')
    acted: dict[Any, Any] = {}
    curtains: set[str] = set()
    deadline = time.monotonic() + MATCH_TIMEOUT
    while over.count() == 0:
        assert time.monotonic() < deadline, "the hotseat match did not end in time"
        if curtain.count():
            # Curtain down: the hand is not on the page, and the page is whole.
            assert page.locator("#hand [data-card]").count() == 0
            said = curtain.locator("h2").inner_text()
            if said not in curtains:
                curtains.add(said)
                check_page(page, lang)
        if not take_my_turn(page, acted, 0):
            page.wait_for_timeout(100)
    assert len(curtains) == 2, f"the curtain named {curtains}"
    # Each curtain asks for the device to be passed to a person by the name given.
    assert all(any(name in said for said in curtains) for name in names), curtains
    page.evaluate(SETTLED)
    check_page(page, lang)
    # The way on, seen without scrolling (on a phone, at the foot of the result's sheet):
    # the room's page, where the one who made the room plays again with the same seats.
    page.evaluate("window.scrollTo(0, 0)")
    way_on = page.locator('#room-panel a[data-action="room-page"]')
    assert way_on.evaluate(WHOLE_IN_VIEW), "the room's page is not in view at the match's end"
    press(way_on)
    page.wait_for_url(re.compile(r"/room/[^/]+/$"))
    check_page(page, lang)
    expect(page.locator('[data-action="play-again-room"]')).to_be_visible()


def sign_up_as_a_person(page: Any, server: DaphneServer, lang: str, address: str) -> None:
    """The header's sign-up link, the form, the mailed code, the new profile."""
    press(page.locator('[data-action="sign-up"]'))
    page.wait_for_url(re.compile(rf"/{lang}/accounts/signup/"))
    check_page(page, lang)
    page.locator('input[name="email"]').fill(address)
    page.locator('input[name="password1"]').fill(PASSWORD)
    page.locator('input[name="password2"]').fill(PASSWORD)
    press(page.locator('main form button[type="submit"]'))
    code = page.locator('input[name="code"]')
    expect(code).to_be_visible()
    check_page(page, lang)
    code.fill(server.mailed_code(address))
    press(page.locator('main form button[type="submit"]').first)
    page.wait_for_url(re.compile(rf"/{lang}/accounts/profile/"))
    check_page(page, lang)
    expect(page.locator('select[name="language"]')).to_have_value(lang)


def stat(page: Any, name: str) -> str:
    return str(page.locator(f'[data-testid="stats"] [data-stat="{name}"]').inner_text()).strip()


@pytest.mark.parametrize(("lang", "size"), COMBINATIONS)
def test_sign_up_play_rated_resign_profiles_and_replay(
    daphne_server: DaphneServer, new_page: Any, lang: str, size: str
) -> None:
    pages = [open_browser(new_page, lang, size) for _ in range(2)]
    for n, page in enumerate(pages):
        go_home(page, daphne_server, lang)
        sign_up_as_a_person(page, daphne_server, lang, f"journey-{lang}-{size}-{n}@example.com")
    # The language stays through signing out and in again.
    first = pages[0]
    press(first.locator('[data-action="sign-out"]'))
    expect(first.locator('[data-action="sign-in"]')).to_be_visible()
    check_page(first, lang)
    press(first.locator('[data-action="sign-in"]'))
    first.wait_for_url(re.compile(rf"/{lang}/accounts/login/"))
    check_page(first, lang)
    first.locator('input[name="login"]').fill(f"journey-{lang}-{size}-0@example.com")
    first.locator('input[name="password"]').fill(PASSWORD)
    press(first.locator('main form button[type="submit"]').first)
    expect(first.locator('[data-action="sign-out"]')).to_be_attached()
    assert f"/{lang}/" in first.url, first.url
    check_page(first, lang)

    for page in pages:
        press(page.locator('[data-nav="rated"]'))
        page.wait_for_url(re.compile(rf"/{lang}/rated/$"))
        check_page(page, lang)
        press(page.locator('[data-action="queue"]'))
    game_url = re.compile(rf"/{lang}/rated/[A-Za-z0-9_-]+/$")
    for page in pages:
        expect(page).to_have_url(game_url, timeout=15_000)
        expect(page.locator('.table[data-synced="true"]')).to_be_attached(timeout=15_000)
        check_page(page, lang)
    assert pages[0].url == pages[1].url

    # Whoever leads plays a move; the other resigns, and confirms.
    leader = next(p for p in pages if table_state(p)["turn"])
    other = pages[1 - pages.index(leader)]
    version = table_state(other)["version"]
    make_a_move(leader, table_state(leader))
    expect(other.locator("#table-version")).not_to_have_attribute("data-version", version or "")
    press(other.locator('[data-action="resign"]'))
    confirm = other.locator('[data-action="resign-confirm"]')
    expect(confirm).to_be_visible()
    check_page(other, lang)
    press(confirm)
    for page in pages:
        expect(page.locator('[data-testid="rated-result"] h2')).to_be_visible()
        expect(page.locator('[data-testid="rated-result"] [data-action="replay"]')).to_be_visible()
        check_page(page, lang)

    for page, wins, place in ((leader, "1", "1"), (other, "0", "2")):
        press(page.locator('[data-testid="profile-link"]'))
        page.wait_for_url(re.compile(rf"/{lang}/accounts/profile/"))
        check_page(page, lang)
        expect(page.locator('[data-testid="rating"]')).not_to_contain_text("1500 ±")
        assert stat(page, "games") == "1"
        assert stat(page, "wins") == wins
        assert stat(page, "average-place") == place
        press(page.locator('[data-testid="recent-games"] a').first)
        expect(page.locator('[data-testid="replay"]')).to_be_visible()
        check_page(page, lang)
        press(page.locator('[data-action="replay-next"]'))
        check_page(page, lang)


def test_both_jokers_can_be_chosen_on_the_phone_s_fan(
    daphne_server: DaphneServer, new_page: Any
) -> None:
    """Found by the room journey (a three-player preset deals two jokers): both fanned
    jokers stood for the first joker's button, so on a phone the second could never be
    chosen and a pair of jokers never played."""
    page = open_browser(new_page, "zh-hans", "phone")
    go_home(page, daphne_server, "zh-hans")
    open_play(page, "zh-hans")
    set_up_form(page, "1v1")
    press(page.locator('[data-action="start"]'))
    wait_for_table(page)
    # On our turn nothing is pushed (no hand drawn anew) until we act.
    expect(page.locator('[data-testid="hand"]')).to_have_attribute(
        "data-your-turn", "true", timeout=30_000
    )
    # The deal is random: make two cards of the hand the two jokers, and have the fan
    # drawn again from the hand (as on a turned phone).
    page.evaluate(
        """() => {
          const buttons = [...document.querySelectorAll('#hand button[data-card]')];
          let jokers = buttons.filter((b) => b.dataset.card === 'JK').length;
          for (const b of buttons) {
            if (jokers < 2 && b.dataset.card !== 'JK') { b.dataset.card = 'JK'; jokers += 1; }
          }
        }"""
    )
    page.set_viewport_size({"width": 390, "height": 845})
    jokers = page.locator('[data-hand-fan] [data-fan-card="JK"]')
    expect(jokers).to_have_count(2)
    choose_card(page, "JK")
    choose_card(page, "JK")
    pressed = page.eval_on_selector_all(
        '#hand button[data-card="JK"]', "els => els.map((e) => e.getAttribute('aria-pressed'))"
    )
    assert pressed == ["true", "true"], pressed
