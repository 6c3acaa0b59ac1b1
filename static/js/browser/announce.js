// The page's live region: short sentences a screen reader speaks as things happen.

let timer = null;

export function announce(text) {
  const region = document.getElementById("announcer");
  if (!region || !text) return;
  // Clear first so the same sentence twice in a row is spoken twice.
  region.textContent = "";
  clearTimeout(timer);
  timer = setTimeout(() => { region.textContent = text; }, 30);
}
