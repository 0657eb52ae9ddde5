/* Applies a saved light/dark choice before the page paints; without it the system setting rules. */
(function () {
  try {
    var theme = localStorage.getItem("jk-theme");
    if (theme === "dark" || theme === "light") document.documentElement.setAttribute("data-theme", theme);
  } catch (e) { /* storage may be disabled: follow the system */ }
})();
