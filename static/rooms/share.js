// The room page's "copy the link" button (templates/rooms/room.html, data-action="share").
// A phone's share sheet (navigator.share) where there is one; elsewhere the clipboard;
// where the clipboard is refused (an older browser, no permission) the link's text is
// selected so the person can copy it. What happened is said once in the status region
// next to the button. Without this script the button stays hidden: the link is on the page.
(function () {
  "use strict";
  function setUp() {
    var box = document.querySelector("[data-share]");
    if (!box) return;
    var button = box.querySelector('[data-action="share"]');
    var said = box.querySelector('[role="status"]');
    var link = document.querySelector('[data-testid="room-link"]');
    var url = button.getAttribute("data-url");
    // The share sheet on touch screens (phones, tablets); a desktop browser that has one
    // too copies instead, which is what a person at a keyboard expects.
    var touch = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
    var canShare = typeof navigator.share === "function" && touch;
    if (canShare) button.textContent = button.getAttribute("data-label-share");
    box.hidden = false;

    function say(text) {
      // Emptied first, so that saying the same sentence twice is announced twice.
      said.textContent = "";
      window.setTimeout(function () { said.textContent = text; }, 50);
    }
    function selectLink() {
      if (!link) return false;
      var range = document.createRange();
      range.selectNodeContents(link);
      var selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      var copied = false;
      try { copied = document.execCommand("copy"); } catch (e) { copied = false; }
      say(button.getAttribute(copied ? "data-said-copied" : "data-said-selected"));
      return copied;
    }
    function copy() {
      if (navigator.clipboard && typeof navigator.clipboard.writeText === "function") {
        navigator.clipboard.writeText(url).then(
          function () { say(button.getAttribute("data-said-copied")); },
          selectLink
        );
      } else {
        selectLink();
      }
    }
    button.addEventListener("click", function () {
      if (!canShare) { copy(); return; }
      navigator.share({ title: button.getAttribute("data-title"), url: url }).catch(function (e) {
        // Closing the share sheet is the person's choice: nothing to say. Any other
        // failure (no share target, not allowed) falls back to the clipboard.
        if (!e || e.name !== "AbortError") copy();
      });
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();
