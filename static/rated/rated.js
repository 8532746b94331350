// Rated games and replays: three small behaviours, none of which decides anything.
// - queue: when the server pushes #queue-status with data-game-url (both players' pages get
//   the same push at once), open the game;
// - clock: count #clock's move seconds, then the reserve, down (the server enforces them);
// - replay: show one frame at a time, with the buttons and the left/right arrow keys.
(function () {
  "use strict";

  function watchQueue() {
    var going = false;
    var go = function () {
      var status = document.getElementById("queue-status");
      if (!going && status && status.dataset.gameUrl) {
        going = true;  // once: a second assign would cancel the first navigation
        window.location.assign(status.dataset.gameUrl);
      }
    };
    new MutationObserver(go).observe(document.body, { childList: true, subtree: true });
    go();
  }

  function secondsTo(when) {
    return Math.max(0, Math.ceil((Date.parse(when) - Date.now()) / 1000));
  }

  // The move's own seconds first (to data-move-deadline), then the running reserve (to
  // data-deadline, the turn's end); the other reserve stands still.
  function tickClock() {
    var clock = document.getElementById("clock");
    if (!clock || !clock.dataset.deadline) { return; }
    var value = clock.querySelector("[data-seconds]");
    var move = String(secondsTo(clock.dataset.moveDeadline || clock.dataset.deadline));
    if (value && value.textContent !== move) { value.textContent = move; }
    var running = clock.querySelector("[data-running] [data-reserve-seconds]");
    if (running) {
      var shown = parseInt(running.textContent, 10);
      var left = Math.min(isNaN(shown) ? 0 : shown, secondsTo(clock.dataset.deadline));
      if (running.textContent !== String(left)) { running.textContent = String(left); }
    }
  }

  function setUpReplay() {
    var root = document.querySelector('[data-testid="replay"]');
    if (!root) { return; }
    var frames = Array.from(root.querySelectorAll("[data-frame]"));
    var controls = root.querySelector("[data-replay-controls]");
    var position = root.querySelector("[data-replay-position]");
    var prev = root.querySelector('[data-action="replay-prev"]');
    var next = root.querySelector('[data-action="replay-next"]');
    if (!frames.length || !controls) { return; }
    var at = 0;
    function show(i) {
      at = Math.max(0, Math.min(frames.length - 1, i));
      frames.forEach(function (f, k) { f.hidden = k !== at; });
      prev.disabled = at === 0;
      next.disabled = at === frames.length - 1;
      position.textContent = String(at + 1) + " / " + String(frames.length);
    }
    prev.addEventListener("click", function () { show(at - 1); });
    next.addEventListener("click", function () { show(at + 1); });
    root.addEventListener("keydown", function (e) {
      if (e.key === "ArrowLeft") { show(at - 1); e.preventDefault(); }
      if (e.key === "ArrowRight") { show(at + 1); e.preventDefault(); }
    });
    document.addEventListener("keydown", function (e) {
      if (e.target && /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName)) { return; }
      if (root.contains(e.target)) { return; }
      if (e.key === "ArrowLeft") { show(at - 1); }
      if (e.key === "ArrowRight") { show(at + 1); }
    });
    controls.hidden = false;
    show(0);
  }

  // The table's first push (the whole table, sent once the socket opens) has arrived:
  // tests and scripts wait for data-synced before acting on the page.
  function markSynced() {
    document.body.addEventListener("htmx:wsAfterMessage", function () {
      var table = document.querySelector(".table[data-game]");
      if (table) { table.dataset.synced = "true"; }
    });
  }

  function start() {
    markSynced();
    watchQueue();
    setInterval(tickClock, 250);
    setUpReplay();
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
