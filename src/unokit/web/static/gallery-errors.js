// Shows a script error on the gallery page (tests/web_static read it).
window.addEventListener("error", (e) => {
  document.getElementById("error").textContent = "Error: " + e.message;
});
