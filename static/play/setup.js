// Set-up form: show what "as the preset says" means for the chosen preset, and which
// computer seats the chosen table uses. The form works without this script.
(function () {
  "use strict";
  function refresh(form) {
    var values = JSON.parse(form.dataset.presetValues || "{}");
    var preset = form.querySelector('[name="preset"]').value;
    var current = values[preset] || {};
    form.querySelectorAll("[data-preset-hint]").forEach(function (hint) {
      var name = hint.dataset.presetHint;
      var select = form.querySelector('[name="opt_' + name + '"]');
      var option = select && select.querySelector('option[value="' + current[name] + '"]');
      hint.textContent = option ? "(" + option.textContent.trim() + ")" : "";
    });
    var table = form.querySelector('[name="table"]').value;
    var seats = table === "1v1" ? 1 : parseInt(table, 10) - 1;
    form.querySelectorAll("[data-level-seat]").forEach(function (row) {
      row.hidden = parseInt(row.dataset.levelSeat, 10) > seats;
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    var form = document.querySelector("form[data-preset-values]");
    if (!form) { return; }
    form.addEventListener("change", function () { refresh(form); });
    refresh(form);
  });
})();
