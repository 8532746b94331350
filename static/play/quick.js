// Quick messages at a table of people (daifugo_site/play/phrases.py). The server renders
// each message in this page's language: a log line (appended by htmx) and #table-said,
// read here to show the phrase on the sender's seat plate for a moment and to announce
// it. The switch (remembered in this browser) hides others' messages and the picker.
(function () {
  "use strict";
  var KEY = "daifugo.quick";
  var KEPT = 20; // message lines kept in the log (phrases.KEPT_PER_PAGE)
  var SHOWN_MS = 4000;
  var root = document.querySelector('[data-testid="quick-messages"]');
  if (!root) { return; }
  var toggle = root.querySelector("[data-quick-switch]");
  var live = root.querySelector("[data-quick-live]");
  var handled = null;
  var showing = {}; // seat -> {text, until}

  function stored() {
    try { return window.localStorage.getItem(KEY); } catch (e) { return null; }
  }
  function apply() {
    document.documentElement.classList.toggle("quick-off", !toggle.checked);
    root.querySelector("[data-quick-picker]").hidden = !toggle.checked;
    if (!toggle.checked) { showing = {}; bubbles(); }
  }
  toggle.checked = stored() !== "off";
  apply();
  toggle.addEventListener("change", function () {
    try { window.localStorage.setItem(KEY, toggle.checked ? "on" : "off"); } catch (e) { /* private mode */ }
    apply();
  });

  // The seats are pushed again on every move: the bubbles are put back after each push.
  function bubbles() {
    var now = Date.now();
    document.querySelectorAll(".seat__said").forEach(function (e) { e.remove(); });
    Object.keys(showing).forEach(function (seat) {
      if (showing[seat].until < now) { delete showing[seat]; return; }
      var plate = document.querySelector('#seats .seat[data-seat="' + seat + '"] .seat__plate');
      if (!plate) { return; }
      var said = document.createElement("span");
      said.className = "seat__said";
      said.setAttribute("data-testid", "seat-said");
      said.textContent = showing[seat].text;
      plate.appendChild(said);
    });
  }

  function trim() {
    var lines = document.querySelectorAll("#log-list .log__item--message");
    for (var i = 0; i < lines.length - KEPT; i++) { lines[i].remove(); }
  }

  document.addEventListener("htmx:wsAfterMessage", function () {
    var said = document.getElementById("table-said");
    var n = said && said.getAttribute("data-n");
    if (!n || n === handled) { bubbles(); return; }
    handled = n;
    trim();
    if (!toggle.checked && !said.hasAttribute("data-mine")) { return; }
    var seat = said.getAttribute("data-seat");
    showing[seat] = { text: said.getAttribute("data-text"), until: Date.now() + SHOWN_MS };
    bubbles();
    window.setTimeout(bubbles, SHOWN_MS + 50);
    live.textContent = said.getAttribute("data-line");
  });
})();
