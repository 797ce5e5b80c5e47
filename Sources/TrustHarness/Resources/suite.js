(function () {
  var select = document.getElementById('only');
  var rows = Array.prototype.slice.call(document.querySelectorAll('table.limbo tbody tr'));
  function apply() {
    var want = select.value, shown = 0;
    rows.forEach(function (row) {
      var show = !want || row.getAttribute('data-outcomes').split(' ').indexOf(want) >= 0;
      row.hidden = !show;
      if (show) { shown += 1; }
    });
    document.getElementById('shown').textContent = shown + ' of ' + rows.length + ' cases';
  }
  var match = /only=([a-z-]+)/.exec(location.hash);
  if (match) { select.value = match[1]; }
  select.addEventListener('change', apply);
  apply();
})();
