// The room page's poll (templates/rooms/room.html, hx-trigger="every 3s"). When a poll's
// answer sends the page to the table (HX-Redirect: the match has started and this person has
// a seat), the page polls no more. On a slow connection the table takes longer than a poll
// interval to load, and the next poll's answer started the navigation again, cancelling the
// first: the table loaded twice, and the cancelled requests failed.
(function () {
  "use strict";
  var leaving = false;
  document.addEventListener("htmx:beforeOnLoad", function (event) {
    var xhr = event.detail && event.detail.xhr;
    if (xhr && xhr.getResponseHeader("HX-Redirect")) { leaving = true; }
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (leaving) { event.preventDefault(); }
  });
})();
