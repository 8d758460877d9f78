// The gate over a page: gate.js's gate, in a closed shadow root above the page, for a tab miga
// gates where it stands (coming back to it, or a single-page site's route into a gated site).
// Not loaded as a module: scripts/build-extension.sh bundles it with gate-page.js,
// gate-questions.js and gate.js into page-gate-overlay.js, one classic script (a script
// injected into a page cannot be an ES module), with gate.html's <main> as GATE_MARKUP and
// gate.css as GATE_CSS. page-gate.js injects that file with scripting.executeScript's `files`
// into the tab's top frame, in the extension's isolated world (it is not web accessible), then
// calls `globalThis.__migaGate.show`. The page's own scripts see a custom element and nothing
// in it: the root is closed, keys and clicks count only when a person made them, the element
// comes back if the page removes it, and focus stays in the gate while it is up. The page
// under it is left as it was: its scroll, its half-typed text, its focus (given back after).
import { api, hangUp } from "./gate-page.js";
import { runGate } from "./gate.js";

const HOST_STYLE = {
  all: "initial", display: "block", position: "fixed", inset: "0", "z-index": "2147483647", margin: "0", padding: "0",
  border: "0", width: "auto", height: "auto", "max-width": "none", "max-height": "none", background: "transparent",
  overflow: "hidden", visibility: "visible", opacity: "1", "pointer-events": "auto", transform: "none", filter: "none",
  "clip-path": "none",
};

function styleHost(host) {
  for (const [name, value] of Object.entries(HOST_STYLE)) host.style.setProperty(name, value, "important");
}

// Above everything the page put in the top layer, when the browser has one for it.
function showOnTop(host) {
  try {
    if (host.getAttribute("popover") !== "manual") host.setAttribute("popover", "manual");
    if (!host.matches(":popover-open")) host.showPopover();
  } catch (error) {
    // an older browser: the z-index does
  }
}

// gate.css, as a constructed sheet (no page's style-src can refuse it), or as a <style> where
// a constructed sheet cannot be adopted.
function addStyles(shadow) {
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(GATE_CSS);
    shadow.adoptedStyleSheets = [sheet];
    return;
  } catch (error) {
    const style = document.createElement("style");
    style.textContent = GATE_CSS;
    shadow.append(style);
  }
}

function gateElements() {
  const template = document.createElement("template");
  template.innerHTML = GATE_MARKUP;
  const wrapper = document.createElement("div");
  wrapper.id = "miga-gate";
  wrapper.dataset.state = "asking";
  wrapper.setAttribute("role", "dialog");
  wrapper.setAttribute("aria-modal", "true");
  wrapper.setAttribute("aria-labelledby", "site");
  wrapper.tabIndex = -1;
  wrapper.append(template.content);
  return wrapper;
}

// A line in a corner when the gate went away because of miga, not the person: it takes no
// click and no focus, and goes by itself.
function sayFailure(line) {
  const host = document.createElement("miga-gate-notice");
  styleHost(host);
  for (const [name, value] of Object.entries({ inset: "auto 1rem 1rem auto", "pointer-events": "none", overflow: "visible" })) {
    host.style.setProperty(name, value, "important");
  }
  const shadow = host.attachShadow({ mode: "closed" });
  const toast = document.createElement("div");
  toast.setAttribute("role", "status");
  toast.textContent = line;
  toast.style.cssText = "background:#f4f1ea;color:#1f2a2e;border:1px solid #d9d3c7;border-radius:0.5rem;padding:0.6rem 1rem;" +
    "font:15px/1.4 system-ui,sans-serif;box-shadow:0 0.5rem 1.5rem rgba(0,0,0,0.18);max-width:32rem";
  shadow.append(toast);
  document.documentElement.append(host);
  showOnTop(host);
  setTimeout(() => host.remove(), 8000);
}

const SCROLL_KEYS = new Set(["ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End", " "]);

// Keys stay inside: nothing reaches the page's shortcuts, and a key that would scroll scrolls
// the gate, never the page beneath. The wheel likewise.
function keepInputInside(host, wrapper) {
  const keys = (event) => {
    event.stopPropagation();
    const field = event.composedPath()[0];
    const typing = field && (field.tagName === "INPUT" || field.tagName === "TEXTAREA");
    if (event.type === "keydown" && !event.defaultPrevented && !typing && SCROLL_KEYS.has(event.key)) {
      event.preventDefault();
      const page = wrapper.clientHeight * 0.9;
      const by = { ArrowUp: -40, ArrowDown: 40, PageUp: -page, PageDown: page, Home: -wrapper.scrollHeight, End: wrapper.scrollHeight, " ": page }[event.key];
      wrapper.scrollTop += by;
    }
  };
  for (const type of ["keydown", "keyup", "keypress", "input", "beforeinput", "paste", "copy", "cut"]) host.addEventListener(type, keys);
  host.addEventListener("wheel", (event) => {
    event.preventDefault();
    wrapper.scrollTop += event.deltaMode === 1 ? event.deltaY * 16 : event.deltaY;
  }, { passive: false });
}

