// Following a heat-map cell's link opens the list of vectors behind it; a table's filter shows the
// rows whose tags hold the chosen value (#only=VALUE in the address presets it).
(function () {
  "use strict";
  function open() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    if (target && target.tagName === "DETAILS") { target.open = true; }
  }
  window.addEventListener("hashchange", open);
  open();
  var preset = /only=([A-Za-z-]+)/.exec(location.hash);
  Array.prototype.forEach.call(document.querySelectorAll("select.filter"), function (select) {
    var table = document.getElementById(select.getAttribute("data-table"));
    var shown = document.querySelector("span.shown[data-table='" + select.getAttribute("data-table") + "']");
    if (!table) { return; }
    var rows = Array.prototype.slice.call(table.querySelectorAll("tbody tr"));
    function apply() {
      var want = select.value, count = 0;
      rows.forEach(function (row) {
        var show = !want || (row.getAttribute("data-tags") || "").split(" ").indexOf(want) >= 0;
        row.hidden = !show;
        if (show) { count += 1; }
      });
      if (shown) { shown.textContent = count + " of " + rows.length + " rows"; }
    }
    if (preset) { select.value = preset[1]; }
    select.addEventListener("change", apply);
    apply();
  });
})();
