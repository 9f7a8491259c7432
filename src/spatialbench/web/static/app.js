// Seek buttons: <button class="seek" data-seek="SECONDS" data-video="ID"> sets the video's time.
document.addEventListener("click", function (event) {
  var button = event.target.closest("button.seek");
  if (!button) { return; }
  var video = document.getElementById(button.dataset.video);
  if (video) { video.currentTime = parseFloat(button.dataset.seek); video.pause(); }
});
