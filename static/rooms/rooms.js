// Countdowns of the room panel: an element with data-countdown="<ISO deadline>" shows the
// seconds left in its [data-seconds] child. The server's number is right when the panel
// arrives; this only keeps it ticking between pushes.
(function () {
  "use strict";
  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-countdown]").forEach(function (el) {
      var end = Date.parse(el.getAttribute("data-countdown"));
      var out = el.querySelector("[data-seconds]");
      if (!out || isNaN(end)) return;
      out.textContent = String(Math.max(0, Math.ceil((end - now) / 1000)));
    });
  }
  setInterval(tick, 1000);
})();
