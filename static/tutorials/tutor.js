/* The tutor, enhanced: card buttons instead of checkboxes, focus after each swap, and the
   "show the solution" button appearing after its delay. Everything also works without it
   (plain form posts; the checkboxes are the fallback). */
(function () {
  "use strict";
  document.documentElement.classList.add("tutor-js");

  function cardButtons(form) {
    return Array.prototype.slice.call(form.querySelectorAll(".tutor-cards-buttons button[data-card]"));
  }

  function checkboxes(form) {
    return Array.prototype.slice.call(form.querySelectorAll('.tutor-cards-checkboxes input[name="card"]'));
  }

  // A card button stands for the checkbox at the same position (two jokers are both "JK").
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest(".tutor-cards-buttons button[data-card]");
    if (!button) return;
    var form = button.closest("form");
    var index = cardButtons(form).indexOf(button);
    var box = checkboxes(form)[index];
    var pressed = button.getAttribute("aria-pressed") !== "true";
    button.setAttribute("aria-pressed", pressed ? "true" : "false");
    if (box) box.checked = pressed;
    // On a phone the answer to the last move lies over the position (tutor.css): choosing
    // the next cards folds it to one line, so the other hands are in view again.
    var feedback = button.closest(".tutor") && button.closest(".tutor").querySelector(".tutor-feedback");
    if (feedback) feedback.classList.add("is-folded");
  });

  // A tap on the folded answer opens it again.
  document.addEventListener("click", function (event) {
    var feedback = event.target.closest && event.target.closest(".tutor-feedback.is-folded");
    if (feedback) feedback.classList.remove("is-folded");
  });

  // Left/Right (and Home/End) move between the cards of a hand.
  document.addEventListener("keydown", function (event) {
    var button = event.target.closest && event.target.closest(".tutor-cards-buttons button[data-card]");
    if (!button) return;
    var buttons = cardButtons(button.closest("form"));
    var index = buttons.indexOf(button);
    var next = null;
    if (event.key === "ArrowRight") next = buttons[Math.min(buttons.length - 1, index + 1)];
    else if (event.key === "ArrowLeft") next = buttons[Math.max(0, index - 1)];
    else if (event.key === "Home") next = buttons[0];
    else if (event.key === "End") next = buttons[buttons.length - 1];
    if (next) {
      event.preventDefault();
      next.focus();
    }
  });

  var FOCUSABLE = "button:not([disabled]):not([hidden]), input:not([disabled]), a[href], [tabindex]";

  function focusIn(root) {
    var target = root.querySelector("[data-autofocus]");
    if (!target) return;
    if (!target.matches(FOCUSABLE)) target = target.querySelector(FOCUSABLE) || target;
    target.focus();
  }

  function revealLater(root) {
    root.querySelectorAll("[data-reveal-after]").forEach(function (element) {
      var seconds = parseInt(element.getAttribute("data-reveal-after"), 10) || 0;
      element.removeAttribute("data-reveal-after");
      window.setTimeout(function () { element.hidden = false; }, seconds * 1000);
    });
  }

  function ready(fn) {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fn);
    else fn();
  }

  ready(function () {
    revealLater(document);
    document.body.addEventListener("htmx:afterSettle", function (event) {
      var tutor = event.target.closest && event.target.closest(".tutor");
      if (!tutor) return;
      var feedback = tutor.querySelector(".tutor-feedback");
      if (feedback) feedback.classList.remove("is-folded");  // a new answer is read whole
      revealLater(tutor);
      // After the out-of-band parts have settled too.
      window.setTimeout(function () { focusIn(tutor); }, 0);
    });
  });
})();
