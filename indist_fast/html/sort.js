/* Sortable segment tables: a click on a heading sorts the rows by that column's
   data-value (numbers as numbers, NaN last), a second click reverses. */
"use strict";
(function () {
  function key(cell) {
    var v = cell.getAttribute("data-value");
    var x = Number(v);
    return (v !== null && v !== "" && !isNaN(x)) ? x : v;
  }
  function compare(a, b) {
    var na = typeof a === "number", nb = typeof b === "number";
    if (na && nb) return a - b;
    if (na) return -1;
    if (nb) return 1;
    return String(a).localeCompare(String(b));
  }
  var tables = document.querySelectorAll("table.segments");
  Array.prototype.forEach.call(tables, function (table) {
    var heads = table.querySelectorAll("thead th");
    Array.prototype.forEach.call(heads, function (th, col) {
      th.addEventListener("click", function () {
        var asc = !th.classList.contains("sorted-asc");
        Array.prototype.forEach.call(heads, function (h) { h.classList.remove("sorted-asc", "sorted-desc"); });
        th.classList.add(asc ? "sorted-asc" : "sorted-desc");
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (r1, r2) {
          var c = compare(key(r1.cells[col]), key(r2.cells[col]));
          return asc ? c : -c;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });
})();
