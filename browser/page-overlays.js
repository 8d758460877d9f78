// What the soft end puts in a page: the overlay at the end of a timebox, and the quiet notice a
// minute before it. A classic script, not a module (a script injected into a page cannot be
// one): overlays.js injects this file into a tab's top frame with scripting.executeScript's
// `files`, in the extension's isolated world, where it leaves `globalThis.__migaOverlay`, and
// then calls it with the host's words. So it uses nothing from any other file, and the page's
// own scripts never see it. It is not web accessible: nothing a page loads can name it.
// What it shows lives in a closed shadow root, styled from inside (inline, so a page's
// style-src policy cannot strip it), so the page's CSS cannot restyle it and its scripts cannot
// read or click it; the host element's own styles are inline and important. Only its tag name
// shows that something is there.
// Its functions are declared at the top (the isolated world's global, which only this
// extension's injected scripts share), and it declares no `const` or `let` there, so it may be
// injected into the same page again.

// The gate page's font, at `size` (and line height).
function overlayFont(size) {
  return `${size} system-ui, -apple-system, "Segoe UI", Cantarell, sans-serif`;
}

// The colours of the gate page, light or dark as the person's system is.
function palette() {
  const dark = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
  return dark
    ? { ink: "#e6e2d8", soft: "#9aa5a8", accent: "#6cc3ad", calm: "#1b2224", line: "#34403f", dim: "rgba(8, 12, 13, 0.72)" }
    : { ink: "#1f2a2e", soft: "#5d6b70", accent: "#2f7d6d", calm: "#f4f1ea", line: "#d9d3c7", dim: "rgba(31, 42, 46, 0.55)" };
}

// Inline and important, in the order given (`all` first, so it resets only the page's).
function style(element, styles) {
  for (const [name, value] of Object.entries(styles)) element.style.setProperty(name, value, "important");
  return element;
}

function make(tag, styles, text) {
  const element = style(document.createElement(tag), styles);
  if (text != null) element.textContent = text;
  return element;
}

// Above everything the page put in the top layer, when the browser has one for it.
function showOnTop(host) {
  try {
    host.setAttribute("popover", "manual");
    host.showPopover();
  } catch (error) {
    // an older browser: the z-index does
  }
}

// ---- the soft end ------------------------------------------------------------------------

function softEndHost() {
  return style(document.createElement("miga-soft-end"), { all: "initial", display: "block", position: "fixed", inset: "0",
    "z-index": "2147483647", margin: "0", padding: "0", border: "0", width: "auto", height: "auto", "max-width": "none",
    "max-height": "none", background: "transparent", overflow: "hidden" });
}

// The dimmed layer over the page and the card on it: "miga", the title, a row for the
// buttons and a line that says the choice is on its way.
function softEndCard(color, options) {
  const layer = make("div", { position: "absolute", inset: "0", display: "flex", "align-items": "center",
    "justify-content": "center", background: color.dim, font: overlayFont("18px/1.6"),
    color: color.ink, "text-align": "left", "letter-spacing": "normal", "overscroll-behavior": "contain" });
  const card = make("div", { background: color.calm, color: color.ink, "max-width": "34rem", margin: "1rem",
    padding: "1.75rem 2rem", "border-radius": "0.75rem", border: `1px solid ${color.line}`,
    "box-shadow": "0 1rem 3rem rgba(0, 0, 0, 0.25)", outline: "none" });
  card.tabIndex = -1;
  card.setAttribute("role", "alertdialog");
  card.setAttribute("aria-modal", "true");
  const header = make("p", { margin: "0", color: color.soft, "font-size": "0.9rem", "letter-spacing": "0.05em" }, "miga");
  // The host's own words when it gives them (the daily budget's), else the timebox's line.
  const title = make("p", { margin: "0.5rem 0 0", "font-size": "1.3rem", "line-height": "1.4" },
    typeof options.message === "string" && options.message ? options.message
      : `Your ${options.minutes} minute${options.minutes === 1 ? "" : "s"} on ${options.site} ${options.minutes === 1 ? "is" : "are"} up`);
  title.id = "title";
  card.setAttribute("aria-labelledby", "title");
  const row = make("div", { display: "flex", gap: "0.75rem", "flex-wrap": "wrap", "margin-top": "1.5rem" });
  const status = make("p", { margin: "0.5rem 0 0", color: color.soft, "font-size": "0.85rem", "min-height": "1.2em" });
  status.setAttribute("role", "status");
  card.append(header, title, row, status);
  layer.append(card);
  return { layer, card, row, status };
}

function choiceButton(color, id, label, primary, onClick) {
  const element = make("button", { font: "inherit", padding: "0.55rem 1.1rem", "border-radius": "0.5rem",
    border: `1px solid ${primary ? color.accent : color.line}`, background: "transparent",
    color: primary ? color.accent : color.ink, "font-weight": primary ? "600" : "400", cursor: "pointer", outline: "none",
    "outline-offset": "1px" }, label);
  element.type = "button";
  element.id = id;
  element.addEventListener("focus", () => element.style.setProperty("outline", `2px solid ${color.accent}`, "important"));
  element.addEventListener("blur", () => element.style.setProperty("outline", "none", "important"));
  element.addEventListener("click", (event) => onClick(id, event));
  return element;
}

