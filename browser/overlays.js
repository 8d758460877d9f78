// What the soft end puts in a page, put there: the overlay and the minute's notice are
// page-overlays.js, a classic script (a script injected into a page cannot be an ES module)
// that leaves `globalThis.__migaOverlay` in the extension's isolated world of the tab's top
// frame. Each call injects that file (`files`: it need not be, and is not, web accessible),
// then calls it with the host's words (`func`, which sends the arrow's own text, so it names
// nothing but that global; a document that replaced the page between the two is answered
// false, and the navigation's end shows the overlay there again).
import { api } from "./api.js";

const PAGE_SCRIPT = "page-overlays.js";

async function inPage(tabId, func, options) {
  const target = { tabId };
  await api.scripting.executeScript({ target, files: [PAGE_SCRIPT] });
  return api.scripting.executeScript({ target, func, args: [options] });
}

// The soft end in tab `tabId`: {session, site, minutes, choices, extendLabel}, or the daily
// budget's {session, site, message, choices: [{choice, label}], reply: "budget_end"}.
export function showSoftEnd(tabId, options) {
  return inPage(tabId, (options) => (globalThis.__migaOverlay ? globalThis.__migaOverlay.softEnd(options) : false), options);
}

// The quiet notice a minute before the end: {site}.
export function showNotice(tabId, options) {
  return inPage(tabId, (options) => (globalThis.__migaOverlay ? globalThis.__migaOverlay.notice(options) : false), options);
}

// The soft end of `session` goes from tab `tabId`, if it is there (a page that never had it
// has nothing to take down, and needs no script for that).
export function removeSoftEnd(tabId, session) {
  return api.scripting.executeScript({
    target: { tabId },
    func: (session) => { if (globalThis.__migaOverlay) globalThis.__migaOverlay.removeSoftEnd(session); },
    args: [session],
  });
}
