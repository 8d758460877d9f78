// The gate over a page: for a tab that is already on a gated site — a tab coming back to the
// front after a long time away (returns), or a single-page site's route into a gated site,
// which no request reveals (`history.pushState`, below) — miga's gate is shown over the page
// where it stands, instead of sending the tab to the gate page and losing the page. It is the
// same gate (page-gate-overlay.js, built from gate.html's modules), asked of the same host,
// served by the same handlers (gates.js's serveGate). Only the tab this injected it into, on
// the port whose name carries this gate's one-time nonce, is answered, and only for this
// gate's session. Any fault uncovers the page (fail open).
import { api } from "./api.js";
import { request } from "./protocol.js";
import { ask, siteFor, webAddress } from "./host.js";
import { serveGate, learnGrace } from "./gates.js";
import { bypasses } from "./rules.js";
import { lastAddress, lastAddressLoaded, remember } from "./tabs.js";

const OVERLAY_SCRIPT = "page-gate-overlay.js";
const PORT_PREFIX = "page-gate:";
const CONNECT_TIMEOUT_MS = 10000; // the injected gate connects at once; silence is a fault

const overlays = new Map(); // nonce → {nonce, tabId, url, site, reply, port, result, settle, done}
const shownIn = new Map(); // tabId → the promise of the gate over that tab's page

// The gate over tab `tabId`'s page at `url`. Resolves to how it ended: "open" (Open, or the
// host let the site in without a gate: nothing was shown), "exit" (Exit: the tab closes or
// shows the calm page), "gone" (the tab closed or left the page first) or "failed" (miga could
// not show or finish it; the page is uncovered, with one line when something was shown).
// `reentry`: a coming-back gate (recorded so).
export function showGateOverPage(tabId, url, { reentry = false } = {}) {
  if (shownIn.has(tabId)) return shownIn.get(tabId);
  const shown = gateOverPage(tabId, url, reentry === true).catch((error) => {
    console.warn("miga: the gate over the page:", error);
    return "failed";
  }).finally(() => shownIn.delete(tabId));
  shownIn.set(tabId, shown);
  return shown;
}

async function gateOverPage(tabId, url, reentry) {
  const address = webAddress(url);
  if (!Number.isInteger(tabId) || tabId < 0 || !address) return "failed";
  const asked = { url: address };
  if (reentry) asked.reentry = true;
  let reply;
  try {
    reply = await ask(request("gate", asked));
  } catch (error) {
    return "failed"; // no host: no gate
  }
  if (reply.type === "error") return "failed";
  if (reply.action !== "gate") {
    await learnGrace(reply);
    return "open";
  }
  const overlay = { nonce: crypto.randomUUID(), tabId, url: address, site: reply.site, reply, port: null, result: null };
  overlay.done = new Promise((resolve) => {
    overlay.settle = (result) => {
      if (overlay.result) return;
      overlay.result = result;
      overlays.delete(overlay.nonce);
      resolve(result);
    };
  });
  overlays.set(overlay.nonce, overlay);
  const timer = setTimeout(() => { if (!overlay.port) giveUp(overlay); }, CONNECT_TIMEOUT_MS);
  overlay.done.finally(() => clearTimeout(timer));
  try {
    await api.scripting.executeScript({ target: { tabId }, files: [OVERLAY_SCRIPT] });
    const [shown] = await api.scripting.executeScript({
      target: { tabId },
      func: (options) => (globalThis.__migaGate ? globalThis.__migaGate.show(options) : false),
      args: [{ nonce: overlay.nonce, target: address }],
    });
    if (!shown || shown.result !== true) throw new Error("the page did not take the gate");
  } catch (error) {
    console.warn("miga: the gate over the page could not be shown:", error);
    giveUp(overlay);
  }
  return overlay.done;
}

// Nothing of the gate is left: its session is abandoned, the page uncovered.
function giveUp(overlay) {
  if (overlay.result) return;
  overlay.settle("failed");
  ask(request("abandon", { session: overlay.reply.session })).catch(() => {});
  api.scripting.executeScript({
    target: { tabId: overlay.tabId },
    func: (nonce) => { if (globalThis.__migaGate) globalThis.__migaGate.remove(nonce); },
    args: [overlay.nonce],
  }).catch(() => {});
}

// The injected gate's port: only from the top frame of the tab it was injected into, still on
// the gate's site, once per gate.
api.runtime.onConnect.addListener((port) => {
  if (typeof port.name !== "string" || !port.name.startsWith(PORT_PREFIX)) return;
  const overlay = overlays.get(port.name.slice(PORT_PREFIX.length));
  const sender = port.sender || {};
  const fromItsTab = overlay && !overlay.port && sender.id === api.runtime.id && sender.tab && sender.tab.id === overlay.tabId &&
    sender.frameId === 0 && (!sender.url || siteFor(sender.url) === overlay.site);
  if (!fromItsTab) {
    port.disconnect();
    return;
  }
  overlay.port = port;
  serveGate(port, { session: overlay.reply.session, url: overlay.url, tabId: overlay.tabId, ended: false, sent: true, known: true, overlay });
});

// ---- single-page routes --------------------------------------------------------------------

// A route a page's own script makes (history.pushState, replaceState) into a gated site from
// an address of another site, or of none: an entry no request shows, so the gate comes over
// the page. The host's answer decides as for any entry (grace, snooze, a timebox or hours
// without a gate answer `go`, recorded as a pass; nothing is shown). Non-gated routes cost nothing: decided
// from memory.
api.webNavigation.onHistoryStateUpdated.addListener(async (details) => {
  if (details.frameId !== 0) return;
  await lastAddressLoaded;
  const previous = lastAddress.get(details.tabId);
  if (previous === details.url) return; // backstop.js heard of it first
  remember(details.tabId, details.url);
  routeChanged(details.tabId, details.url, previous);
});

// A route from `previous` to `url` in tab `tabId` (this module or backstop.js hears of it
// first, and the other then finds the address already remembered).
export function routeChanged(tabId, url, previous) {
  const site = siteFor(url);
  if (!site || bypasses.has(tabId) || (previous && siteFor(previous) === site)) return;
  showGateOverPage(tabId, url);
}
