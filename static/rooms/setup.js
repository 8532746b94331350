// The room set-up (templates/rooms/setup.html): the people's names are asked for a
// hotseat table only, one line per person at the device. Without this script every line
// shows; the server reads only as many as there are people.
(function () {
  "use strict";
  function setUp() {
    var names = document.querySelector("[data-person-names]");
    var mode = document.getElementById("room-mode");
    var humans = document.getElementById("room-humans");
    if (!names || !mode || !humans) return;
    function show() {
      var hotseat = mode.value === "hotseat";
      names.hidden = !hotseat;
      // At one device the people are named below; the first one's name is the nickname.
      var nickname = document.getElementById("room-nickname");
      if (nickname && nickname.closest("p")) nickname.closest("p").hidden = hotseat;
      var count = Number(humans.value) || 2;
      names.querySelectorAll("[data-person]").forEach(function (line) {
        line.hidden = Number(line.getAttribute("data-person")) > count;
      });
    }
    mode.addEventListener("change", show);
    humans.addEventListener("change", show);
    show();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();
