// The play page's only script: card selection and enabling Play/Give.
// The server sends the exact legal set (data-legal on #hand); this script never decides
// legality, it only tells whether the selected cards are one of the moves listed.
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
  }

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

  // A pushed hand replaces the old one: keep keyboard focus inside it.
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (target && target.id === "hand" && target.contains(document.activeElement)) {
      window.__handFocus = document.activeElement.dataset.card || document.activeElement.dataset.action;
    }
  });
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (!target) { return; }
    update();
    if (target.id === "hand" && window.__handFocus) {
      var root = hand();
      var again = root.querySelector('[data-card="' + window.__handFocus + '"]') ||
        root.querySelector('[data-action="' + window.__handFocus + '"]:not([disabled])') ||
        root.querySelector("button:not([disabled])");
      if (again) { again.focus(); }
      window.__handFocus = null;
    }
  });
  document.addEventListener("DOMContentLoaded", update);
})();
