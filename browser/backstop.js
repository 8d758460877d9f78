// The backstop: what the request rules cannot see, caught as a document commits.
import { api, GATE_PAGE } from "./api.js";
import { siteFor, inGrace, ungated } from "./host.js";
import { bypasses, refreshWorkerRules, endBypass } from "./rules.js";
import { sentHere, backstopped, lastAddress, lastAddressLoaded, remember } from "./tabs.js";
import { routeChanged } from "./page-gate.js";


// What the rules cannot see: a site's own service worker answering a navigation (Chromium's
// declarativeNetRequest never sees those requests), a back/forward-cache restore, a prerender
// made active. Each shows a document of a gated site with no request the rules could redirect,
// so a tab that comes to show a gated site without having been on it — an entry — is sent to
// the gate page the moment its document commits. Only the tab's last top-level address is
// needed to tell an entry from a visit going on; it is kept for the session, so a worker that
// restarts does not mistake a click inside a site for an entry.

async function shown(tabId, url, inPage = false) {
  if (typeof tabId !== "number" || tabId < 0 || typeof url !== "string") return;
  await lastAddressLoaded;
  const previous = lastAddress.get(tabId);
  if (previous === url || backstopped.has(tabId)) return;
  if (!inPage && isEntry(tabId, url, previous)) return sendToGate(tabId, url); // the tab stays where it was, for now
  remember(tabId, url);
  if (inPage) routeChanged(tabId, url, previous);
  if (siteFor(previous || "") !== siteFor(url)) refreshWorkerRules();
}

// Into a gated site from elsewhere, with nothing letting it in.
function isEntry(tabId, url, previous) {
  const site = siteFor(url);
  if (!site || bypasses.has(tabId) || inGrace(site) || ungated(site)) return false;
  return !(previous && siteFor(previous) === site); // else a visit going on
}

async function sendToGate(tabId, url) {
  const gatePage = GATE_PAGE + "#" + url;
  backstopped.set(tabId, gatePage);
  try {
    await api.tabs.update(tabId, { url: gatePage });
  } catch (error) {
    backstopped.delete(tabId); // the tab has gone
  }
}

api.webNavigation.onCommitted.addListener((details) => {
  // A prerendered document is not shown yet: its activation changes the tab's address.
  if (details.frameId !== 0 || (details.documentLifecycle && details.documentLifecycle !== "active")) return;
  // The gate page the backstop sent the tab to has arrived; until then, late news of the
  // document it replaced is not an entry to gate again.
  if (backstopped.get(details.tabId) === details.url) backstopped.delete(details.tabId);
  shown(details.tabId, details.url);
});
// A tab a page opens (a link with target=_blank, window.open) starts where that page is.
api.webNavigation.onCreatedNavigationTarget.addListener((details) => {
  const source = lastAddress.get(details.sourceTabId);
  if (source && !lastAddress.has(details.tabId)) remember(details.tabId, source);
});
// A navigation into a gated site that fails (its worker could not reach the site, above) is an
// entry all the same: the tab goes to the gate rather than to an error page.
api.webNavigation.onErrorOccurred.addListener(async (details) => {
  if (details.frameId !== 0 || /ABORTED/.test(details.error || "")) return;
  await lastAddressLoaded;
  if (!backstopped.has(details.tabId) && isEntry(details.tabId, details.url, lastAddress.get(details.tabId))) {
    sendToGate(details.tabId, details.url);
  }
});
// A route a page's own script makes (history.pushState) changes the tab's address too, with
// no document committed; page-gate.js hears of it as well, and the two come in either order.
// A change within one host that enters a gated site is that, or as good as that: the gate
// comes over the page, which stays as it was.
api.tabs.onUpdated.addListener((tabId, change) => {
  if (change.url) shown(tabId, change.url, sameHost(lastAddress.get(tabId), change.url));
});

function sameHost(one, other) {
  try {
    return typeof one === "string" && new URL(one).host === new URL(other).host;
  } catch (error) {
    return false;
  }
}

// The navigation after Open has arrived: later ones in this tab are gated again.
api.webNavigation.onCompleted.addListener((details) => {
  if (details.frameId === 0 && bypasses.has(details.tabId) && /^https?:/.test(details.url)) endBypass(details.tabId);
});

api.tabs.onRemoved.addListener((tabId) => {
  sentHere.delete(tabId);
  backstopped.delete(tabId);
  if (lastAddress.delete(tabId)) refreshWorkerRules();
  if (api.storage && api.storage.session) api.storage.session.remove("tab:" + tabId).catch(() => {});
  if (bypasses.has(tabId)) endBypass(tabId);
});
