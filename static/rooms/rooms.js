// Countdowns of the room panel: an element with data-countdown="<ISO deadline>" shows the
// seconds left in its [data-seconds] child. The server's number is right when the panel
// arrives; this only keeps it ticking between pushes. With data-left-ms (the milliseconds
// the server had left when it rendered the element) it counts from the element's arrival
// on this page's own monotonic clock, so a device whose clock is wrong still counts to
// the server's deadline (and a reconnect, rendered afresh, starts from it again).
(function () {
  "use strict";
  function tick() {
    var now = Date.now();
    var mono = performance.now();
    document.querySelectorAll("[data-countdown]").forEach(function (el) {
      var out = el.querySelector("[data-seconds]");
      if (!out) return;
      var left;
      if (el.hasAttribute("data-left-ms")) {
        if (el._endsAt === undefined) {
          el._endsAt = mono + Number(el.getAttribute("data-left-ms"));
        }
        left = el._endsAt - mono;
      } else {
        var end = Date.parse(el.getAttribute("data-countdown"));
        if (isNaN(end)) return;
        left = end - now;
      }
      if (isNaN(left)) return;
      out.textContent = String(Math.max(0, Math.ceil(left / 1000)));
    });
  }
  // The room started its next match (rooms/_moved.html, pushed to this finished game's
  // pages): go to its table, once, after a moment in which the notice is seen and said.
  function follow() {
    var moved = document.querySelector("[data-follow]");
    if (!moved || moved._following) return;
    moved._following = true;
    setTimeout(function () {
      window.location.assign(moved.getAttribute("data-follow"));
    }, 1200);
  }
  // Four times a second: an element that just arrived is timed from (nearly) its arrival.
  setInterval(function () {
    tick();
    follow();
  }, 250);
})();
