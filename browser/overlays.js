// What the soft end puts in a page. These functions run in the page's tab, in the extension's
// isolated world (scripting.executeScript's `func`, which sends each function's own text), each
// on its own: they use nothing from this module or any other.
// These functions run in the page's tab, in the extension's isolated world (scripting), each on
// its own: they use nothing from this file. What they show lives in a closed shadow root,
// styled from inside (inline, so a page's style-src policy cannot strip it), so the page's CSS
// cannot restyle it and its scripts cannot read or click it; the host element's own styles are
// inline and important. Only its tag name shows that something is there.

export function softEndOverlay(options) {
  const api = globalThis.browser ?? globalThis.chrome;
  if (globalThis.__migaSoftEnd) globalThis.__migaSoftEnd.remove();
  if (window.top !== window) return false;
  const dark = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
  const color = dark
    ? { ink: "#e6e2d8", soft: "#9aa5a8", accent: "#6cc3ad", calm: "#1b2224", line: "#34403f", dim: "rgba(8, 12, 13, 0.72)" }
    : { ink: "#1f2a2e", soft: "#5d6b70", accent: "#2f7d6d", calm: "#f4f1ea", line: "#d9d3c7", dim: "rgba(31, 42, 46, 0.55)" };
  const style = (element, styles) => {
    for (const [name, value] of Object.entries(styles)) element.style.setProperty(name, value, "important");
    return element;
  };
  const make = (tag, styles, text) => {
    const element = style(document.createElement(tag), styles);
    if (text != null) element.textContent = text;
    return element;
  };

  const host = document.createElement("miga-soft-end");
  style(host, { all: "initial", display: "block", position: "fixed", inset: "0", "z-index": "2147483647", margin: "0",
    padding: "0", border: "0", width: "auto", height: "auto", "max-width": "none", "max-height": "none",
    background: "transparent", overflow: "hidden" });
  const shadow = host.attachShadow({ mode: "closed" });
  const layer = make("div", { position: "absolute", inset: "0", display: "flex", "align-items": "center",
    "justify-content": "center", background: color.dim, font: '18px/1.6 system-ui, -apple-system, "Segoe UI", Cantarell, sans-serif',
    color: color.ink, "text-align": "left", "letter-spacing": "normal", "overscroll-behavior": "contain" });
  const card = make("div", { background: color.calm, color: color.ink, "max-width": "34rem", margin: "1rem",
    padding: "1.75rem 2rem", "border-radius": "0.75rem", border: `1px solid ${color.line}`,
    "box-shadow": "0 1rem 3rem rgba(0, 0, 0, 0.25)", outline: "none" });
  card.tabIndex = -1;
  card.setAttribute("role", "alertdialog");
  card.setAttribute("aria-modal", "true");
  const header = make("p", { margin: "0", color: color.soft, "font-size": "0.9rem", "letter-spacing": "0.05em" }, "miga");
  const title = make("p", { margin: "0.5rem 0 0", "font-size": "1.3rem", "line-height": "1.4" },
    `Your ${options.minutes} minutes on ${options.site} are up`);
  title.id = "title";
  card.setAttribute("aria-labelledby", "title");
  const row = make("div", { display: "flex", gap: "0.75rem", "flex-wrap": "wrap", "margin-top": "1.5rem" });
  const status = make("p", { margin: "0.5rem 0 0", color: color.soft, "font-size": "0.85rem", "min-height": "1.2em" });
  status.setAttribute("role", "status");
  const buttons = [];
  const button = (id, label, primary) => {
    const element = make("button", { font: "inherit", padding: "0.55rem 1.1rem", "border-radius": "0.5rem",
      border: `1px solid ${primary ? color.accent : color.line}`, background: "transparent",
      color: primary ? color.accent : color.ink, "font-weight": primary ? "600" : "400", cursor: "pointer", outline: "none",
      "outline-offset": "1px" }, label);
    element.type = "button";
    element.id = id;
    element.addEventListener("focus", () => element.style.setProperty("outline", `2px solid ${color.accent}`, "important"));
    element.addEventListener("blur", () => element.style.setProperty("outline", "none", "important"));
    element.addEventListener("click", (event) => choose(id, event));
    buttons.push(element);
    row.append(element);
  };
  // The choices the host offers, in its order ("extend" only while it may be given).
  const labels = { close: "Close tab", extend: options.extendLabel, keep: "Keep going" };
  for (const choice of options.choices) if (labels[choice]) button(choice, labels[choice], choice === "close");
  card.append(header, title, row, status);
  layer.append(card);
  shadow.append(layer);

  let busy = false;
  async function choose(choice, event) {
    if (!event.isTrusted || busy) return; // a person's click or key, nothing a page made up
    busy = true;
    for (const element of buttons) element.setAttribute("aria-disabled", "true");
    status.textContent = "…";
    let reply = null;
    try {
      reply = await api.runtime.sendMessage({ type: "soft_end", session: options.session, choice });
    } catch (error) {
      reply = null; // the extension is gone, or the tab is closing
    }
    // The extension does the rest (closes the tab, or takes the overlay down everywhere);
    // without its word, the person keeps their page.
    if (!reply || !reply.ok || reply.remove) remove();
  }

  // Keys stay inside: Tab goes round the three buttons, nothing reaches the page's shortcuts.
  const keys = (event) => {
    if (event.type === "keydown" && event.key === "Tab" && buttons.length) {
      const index = buttons.indexOf(shadow.activeElement);
      const next = event.shiftKey ? (index <= 0 ? buttons.length - 1 : index - 1) : (index + 1) % buttons.length;
      buttons[next].focus();
      event.preventDefault();
    }
    event.stopPropagation();
  };
  for (const type of ["keydown", "keyup", "keypress"]) host.addEventListener(type, keys);
  layer.addEventListener("wheel", (event) => event.preventDefault(), { passive: false });
  // Focus stays with the overlay while it is up (the card itself: no key acts by accident).
  let refocusing = false;
  const keepFocus = (event) => {
    if (refocusing || event.target === host || !host.isConnected) return;
    refocusing = true;
    card.focus({ preventScroll: true });
    refocusing = false;
  };
  const onWindowFocus = () => { if (!shadow.activeElement) card.focus({ preventScroll: true }); };
  document.addEventListener("focusin", keepFocus, true);
  window.addEventListener("focus", onWindowFocus);

  function remove() {
    document.removeEventListener("focusin", keepFocus, true);
    window.removeEventListener("focus", onWindowFocus);
    host.remove();
    if (globalThis.__migaSoftEnd === handle) globalThis.__migaSoftEnd = null;
  }
  const handle = { session: options.session, remove };
  globalThis.__migaSoftEnd = handle;

  if (document.fullscreenElement && document.exitFullscreen) document.exitFullscreen().catch(() => {});
  document.documentElement.append(host);
  // Above everything the page put in the top layer, when the browser has one for it.
  try {
    host.setAttribute("popover", "manual");
    host.showPopover();
  } catch (error) {
    // an older browser: the z-index does
  }
  card.focus({ preventScroll: true });
  return true;
}