// The choices the host offers, in its order ("extend" only while it may be given): a name, or
// {choice, label} with the host's label.
function choiceButtons(color, options, row, onClick) {
  const labels = { close: "Close tab", extend: options.extendLabel, keep: "Keep going" };
  const buttons = [];
  for (const entry of options.choices) {
    const choice = entry && typeof entry === "object" ? entry.choice : entry;
    const label = entry && typeof entry === "object" && typeof entry.label === "string" && entry.label ? entry.label : labels[choice];
    if (typeof choice !== "string" || !Object.hasOwn(labels, choice) || !label) continue;
    buttons.push(choiceButton(color, choice, label, choice === "close", onClick));
  }
  row.append(...buttons);
  return buttons;
}

// A person's click says the choice to the extension, once. It does the rest (closes the
// tab, or takes the overlay down everywhere); without its word, the person keeps their page.
function chooser(options, buttons, status, remove) {
  const api = globalThis.browser ?? globalThis.chrome;
  let busy = false;
  return async (choice, event) => {
    if (!event.isTrusted || busy) return; // a person's click or key, nothing a page made up
    busy = true;
    for (const element of buttons) element.setAttribute("aria-disabled", "true");
    status.textContent = "…";
    let reply = null;
    try {
      // `reply`: the message the choice goes back as (the budget's is "budget_end").
      reply = await api.runtime.sendMessage({ type: options.reply === "budget_end" ? "budget_end" : "soft_end",
        session: options.session, choice });
    } catch (error) {
      reply = null; // the extension is gone, or the tab is closing
    }
    if (!reply || !reply.ok || reply.remove) remove();
  };
}

// Keys stay inside: Tab goes round the buttons, nothing reaches the page's shortcuts; the
// wheel does not scroll the page beneath.
function keepKeysInside(host, shadow, layer, buttons) {
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
}

// Focus stays with the overlay while it is up (the card itself: no key acts by accident).
// Returns what lets it go.
function keepFocus(host, shadow, card) {
  let refocusing = false;
  const onFocusIn = (event) => {
    if (refocusing || event.target === host || !host.isConnected) return;
    refocusing = true;
    card.focus({ preventScroll: true });
    refocusing = false;
  };
  const onWindowFocus = () => { if (!shadow.activeElement) card.focus({ preventScroll: true }); };
  document.addEventListener("focusin", onFocusIn, true);
  window.addEventListener("focus", onWindowFocus);
  return () => {
    document.removeEventListener("focusin", onFocusIn, true);
    window.removeEventListener("focus", onWindowFocus);
  };
}

// The overlay in this page (the one shown before goes first); false in a frame.
function softEnd(options) {
  if (globalThis.__migaSoftEnd) globalThis.__migaSoftEnd.remove();
  if (window.top !== window) return false;
  const color = palette();
  const host = softEndHost();
  const shadow = host.attachShadow({ mode: "closed" });
  const { layer, card, row, status } = softEndCard(color, options);
  const buttons = choiceButtons(color, options, row, (choice, event) => choose(choice, event));
  shadow.append(layer);
  const choose = chooser(options, buttons, status, () => remove());
  keepKeysInside(host, shadow, layer, buttons);
  const letFocusGo = keepFocus(host, shadow, card);
  const handle = { session: options.session, remove };
  function remove() {
    letFocusGo();
    host.remove();
    if (globalThis.__migaSoftEnd === handle) globalThis.__migaSoftEnd = null;
  }
  globalThis.__migaSoftEnd = handle;
  if (document.fullscreenElement && document.exitFullscreen) document.exitFullscreen().catch(() => {});
  document.documentElement.append(host);
  showOnTop(host);
  card.focus({ preventScroll: true });
  return true;
}

// The overlay of `session` goes, if it is the one shown.
function removeSoftEnd(session) {
  const shown = globalThis.__migaSoftEnd;
  if (shown && shown.session === session) shown.remove();
}

// ---- the minute's notice -----------------------------------------------------------------

// A quiet line in a corner for ten seconds; it takes no click and no focus.
function notice(options) {
  if (window.top !== window) return false;
  if (globalThis.__migaNotice) globalThis.__migaNotice.remove();
  const color = palette();
  const host = style(document.createElement("miga-notice"), { all: "initial", display: "block", position: "fixed",
    inset: "auto 1rem 1rem auto", "z-index": "2147483647", margin: "0", padding: "0", border: "0", width: "auto",
    height: "auto", background: "transparent", "pointer-events": "none" });
  const shadow = host.attachShadow({ mode: "closed" });
  const toast = make("div", { background: color.calm, color: color.ink, border: `1px solid ${color.line}`,
    "border-radius": "0.5rem", padding: "0.6rem 1rem", font: overlayFont("15px/1.4"),
    "box-shadow": "0 0.5rem 1.5rem rgba(0, 0, 0, 0.18)", opacity: "0.96" }, `1 minute left on ${options.site}`);
  toast.setAttribute("role", "status");
  shadow.append(toast);
  document.documentElement.append(host);
  showOnTop(host);
  const timer = setTimeout(() => handle.remove(), 10000);
  const handle = { remove: () => { clearTimeout(timer); host.remove(); if (globalThis.__migaNotice === handle) globalThis.__migaNotice = null; } };
  globalThis.__migaNotice = handle;
  return true;
}

globalThis.__migaOverlay = { softEnd, removeSoftEnd, notice };
