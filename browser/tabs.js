// What the extension remembers of each tab: where its last top-level navigation went, and the
// address it last showed (kept in storage.session, so a worker that restarts keeps it).
import { api } from "./api.js";

// Tabs whose last top-level navigation went to a web address (or to a gate page the backstop
// sent them to): a gate page in such a tab is one miga sent there. gate.html must be reachable
// from the web for the rules to send a tab to it, so a site could open it itself (a frame, a
// link, window.open, a redirect of its own); such a page gets nothing: no event, no bypass.
export const sentHere = new Set();
export const backstopped = new Map(); // tabId → the gate page address the backstop sent it to

export const lastAddress = new Map(); // tabId → the last top-level address the tab showed
export const lastAddressLoaded = api.storage && api.storage.session
  ? api.storage.session.get(null).then((saved) => {
    for (const [key, url] of Object.entries(saved || {})) {
      if (key.startsWith("tab:") && !lastAddress.has(Number(key.slice(4)))) lastAddress.set(Number(key.slice(4)), url);
    }
  }).catch(() => {})
  : Promise.resolve();

export function remember(tabId, url) {
  lastAddress.set(tabId, url);
  if (api.storage && api.storage.session) api.storage.session.set({ ["tab:" + tabId]: url }).catch(() => {});
}
