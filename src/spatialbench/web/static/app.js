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

// A form.live (browse's filters) applies as you type or choose: the element its data-results names is
// replaced by the same element of the page its query answers (all items filtered and sorted on the
// server). data-results is read with getAttribute: the form's "dataset" select shadows form.dataset.
var liveTimer = null;
function applyLive(form) {
  var target = document.getElementById(form.getAttribute("data-results"));
  var url = form.action.split("?")[0] + "?" + new URLSearchParams(new FormData(form)).toString();
  fetch(url, {headers: {accept: "text/html"}}).then(function (reply) { return reply.text(); }).then(function (html) {
    var page = new DOMParser().parseFromString(html, "text/html");
    var fresh = page.getElementById(form.getAttribute("data-results"));
    if (fresh && target) { target.replaceWith(fresh); window.history.replaceState(null, "", url); }
  });
}
document.addEventListener("input", function (event) {
  var form = event.target.form;
  if (!form || !form.classList.contains("live")) { return; }
  window.clearTimeout(liveTimer);
  liveTimer = window.setTimeout(function () { applyLive(form); }, 250);
});
document.addEventListener("change", function (event) {
  var form = event.target.form;
  if (form && form.classList.contains("live") && event.target.matches("select")) { applyLive(form); }
});
document.addEventListener("submit", function (event) {
  if (event.target.classList.contains("live")) { event.preventDefault(); applyLive(event.target); }
});

// Inputs with class "remember" keep their value (the reviewer's name) in localStorage.
document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("input.remember").forEach(function (input) {
    var key = "spatialbench." + input.dataset.key;
    if (!input.value && window.localStorage.getItem(key)) { input.value = window.localStorage.getItem(key); }
    input.addEventListener("change", function () { window.localStorage.setItem(key, input.value); });
  });
});
