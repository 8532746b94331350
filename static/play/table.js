// The play page's only script: card selection and enabling Play/Give, the shortcut keys,
// the hand fanned on the table, and how the table is shown (oblique / top / flat, turned by
// dragging, remembered in localStorage).
// The server sends the exact legal set (data-legal on #hand); this script never decides
// legality, it only tells whether the selected cards are one of the moves listed. What the
// table shows is always the server's HTML: the fan is a copy of the hand's card buttons.
(function () {
  "use strict";

  function hand() { return document.getElementById("hand"); }

  function selectedCodes(root) {
    return Array.from(root.querySelectorAll('button[data-card][aria-pressed="true"]'))
      .map(function (b) { return b.dataset.card; });
  }

  function key(codes) { return codes.slice().sort().join(" "); }

  function update() {
    var root = hand();
    if (!root) { return; }
    var legal = [];
    try { legal = JSON.parse(root.dataset.legal || "[]"); } catch (e) { legal = []; }
    var codes = selectedCodes(root);
    var k = key(codes);
    var matches = legal.filter(function (m) { return key(m.cards) === k; });
    var playForm = root.querySelector("[data-play-form]");
    if (playForm) {
      playForm.querySelector('input[name="cards"]').value = codes.join(" ");
      var choice = playForm.querySelector("[data-form-choice]");
      var ambiguous = matches.length > 1;
      if (choice) {
        choice.hidden = !ambiguous;
        choice.querySelectorAll("input").forEach(function (i) { i.disabled = !ambiguous; });
      }
      playForm.querySelector('[data-action="play"]').disabled = matches.length === 0;
    }
    var giveForm = document.querySelector("[data-give-form]");
    if (giveForm) {
      var owe = parseInt(root.dataset.owe || "0", 10);
      giveForm.querySelector('input[name="cards"]').value = codes.join(" ");
      giveForm.querySelector('[data-action="give"]').disabled = owe === 0 || codes.length !== owe;
    }
    updateChoice(codes);
    syncFan();
  }

  // -- a house rule's owed choice (templates/play/_house.html): N cards of the hand to give
  // or discard, or N ranks to name; the count comes from the server, the engine judges.
  function updateChoice(codes) {
    var box = document.querySelector('[data-testid="choice"]');
    if (!box) { return; }
    var count = parseInt(box.dataset.count || "0", 10);
    var chooseForm = box.querySelector("[data-choose-form]");
    if (chooseForm) {
      chooseForm.querySelector('input[name="cards"]').value = codes.join(" ");
      chooseForm.querySelector('[data-action="choose"]').disabled = codes.length !== count;
    }
    var nameForm = box.querySelector("[data-name-form]");
    if (nameForm) {
      var ranks = Array.from(nameForm.querySelectorAll('button[data-rank][aria-pressed="true"]'))
        .map(function (b) { return b.dataset.rank; });
      nameForm.querySelector('input[name="ranks"]').value = ranks.join(" ");
      nameForm.querySelector('[data-action="name"]').disabled = ranks.length !== count;
    }
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-name-form] button[data-rank]");
    if (!button) { return; }
    button.setAttribute("aria-pressed", button.getAttribute("aria-pressed") === "true" ? "false" : "true");
    update();
  });

  // -- the hand, fanned on the near side of the table ---------------------------------------
  // A picture (aria-hidden, not focusable) of the card buttons: a click on a fanned card
  // presses its button, so mouse and touch play on the table and the panel stays the one
  // set of controls for keyboards and screen readers.
  // The smallest strip of a card left uncovered, across and down: a fingertip (44 px).
  var MIN_STRIP = 44;

  function buildFan() {
    var fan = document.querySelector("[data-hand-fan]");
    var root = hand();
    if (!fan) { return; }
    fan.textContent = "";
    if (!root) { return; }
    var buttons = Array.from(root.querySelectorAll("button[data-card]"));
    var items = buttons.map(function (button, index) {
      var item = document.createElement("span");
      item.className = "fan-card";
      item.dataset.fanCard = button.dataset.card;
      item.dataset.fanIndex = String(index);
      var face = document.createElement("span");
      face.className = button.className;
      face.innerHTML = button.innerHTML;
      item.appendChild(face);
      return item;
    });
    if (!items.length) { return; }
    // Measure one card, then split the hand into the fewest rows whose cards each keep a
    // MIN_STRIP-wide strip uncovered; the rows overlap by all but MIN_STRIP of a card.
    var row = document.createElement("span");
    row.className = "fan-row";
    row.appendChild(items[0]);
    fan.appendChild(row);
    var cardWidth = items[0].firstChild.getBoundingClientRect().width || 47;
    var cardHeight = items[0].firstChild.getBoundingClientRect().height || 67;
    var width = Math.max(fan.clientWidth - 16, cardWidth);  // measured while not :empty
    fan.textContent = "";
    var perRow = Math.max(1, Math.floor((width - cardWidth) / MIN_STRIP) + 1);
    var rows = Math.ceil(items.length / perRow);
    var inRow = Math.ceil(items.length / rows);
    // A row's cards show MIN_STRIP above the next row even when sunk (play.css: 0.45rem).
    fan.style.setProperty("--fan-row-overlap", (MIN_STRIP + 10 - cardHeight).toFixed(1) + "px");
    for (var r = 0; r < rows; r++) {
      var part = items.slice(r * inRow, (r + 1) * inRow);
      if (!part.length) { break; }
      row = document.createElement("span");
      row.className = "fan-row";
      // Spread to fill the row up to a loose fan, never closer than MIN_STRIP.
      var step = part.length > 1 ? Math.min(Math.max(MIN_STRIP, cardWidth * 0.7), (width - cardWidth) / (part.length - 1)) : cardWidth;
      row.style.setProperty("--fan-overlap", (step - cardWidth).toFixed(1) + "px");
      // A shallow arc: the outer cards lean out by only a few pixels (play.css turns them
      // about a point 1.5 card-heights below), so a full row stays inside the screen.
      var spread = Math.min(1.5, 12 / Math.max(part.length, 1));
      part.forEach(function (item, i) {
        item.style.setProperty("--fan-angle", ((i - (part.length - 1) / 2) * spread).toFixed(1) + "deg");
        row.appendChild(item);
      });
      fan.appendChild(row);
    }
    syncFan();
  }

  // A turned phone or a resized window: the rows are measured again.
  var resizeTimer = null;
  window.addEventListener("resize", function () {
    window.clearTimeout(resizeTimer);
    resizeTimer = window.setTimeout(buildFan, 150);
  });

  // The button a fanned card stands for: the one at its place in the hand (two jokers share
  // a code, so a look-up by code gave both the first one's button), or by code if the hand
  // changed since the fan was drawn.
  function buttonOf(item, root) {
    if (!root) { return null; }
    var button = root.querySelectorAll("button[data-card]")[Number(item.dataset.fanIndex)];
    if (button && button.dataset.card === item.dataset.fanCard) { return button; }
    return root.querySelector('button[data-card="' + item.dataset.fanCard + '"]');
  }

  function syncFan() {
    var root = hand();
    document.querySelectorAll("[data-hand-fan] [data-fan-card]").forEach(function (item) {
      var button = buttonOf(item, root);
      item.classList.toggle("is-selected", !!button && button.getAttribute("aria-pressed") === "true");
      item.classList.toggle("is-dim", !!button && !!button.closest(".is-dim"));
      item.classList.toggle("is-focused", !!button && button === document.activeElement);
    });
  }
  // Focus on a hand card (the panel's button, visually hidden on a small screen) is also
  // drawn on its fanned picture.
  document.addEventListener("focusin", syncFan);
  document.addEventListener("focusout", function () { window.setTimeout(syncFan, 0); });

  document.addEventListener("click", function (event) {
    var item = event.target.closest && event.target.closest("[data-hand-fan] [data-fan-card]");
    if (!item) { return; }
    var button = buttonOf(item, hand());
    if (button) { button.click(); }
  });

  // -- shortcut keys: the key written on each card, Enter plays, P passes, G gives, N next ---
  function typing(target) {
    return !!(target.closest && target.closest("input, textarea, select, [contenteditable]"));
  }
  function onControl(target) {
    return !!(target.closest && target.closest("button, a[href], summary, input, select, textarea"));
  }
  function pressAction(name) {
    var control = document.querySelector('[data-action="' + name + '"]');
    if (control && !control.disabled) { control.click(); return true; }
    return false;
  }
  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) { return; }
    if (typing(event.target) || document.querySelector(CURTAIN)) { return; }
    var key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    if (key === "Enter") {
      // On a focused button Enter keeps its own meaning (a card toggles, Play plays).
      // While a house rule's choice is owed, Enter gives, discards or names instead.
      if (!onControl(event.target) && (pressAction("play") || pressAction("choose") || pressAction("name"))) { event.preventDefault(); }
      return;
    }
    var actions = { p: "pass", g: "give", n: "next" };
    if (actions[key]) {
      if (pressAction(actions[key])) { event.preventDefault(); }
      return;
    }
    if (!/^[0-9a-z]$/.test(key)) { return; }
    var root = hand();
    var item = root && root.querySelector('.cards__item[data-key="' + key + '"]');
    var button = item && item.querySelector("button[data-card]");
    if (button) {
      // Focus stays where it is (Enter then plays); the live region says what changed, in
      // the page's language (the sentences come with the hand, from the server).
      button.click();
      var said = button.getAttribute("aria-pressed") === "true" ? root.dataset.saidSelected : root.dataset.saidUnselected;
      var announcer = document.getElementById("announcer");
      if (announcer && said) { announcer.textContent = said.replace("%(card)s", button.getAttribute("aria-label") || ""); }
      event.preventDefault();
    }
  });

  // -- how the table is shown -----------------------------------------------------------------
  var VIEW_KEY = "daifugo.table.view";
  var ANGLE_KEY = "daifugo.table.angle";
  var TILT = { min: 15, max: 55, initial: 38 };
  var TURN = { min: -30, max: 30, initial: 0 };
  var can3d = !!(window.CSS && CSS.supports && CSS.supports("transform-style", "preserve-3d") &&
    CSS.supports("perspective", "10px"));
  var angle = { tilt: TILT.initial, turn: TURN.initial };

  function stored(name) {
    try { return window.localStorage.getItem(name); } catch (e) { return null; }
  }
  function store(name, value) {
    try { window.localStorage.setItem(name, value); } catch (e) { /* private mode: not remembered */ }
  }
  function clamp(value, range) { return Math.min(range.max, Math.max(range.min, value)); }

  function applyAngle(stage) {
    stage.style.setProperty("--tilt", angle.tilt.toFixed(1) + "deg");
    stage.style.setProperty("--turn", angle.turn.toFixed(1) + "deg");
  }

  function setView(view, remember) {
    var stage = document.querySelector("[data-table-stage]");
    if (!stage) { return; }
    if (["oblique", "top", "flat"].indexOf(view) < 0) { view = "oblique"; }
    if (!can3d) { view = "flat"; }
    stage.dataset.tableView = view;
    var switcher = document.querySelector("[data-view-switch]");
    if (switcher) {
      switcher.dataset.viewCurrent = view;
      switcher.querySelectorAll("[data-view]").forEach(function (b) {
        b.setAttribute("aria-pressed", b.dataset.view === view ? "true" : "false");
        if (!can3d && b.dataset.view !== "flat") { b.disabled = true; }
      });
    }
    if (remember) { store(VIEW_KEY, view); }
  }

  function initView() {
    var stage = document.querySelector("[data-table-stage]");
    if (!stage) { return; }
    try {
      var saved = JSON.parse(stored(ANGLE_KEY) || "null");
      if (saved && typeof saved.tilt === "number" && typeof saved.turn === "number") {
        angle = { tilt: clamp(saved.tilt, TILT), turn: clamp(saved.turn, TURN) };
      }
    } catch (e) { /* a bad stored value: start from the default angle */ }
    applyAngle(stage);
    setView(stored(VIEW_KEY) || "oblique", false);
    // The remembered view is drawn at once; later switches ease in (play.css).
    window.requestAnimationFrame(function () {
      window.requestAnimationFrame(function () { stage.classList.add("is-ready"); });
    });
    var switcher = document.querySelector("[data-view-switch]");
    if (switcher) {
      switcher.hidden = false;
      switcher.addEventListener("click", function (event) {
        var button = event.target.closest("[data-view]");
        if (button && !button.disabled) { setView(button.dataset.view, true); }
      });
    }
    // Drag (mouse, pen or touch) to turn the table within limits; vertical drags tilt it
    // in the oblique view. Touch keeps vertical scrolling (touch-action: pan-y).
    var felt = stage.querySelector("[data-table-felt]");
    var start = null;
    felt.addEventListener("pointerdown", function (event) {
      if (stage.dataset.tableView === "flat" || event.button > 0) { return; }
      start = { x: event.clientX, y: event.clientY, tilt: angle.tilt, turn: angle.turn, id: event.pointerId };
      stage.classList.add("is-dragging");
      try { felt.setPointerCapture(event.pointerId); } catch (e) { /* already released */ }
    });
    felt.addEventListener("pointermove", function (event) {
      if (!start || event.pointerId !== start.id) { return; }
      angle.turn = clamp(start.turn + (event.clientX - start.x) * 0.2, TURN);
      if (stage.dataset.tableView === "oblique") {
        angle.tilt = clamp(start.tilt - (event.clientY - start.y) * 0.2, TILT);
      }
      applyAngle(stage);
    });
    function end(event) {
      if (!start || event.pointerId !== start.id) { return; }
      start = null;
      stage.classList.remove("is-dragging");
      store(ANGLE_KEY, JSON.stringify(angle));
    }
    felt.addEventListener("pointerup", end);
    felt.addEventListener("pointercancel", end);
  }

  // A card taken with the mouse (or a finger) does not keep keyboard focus: otherwise the
  // next Enter, meant for Play, would toggle that card (Enter on a focused button presses
  // it). Keyboard users still walk the hand with the arrows and toggle with Space or Enter.
  document.addEventListener("mousedown", function (event) {
    var button = event.target.closest && event.target.closest("#hand button[data-card]");
    if (!button) { return; }
    event.preventDefault();
    var active = document.activeElement;
    if (active && active.closest && active.closest("#hand button[data-card]")) { active.blur(); }
  });

  // Forms that arrive in a push (the "new game with these rules" form at the end of a game)
  // are rendered once for every viewer, so they cannot carry this visitor's CSRF token:
  // the page's own token (the one htmx sends, on <body>) goes in as the form is submitted.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form || (form.method || "").toLowerCase() !== "post" || form.hasAttribute("ws-send")) { return; }
    var field = form.querySelector('input[name="csrfmiddlewaretoken"]');
    if (field && field.value) { return; }
    var token = "";
    try { token = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || ""; } catch (e) { token = ""; }
    if (!token) { return; }
    if (!field) {
      field = document.createElement("input");
      field.type = "hidden";
      field.name = "csrfmiddlewaretoken";
      form.appendChild(field);
    }
    field.value = token;
  }, true);

  document.addEventListener("click", function (event) {
    var button = event.target.closest("#hand button[data-card]");
    if (!button) { return; }
    var pressed = button.getAttribute("aria-pressed") === "true";
    button.setAttribute("aria-pressed", pressed ? "false" : "true");
    update();
  });

  // Arrow keys move between the cards of the hand (Enter or Space selects: they are buttons).
  document.addEventListener("keydown", function (event) {
    var button = event.target.closest && event.target.closest("#hand button[data-card]");
    if (!button || (event.key !== "ArrowRight" && event.key !== "ArrowLeft")) { return; }
    var all = Array.from(hand().querySelectorAll("button[data-card]"));
    var i = all.indexOf(button) + (event.key === "ArrowRight" ? 1 : -1);
    if (i >= 0 && i < all.length) { all[i].focus(); event.preventDefault(); }
  });

  // A hint (kept across pushes, templates/review/_game_hint.html) answers
  // one table version: once the table has moved on it no longer applies, so it goes.
  function clearStaleHint() {
    var box = document.getElementById("hint");
    var current = document.getElementById("table-version");
    if (!box || !current || !box.hasAttribute("data-version")) { return; }
    if (box.getAttribute("data-version") === current.getAttribute("data-version")) { return; }
    box.replaceChildren();
    box.removeAttribute("class");
    box.removeAttribute("data-version");
  }

  // A pushed hand replaces the old one: keep keyboard focus inside it. The hint area is
  // kept across the swap (hx-preserve); its button takes the state the server rendered in
  // the pushed one.
  var pushedHintDisabled = null;
  var keptSelection = [];
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (!target || target.id !== "hand") { return; }
    var fresh = event.detail.fragment && event.detail.fragment.querySelector('[data-action="hint"]');
    pushedHintDisabled = fresh ? fresh.disabled : null;
    // The same table sent again (the first frame after the socket connects, or another
    // part of the table changed): the cards already picked stay picked.
    var version = function (root) {
      var input = root && root.querySelector('input[name="v"]');
      return input ? input.value : null;
    };
    var newVersion = version(event.detail.fragment);
    keptSelection = newVersion !== null && newVersion === version(target) ? selectedCodes(target) : [];
    if (target.contains(document.activeElement)) {
      window.__handFocus = document.activeElement.dataset.card || document.activeElement.dataset.action;
    }
  });
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (!target) { return; }
    if (target.id === "hand") {
      keptSelection.forEach(function (code) {
        var again = hand() && hand().querySelector('button[data-card="' + code + '"]');
        if (again) { again.setAttribute("aria-pressed", "true"); }
      });
      keptSelection = [];
      buildFan();
      var kept = document.querySelector('#hint-area [data-action="hint"]');
      if (kept && pushedHintDisabled !== null) { kept.disabled = pushedHintDisabled; }
      pushedHintDisabled = null;
    }
    clearStaleHint();
    update();
    syncCurtain();
    if (target.id === "hand" && window.__handFocus) {
      var root = hand();
      var again = root.querySelector('[data-card="' + window.__handFocus + '"]') ||
        root.querySelector('[data-action="' + window.__handFocus + '"]:not([disabled])') ||
        root.querySelector("button:not([disabled])");
      if (again) { again.focus(); }
      window.__handFocus = null;
    }
  });
  // -- the hotseat curtain (templates/rooms/panel.html) ------------------------------------
  // While it is down the server sends no hand at all; here the rest of the page is made
  // inert (no focus, no clicks, hidden from assistive technology) and Tab cycles inside the
  // curtain, as in any modal dialog. The live region stays outside it, so what the others
  // play is still announced. Lifted, the page comes back and focus goes to the hand.
  var CURTAIN = '[data-testid="curtain"]';
  var INERT_MARK = "data-curtain-inert";

  function focusables(root) {
    return Array.from(root.querySelectorAll("button, a[href], input:not([type=hidden]), select, textarea, [tabindex]"))
      .filter(function (e) { return !e.disabled && e.tabIndex >= 0; });
  }

  function syncCurtain() {
    var curtain = document.querySelector(CURTAIN);
    var wasDown = document.querySelector("[" + INERT_MARK + "]") !== null;
    document.querySelectorAll("[" + INERT_MARK + "]").forEach(function (e) {
      e.inert = false;
      e.removeAttribute(INERT_MARK);
    });
    document.documentElement.classList.toggle("has-curtain", !!curtain);
    if (!curtain) {
      if (wasDown) {
        // After the whole push (the hand may arrive after the panel): focus the hand.
        window.setTimeout(function () {
          var active = document.activeElement;
          if (active && active !== document.body) { return; }
          var first = hand() && hand().querySelector("button[data-card]");
          (first || document.getElementById("main")).focus();
        }, 0);
      }
      return;
    }
    for (var node = curtain; node.parentElement && node !== document.body; node = node.parentElement) {
      Array.from(node.parentElement.children).forEach(function (sibling) {
        if (sibling === node || sibling.inert || sibling.matches("script, style, link, [aria-live]")) { return; }
        sibling.inert = true;
        sibling.setAttribute(INERT_MARK, "");
      });
    }
    if (!curtain.contains(document.activeElement)) {
      var first = focusables(curtain)[0];
      if (first) { first.focus(); }
    }
  }

  document.addEventListener("keydown", function (event) {
    var curtain = event.key === "Tab" && document.querySelector(CURTAIN);
    if (!curtain) { return; }
    var all = focusables(curtain);
    if (!all.length) { event.preventDefault(); return; }
    var i = all.indexOf(document.activeElement);
    var next = event.shiftKey ? (i <= 0 ? all.length - 1 : i - 1) : (i < 0 || i === all.length - 1 ? 0 : i + 1);
    all[next].focus();
    event.preventDefault();
  });

  function start() {
    // The stage's fan stands for the panel's hand from now on (play.css, small screens).
    var table = document.querySelector("[data-table-stage]");
    if (table && table.closest(".table")) { table.closest(".table").classList.add("is-live"); }
    initView(); buildFan(); update(); syncCurtain();
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();

// Anonymous statistics (daifugo_site/accounts/client.py): once the socket opens, the
// device class (phone or not, memory and cores, which the server stores as buckets), then
// the count of rendering failures (htmx swap errors, script errors) at most every 5 s.
// The server ignores it for viewers and for a switched-off browser or account.
(function () {
  "use strict";
  var socket = null, failures = 0, timer = null;
  function send(extra) {
    if (!socket) { return; }
    var report = { action: "client", failures: Math.min(failures, 50) };
    failures -= report.failures;
    Object.keys(extra).forEach(function (k) { report[k] = extra[k]; });
    socket.send(JSON.stringify(report));
  }
  function device() {
    var phone = window.matchMedia("(pointer: coarse)").matches || window.screen.width < 600;
    var out = { phone: phone };
    if (navigator.deviceMemory > 0) { out.memory = navigator.deviceMemory; }
    if (navigator.hardwareConcurrency > 0) { out.cores = navigator.hardwareConcurrency; }
    return out;
  }
  function failed() {
    failures += 1;
    if (!timer) { timer = setTimeout(function () { timer = null; send({}); }, 5000); }
  }
  document.addEventListener("htmx:wsOpen", function (event) {
    socket = event.detail.socketWrapper;
    send(device());
  });
  document.addEventListener("htmx:swapError", failed);
  window.addEventListener("error", failed);
})();
