// Following a heat-map cell's link opens the list of vectors behind it. A table's toolbar filters
// its rows: each "only" switch keeps the rows whose tags hold its value, each "hide" switch drops
// them, the search keeps rows whose first cell holds every word. The address presets them:
// #only=a,b  #hide=c  #q=words  #expand (open the details of every row shown), joined with &.
(function () {
  "use strict";
  var doc = document;
  // The target of the address, and every fold it sits in (a folded section, a cell's details),
  // opened: a link to a rule's quote, or to a folded section, shows what it names.
  function open() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && doc.getElementById(id);
    for (var node = target; node; node = node.parentElement) {
      if (node.tagName === "DETAILS") { node.open = true; }
      if (node.tagName === "SECTION") {
        var fold = node.querySelector("details.fold");
        if (fold) { fold.open = true; }
      }
    }
    if (target && target.scrollIntoView && target.tagName !== "SECTION") { target.scrollIntoView(); }
  }
  function params() {
    var found = {};
    location.hash.replace(/^#/, "").split("&").forEach(function (pair) {
      if (!pair) { return; }
      var at = pair.indexOf("="), key = at < 0 ? pair : pair.slice(0, at), value = at < 0 ? "" : pair.slice(at + 1);
      try { value = decodeURIComponent(value.replace(/\+/g, " ")); } catch (e) { /* keep the raw text */ }
      found[key] = value;
    });
    return found;
  }
  var toolbars = [].slice.call(doc.querySelectorAll("div.toolbar"));
  function setup(toolbar) {
    var id = toolbar.getAttribute("data-table"), table = doc.getElementById(id);
    if (!table) { return null; }
    var rows = [].slice.call(table.querySelectorAll("tbody tr"));
    var bodies = [].slice.call(table.querySelectorAll("tbody"));
    var boxes = [].slice.call(toolbar.querySelectorAll("input[type=checkbox]"));
    var search = toolbar.querySelector("input.search");
    var shown = toolbar.querySelector("span.shown");
    var none = null;
    [].forEach.call(doc.querySelectorAll("p.none"), function (p) { if (p.getAttribute("data-table") === id) { none = p; } });
    var grouped = bodies.length > 1;
    function apply(write) {
      var terms = search ? search.value.toLowerCase().split(/\s+/).filter(Boolean) : [], count = 0, alt = false;
      rows.forEach(function (row) {
        // The key is the row's first cell: its code (a vector's id), else its text.
        var first = row.cells[0], code = first && first.querySelector("code");
        var tags = (row.getAttribute("data-tags") || "").split(" "), key = ((code || first || {}).textContent || "").toLowerCase();
        var keep = boxes.every(function (box) {
          if (!box.checked) { return true; }
          var has = tags.indexOf(box.getAttribute("data-filter")) >= 0;
          return box.getAttribute("data-mode") === "hide" ? !has : has;
        }) && terms.every(function (term) { return key.indexOf(term) >= 0; });
        row.hidden = !keep;
        if (keep) { count += 1; }
      });
      if (grouped) {
        bodies.forEach(function (body) {
          var any = body.querySelector("tr:not([hidden])") !== null;
          body.hidden = !any;
          if (any) { body.classList.toggle("alt", alt); alt = !alt; }
        });
      }
      if (shown) { shown.textContent = count + " of " + rows.length + " rows"; }
      if (none) { none.hidden = count > 0; }
      if (write) { writeHash(); }
    }
    function expand(state) {
      rows.forEach(function (row) {
        if (row.hidden) { return; }
        [].forEach.call(row.querySelectorAll("details"), function (d) { d.open = state; });
      });
    }
    function read(found) {
      var only = (found.only || "").split(","), hide = (found.hide || "").split(",");
      boxes.forEach(function (box) {
        var list = box.getAttribute("data-mode") === "hide" ? hide : only;
        box.checked = list.indexOf(box.getAttribute("data-filter")) >= 0;
      });
      if (search) { search.value = found.q || ""; }
      apply(false);
      if ("expand" in found) { expand(true); }
    }
    function state() {
      return {
        only: boxes.filter(function (b) { return b.checked && b.getAttribute("data-mode") !== "hide"; }).map(function (b) { return b.getAttribute("data-filter"); }),
        hide: boxes.filter(function (b) { return b.checked && b.getAttribute("data-mode") === "hide"; }).map(function (b) { return b.getAttribute("data-filter"); }),
        q: search ? search.value.trim() : ""
      };
    }
    boxes.forEach(function (box) { box.addEventListener("change", function () { apply(true); }); });
    if (search) {
      search.addEventListener("input", function () { apply(true); });
      search.addEventListener("keydown", function (event) { if (event.key === "Escape") { search.value = ""; apply(true); } });
    }
    [].forEach.call(toolbar.querySelectorAll("button[data-action]"), function (button) {
      button.addEventListener("click", function () {
        var action = button.getAttribute("data-action");
        if (action === "expand") { expand(true); }
        if (action === "collapse") { expand(false); }
        if (action === "reset") {
          boxes.forEach(function (box) { box.checked = false; });
          if (search) { search.value = ""; }
          expand(false);
          apply(true);
        }
      });
    });
    return { read: read, state: state, apply: apply };
  }
  var tables = toolbars.map(setup).filter(Boolean);
  // The address says what the last change left: switches from every table, as one preset.
  function writeHash() {
    var only = [], hide = [], q = "";
    tables.forEach(function (t) { var s = t.state(); only = only.concat(s.only); hide = hide.concat(s.hide); q = q || s.q; });
    var parts = [];
    if (only.length) { parts.push("only=" + only.join(",")); }
    if (hide.length) { parts.push("hide=" + hide.join(",")); }
    if (q) { parts.push("q=" + encodeURIComponent(q)); }
    try { history.replaceState(null, "", parts.length ? "#" + parts.join("&") : location.pathname + location.search); } catch (e) { /* a file: page may refuse */ }
  }
  function readHash() {
    var found = params();
    if (!("only" in found || "hide" in found || "q" in found || "expand" in found)) { open(); return; }
    tables.forEach(function (t) { t.read(found); });
  }
  tables.forEach(function (t) { t.apply(false); });
  window.addEventListener("hashchange", readHash);
  readHash();
  // #measure (scripts/report --check): the laid-out height and each section's top, in attributes
  // a headless browser's DOM dump shows.
  if (/(^#|&)measure(&|$)/.test(location.hash)) {
    var root = doc.documentElement;
    root.setAttribute("data-height", String(root.scrollHeight));
    root.setAttribute("data-sections", [].map.call(doc.querySelectorAll("body > section"), function (s) {
      return s.id + ":" + Math.round(s.getBoundingClientRect().top + window.scrollY);
    }).join(","));
  }
})();
