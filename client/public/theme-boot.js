// Before the first paint: the theme chosen in the account menu (client/src/theme.ts, same key).
try {
  var theme = localStorage.getItem("goblin-bazaar.theme");
  if (theme === "light" || theme === "dark") document.documentElement.dataset.theme = theme;
} catch (e) {}