// Focus stays in the gate while it is up. Returns what lets it go.
function keepFocus(host, shadow, wrapper) {
  const toGate = () => {
    if (!shadow.activeElement) wrapper.focus({ preventScroll: true });
  };
  const onFocusIn = (event) => {
    if (event.target !== host && host.isConnected) toGate();
  };
  document.addEventListener("focusin", onFocusIn, true);
  window.addEventListener("focus", toGate);
  return () => {
    document.removeEventListener("focusin", onFocusIn, true);
    window.removeEventListener("focus", toGate);
  };
}

// The element comes back when the page removes it, and its attributes when the page changes
// them, at once. Putting them back is itself a change the observer sees: it then finds nothing
// to do, so this never loops (a page with no root element to go back into waits for one).
function keepAttached(host) {
  let expected = null;
  const restyle = () => {
    for (const name of host.getAttributeNames()) if (name !== "style" && name !== "popover") host.removeAttribute(name);
    styleHost(host);
    if (host.getAttribute("popover") !== "manual") host.setAttribute("popover", "manual");
    expected = host.getAttribute("style");
  };
  const tampered = () => host.getAttribute("style") !== expected || host.getAttribute("popover") !== "manual" ||
    host.getAttributeNames().length !== 2;
  const check = () => {
    if (tampered()) restyle();
    if (!host.isConnected && document.documentElement) document.documentElement.append(host);
    if (host.isConnected) showOnTop(host);
  };
  restyle();
  check();
  const observer = new MutationObserver(check);
  observer.observe(document, { childList: true, subtree: true });
  observer.observe(host, { attributes: true });
  // The page closed the popover (hidePopover changes no attribute): it opens again.
  const reopen = (event) => { if (event.newState === "closed") showOnTop(host); };
  host.addEventListener("toggle", reopen);
  return () => {
    observer.disconnect();
    host.removeEventListener("toggle", reopen);
  };
}

let shown = null; // the gate over this page, when one is up

// The gate over this page for the worker's gate `nonce` (its port's name says it), asking
// for `target`; false in a frame.
function show(options) {
  if (shown) shown.remove();
  if (window.top !== window || !options || typeof options.nonce !== "string" || typeof options.target !== "string") return false;
  const pageFocus = document.activeElement;
  const host = document.createElement("miga-gate");
  styleHost(host);
  const shadow = host.attachShadow({ mode: "closed" });
  addStyles(shadow);
  const wrapper = gateElements();
  shadow.append(wrapper);
  keepInputInside(host, wrapper);
  const letFocusGo = keepFocus(host, shadow, wrapper);
  let letGo = () => {};
  const handle = {
    nonce: options.nonce,
    remove() {
      letGo();
      letFocusGo();
      host.remove();
      if (shown === handle) shown = null;
    },
  };
  shown = handle;
  // Open (or miga failing open): the page as it was, its focus given back.
  const uncover = (problem) => {
    hangUp();
    handle.remove();
    if (problem) sayFailure(problem);
    if (pageFocus && pageFocus.isConnected && typeof pageFocus.focus === "function") pageFocus.focus({ preventScroll: true });
  };
  if (document.fullscreenElement && document.exitFullscreen) document.exitFullscreen().catch(() => {});
  document.documentElement.append(host);
  letGo = keepAttached(host);
  wrapper.focus({ preventScroll: true });
  runGate({
    dom: shadow,
    root: wrapper,
    keys: shadow,
    target: options.target,
    isPost: false,
    framed: false,
    transport: {
      connect: () => api.runtime.connect({ name: "page-gate:" + options.nonce }),
      open: (url, problem) => uncover(problem),
      navigate: (url) => { handle.remove(); location.replace(url); },
      // Exit: the worker closes the tab or sends it to the calm page; if it could not, the
      // person keeps the page.
      closed: (reply) => { if (!reply || reply.type === "error") uncover("miga could not close this tab; it stays as it was."); },
      title: () => {},
    },
  });
  return true;
}

// The gate of `nonce` goes, if it is the one shown (the worker gave up on it).
function remove(nonce) {
  if (shown && shown.nonce === nonce) shown.remove();
}

globalThis.__migaGate = { show, remove };
