// Following a heat-map cell's link opens the list of vectors behind it.
(function () {
  "use strict";
  function open() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    if (target && target.tagName === "DETAILS") { target.open = true; }
  }
  window.addEventListener("hashchange", open);
  open();
})();
