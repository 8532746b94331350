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
  // Offer only what the preset allows: a table the chosen preset is not played at moves
  // the preset to the first one that is, and a preset not played at the chosen table moves
  // the table; the note (a live region) says what changed. The server still refuses a
  // mismatch (without this script, that refusal is what the player sees).
  function allowed(values, preset) {
    return ((values[preset] || {}).tables || "").split(" ").filter(Boolean);
  }
  function optionText(select) {
    var option = select.options[select.selectedIndex];
    return option ? option.textContent.trim() : "";
  }
  function match(form, changed) {
    var values = JSON.parse(form.dataset.presetValues || "{}");
    var table = form.querySelector('[name="table"]');
    var preset = form.querySelector('[name="preset"]');
    var note = form.querySelector("[data-table-note]");
    if (allowed(values, preset.value).indexOf(table.value) >= 0) { return; }
    var said;
    if (changed === "table") {
      var fit = Array.from(preset.options).find(function (o) { return allowed(values, o.value).indexOf(table.value) >= 0; });
      if (!fit) { return; }
      preset.value = fit.value;
      said = form.dataset.saidPreset;
    } else {
      var first = allowed(values, preset.value)[0];
      if (!first) { return; }
      table.value = first;
      said = form.dataset.saidTable;
    }
    if (note && said) {
      note.textContent = said.replace("%(preset)s", optionText(preset)).replace("%(table)s", optionText(table));
    }
  }
  document.addEventListener("DOMContentLoaded", function () {
    var form = document.querySelector("form[data-preset-values]");
    if (!form) { return; }
    form.addEventListener("change", function (event) {
      var name = event.target && event.target.name;
      if (name === "table" || name === "preset") { match(form, name); }
      refresh(form);
    });
    match(form, "preset");
    refresh(form);
  });
})();
