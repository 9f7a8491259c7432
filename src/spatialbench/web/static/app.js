// Seek buttons: <button class="seek" data-seek="SECONDS" data-video="ID"> sets the video's time.
document.addEventListener("click", function (event) {
  var button = event.target.closest("button.seek");
  if (!button) { return; }
  var video = document.getElementById(button.dataset.video);
  if (video) {
    video.currentTime = parseFloat(button.dataset.seek); video.pause();
    var box = video.getBoundingClientRect();
    if (box.bottom < 0 || box.top > window.innerHeight) { video.scrollIntoView({block: "nearest"}); }
  }
});

// Tables with class "sortable": a click on a header sorts by that column (numbers as numbers).
document.addEventListener("click", function (event) {
  var th = event.target.closest("th.sortable");
  if (!th) { return; }
  var table = th.closest("table"), body = table.tBodies[0], col = th.cellIndex;
  var down = th.dataset.dir !== "asc"; th.dataset.dir = down ? "asc" : "desc";
  var key = function (row) {
    var text = row.cells[col].innerText.trim(), num = parseFloat(text);
    return isNaN(num) || !/^[-\d.]/.test(text) ? text.toLowerCase() : num;
  };
  var rows = Array.prototype.slice.call(body.rows);
  rows.sort(function (a, b) {
    var x = key(a), y = key(b);
    if (typeof x !== typeof y) { x = String(x); y = String(y); }
    return (x < y ? -1 : x > y ? 1 : 0) * (down ? 1 : -1);
  });
  rows.forEach(function (row) { body.appendChild(row); });
});

// A search box with data-filter="TABLE-ID" hides the rows whose text lacks every typed word.
document.addEventListener("input", function (event) {
  var box = event.target;
  if (!box.dataset || !box.dataset.filter) { return; }
  var words = box.value.toLowerCase().split(/\s+/).filter(Boolean);
  var shown = 0, rows = document.querySelectorAll("#" + box.dataset.filter + " tbody tr");
  rows.forEach(function (row) {
    var text = row.innerText.toLowerCase();
    var hit = words.every(function (w) { return text.indexOf(w) >= 0; });
    row.hidden = !hit; if (hit) { shown += 1; }
  });
  var count = document.getElementById("shown-count");
  if (count) { count.textContent = shown + " shown"; }
});

// Selects with class "auto" submit their form when changed (filters apply at once).
document.addEventListener("change", function (event) {
  if (event.target.matches("select.auto")) { event.target.form.submit(); }
});

// Inputs with class "remember" keep their value (the reviewer's name) in localStorage.
document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("input.remember").forEach(function (input) {
    var key = "spatialbench." + input.dataset.key;
    if (!input.value && window.localStorage.getItem(key)) { input.value = window.localStorage.getItem(key); }
    input.addEventListener("change", function () { window.localStorage.setItem(key, input.value); });
  });
});
