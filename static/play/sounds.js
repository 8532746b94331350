// The table's sounds (templates/play/_quick.html; files from daifugo_site/ui/sounds.py).
// Which one plays is what the server says happened: each push's version mark carries
// data-cues (daifugo_site/play/cues.py), most telling first; this plays the first. Never
// before the person's first gesture on the page (browsers refuse sound until then, and a
// refusal must not become a console error), and only while the switch is on: on unless
// the person turned it off (remembered in this browser).
(function () {
  "use strict";
  var KEY = "daifugo.sounds";
  var box = document.querySelector("[data-sounds]");
  if (!box) { return; }
  var toggle = box.querySelector("[data-sound-switch]");
  var gestured = false;
  var played = null;
  var audios = {};

  function stored() {
    try { return window.localStorage.getItem(KEY); } catch (e) { return null; }
  }
  toggle.checked = stored() !== "off";
  toggle.addEventListener("change", function () {
    try { window.localStorage.setItem(KEY, toggle.checked ? "on" : "off"); } catch (e) { /* private mode */ }
  });
  function gesture() { gestured = true; }
  document.addEventListener("pointerdown", gesture, true);
  document.addEventListener("keydown", gesture, true);

  function play(name) {
    var url = box.getAttribute("data-sound-" + name);
    if (!url) { return; }
    var audio = audios[name] || (audios[name] = new Audio(url));
    try { audio.currentTime = 0; } catch (e) { /* not loaded yet */ }
    box.setAttribute("data-last-cue", name); // what the page asked for (a test hook)
    var started = audio.play();
    if (started && started.then) {
      started.then(function () {
        box.setAttribute("data-played", name);
      }, function () {
        // Refused by the browser: stay quiet (no console error), say so for the tests.
        box.setAttribute("data-refused", name);
      });
    }
  }

  document.addEventListener("htmx:wsAfterMessage", function () {
    var mark = document.getElementById("table-version");
    if (!mark) { return; }
    var version = mark.getAttribute("data-version");
    var cues = (mark.getAttribute("data-cues") || "").split(" ").filter(Boolean);
    if (!cues.length || version === played) { return; }
    played = version;
    if (gestured && toggle.checked) { play(cues[0]); }
  });
})();
