// Shared by the UI and the static report (spatialbench.views.tables).
// Tables with th.sortable headers: a click sorts the rows by that column (numbers as numbers), a second
// click reverses; the header's aria-sort says the direction (the stylesheet draws the arrow).
document.addEventListener("click", function (event) {
  var th = event.target.closest("th.sortable");
  if (!th) { return; }
  var table = th.closest("table"), body = table.tBodies[0], col = th.cellIndex;
  var down = th.getAttribute("aria-sort") === "ascending";
  table.querySelectorAll("th.sortable").forEach(function (other) { other.setAttribute("aria-sort", "none"); });
  th.setAttribute("aria-sort", down ? "descending" : "ascending");
  var key = function (row) {
    var text = row.cells[col].innerText.trim(), num = parseFloat(text);
    return isNaN(num) || !/^[-\d.]/.test(text) ? text.toLowerCase() : num;
  };
  var rows = Array.prototype.slice.call(body.rows);
  rows.sort(function (a, b) {
    var x = key(a), y = key(b);
    if (typeof x !== typeof y) { x = String(x); y = String(y); }
    return (x < y ? -1 : x > y ? 1 : 0) * (down ? -1 : 1);
  });
  rows.forEach(function (row) { body.appendChild(row); });
});

// A search box with data-filter="SELECTOR" hides the rows of those tables whose text lacks a typed word;
// an element with id "shown-count" (when there is one) tells how many rows are left.
document.addEventListener("input", function (event) {
  var box = event.target;
  if (!box.dataset || !box.dataset.filter) { return; }
  var words = box.value.toLowerCase().split(/\s+/).filter(Boolean);
  var shown = 0, rows = document.querySelectorAll(box.dataset.filter + " tbody tr");
  rows.forEach(function (row) {
    var text = row.innerText.toLowerCase();
    var hit = words.every(function (w) { return text.indexOf(w) >= 0; });
    row.hidden = !hit; if (hit) { shown += 1; }
  });
  var count = document.getElementById("shown-count");
  if (count) { count.textContent = shown + " shown"; }
});