export function removeSoftEnd(session) {
  const shown = globalThis.__migaSoftEnd;
  if (shown && shown.session === session) shown.remove();
}

export function softEndNotice(options) {
  if (window.top !== window) return false;
  if (globalThis.__migaNotice) globalThis.__migaNotice.remove();
  const dark = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
  const host = document.createElement("miga-notice");
  const style = (element, styles) => {
    for (const [name, value] of Object.entries(styles)) element.style.setProperty(name, value, "important");
    return element;
  };
  style(host, { all: "initial", display: "block", position: "fixed", inset: "auto 1rem 1rem auto", "z-index": "2147483647",
    margin: "0", padding: "0", border: "0", width: "auto", height: "auto",
    background: "transparent", "pointer-events": "none" });
  const shadow = host.attachShadow({ mode: "closed" });
  const toast = style(document.createElement("div"), {
    background: dark ? "#1b2224" : "#f4f1ea", color: dark ? "#e6e2d8" : "#1f2a2e", border: `1px solid ${dark ? "#34403f" : "#d9d3c7"}`,
    "border-radius": "0.5rem", padding: "0.6rem 1rem", font: '15px/1.4 system-ui, -apple-system, "Segoe UI", Cantarell, sans-serif',
    "box-shadow": "0 0.5rem 1.5rem rgba(0, 0, 0, 0.18)", opacity: "0.96" });
  toast.setAttribute("role", "status");
  toast.textContent = `1 minute left on ${options.site}`;
  shadow.append(toast);
  document.documentElement.append(host);
  try {
    host.setAttribute("popover", "manual");
    host.showPopover();
  } catch (error) {
    // the z-index does
  }
  const timer = setTimeout(() => handle.remove(), 10000);
  const handle = { remove: () => { clearTimeout(timer); host.remove(); if (globalThis.__migaNotice === handle) globalThis.__migaNotice = null; } };
  globalThis.__migaNotice = handle;
  return true;
}
