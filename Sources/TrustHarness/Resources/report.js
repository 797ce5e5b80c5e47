(function () {
  "use strict";
  var doc = document;
  function el(id) { return doc.getElementById(id); }
  var rows = [].slice.call(doc.querySelectorAll("tr.v"));
  var groups = [].slice.call(doc.querySelectorAll("tbody.g"));
  var sections = [].slice.call(doc.querySelectorAll("tbody.s"));
  var dis = el("f-dis"), bad = el("f-bad"), pass = el("f-pass"), q = el("f-q"), toolbar = el("toolbar");
  if (!toolbar) return;
  function sticky() { doc.documentElement.style.setProperty("--bar-h", toolbar.offsetHeight + "px"); }
  function apply(write) {
    var terms = q.value.toLowerCase().split(/\s+/).filter(Boolean), shown = 0, alt = false, live = {};
    rows.forEach(function (row) {
      var id = row.getAttribute("data-id").toLowerCase();
      var keep = (!dis.checked || row.hasAttribute("data-dis")) && (!bad.checked || row.hasAttribute("data-bad"))
        && (!pass.checked || !row.hasAttribute("data-pass"))
        && terms.every(function (term) { return id.indexOf(term) >= 0; });
      row.hidden = !keep;
      if (keep) { shown += 1; live[row.parentNode.getAttribute("data-sec")] = (live[row.parentNode.getAttribute("data-sec")] || 0) + 1; }
    });
    groups.forEach(function (group) {
      var any = group.querySelector("tr.v:not([hidden])") !== null;
      group.hidden = !any;
      if (any) { group.classList.toggle("alt", alt); alt = !alt; }
    });
    sections.forEach(function (section) {
      var kind = section.getAttribute("data-sec"), count = section.querySelector("[data-total]"), n = live[kind] || 0;
      section.hidden = n === 0;
      count.textContent = n === +count.getAttribute("data-total") ? n : n + " of " + count.getAttribute("data-total");
    });
    el("shown").textContent = shown;
    el("none").hidden = shown > 0;
    if (write) writeHash();
  }
  function setOpen(open) {
    rows.forEach(function (row) {
      if (row.hidden) return;
      [].forEach.call(row.querySelectorAll("details"), function (d) { d.open = open; });
    });
  }
  function writeHash() {
    var parts = [], only = [];
    if (dis.checked) only.push("disagreements");
    if (bad.checked) only.push("failing");
    if (only.length) parts.push("only=" + only.join(","));
    if (pass.checked) parts.push("hide=pass");
    if (q.value.trim()) parts.push("q=" + encodeURIComponent(q.value.trim()));
    try { history.replaceState(null, "", parts.length ? "#" + parts.join("&") : location.pathname + location.search); } catch (e) {}
  }
  function readHash() {
    var params = {}, known = false;
    location.hash.replace(/^#/, "").split("&").forEach(function (pair) {
      if (!pair) return;
      var at = pair.indexOf("="), key = at < 0 ? pair : pair.slice(0, at), value = at < 0 ? "" : pair.slice(at + 1);
      try { value = decodeURIComponent(value.replace(/\+/g, " ")); } catch (e) {}
      if (["only", "hide", "q", "expand"].indexOf(key) >= 0) { params[key] = value; known = true; }
    });
    if (!known) return;
    var only = (params.only || "").split(",");
    dis.checked = only.indexOf("disagreements") >= 0;
    bad.checked = only.indexOf("failing") >= 0 || only.indexOf("failures") >= 0;
    pass.checked = (params.hide || "").split(",").indexOf("pass") >= 0;
    q.value = params.q || "";
    apply(false);
    if ("expand" in params) setOpen(true);
  }
  [dis, bad, pass].forEach(function (box) { box.addEventListener("change", function () { apply(true); }); });
  q.addEventListener("input", function () { apply(true); });
  q.addEventListener("keydown", function (event) { if (event.key === "Escape") { q.value = ""; apply(true); } });
  el("f-open").addEventListener("click", function () { setOpen(true); });
  el("f-close").addEventListener("click", function () { setOpen(false); });
  el("f-reset").addEventListener("click", function () { dis.checked = bad.checked = pass.checked = false; q.value = ""; setOpen(false); apply(true); });
  window.addEventListener("hashchange", readHash);
  window.addEventListener("resize", sticky);
  sticky();
  readHash();
})();
