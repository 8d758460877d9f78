// miga's extension: gate top-level navigations to the sites listed in miga's config.toml.
//
// The decision is made by declarativeNetRequest redirect rules, built from the site list the
// native host `miga.gateway` serves, so a gated page is never requested before Open and no
// other navigation waits for anything. Without the host there are no rules: the browser
// works exactly as it would without miga (fail open).
"use strict";

const api = globalThis.browser ?? globalThis.chrome;
const HOST = "miga.gateway";
const GATE_PAGE = api.runtime.getURL("gate.html");
const CALM_PAGE = api.runtime.getURL("calm.html");
const REPLY_TIMEOUT_MS = 5000;
// After Open (or a grace pass) the tab may load anything for this long, so a redirect chain
// (t.co → reddit.com → www.reddit.com) completes without a second gate.
const BYPASS_MS = 30000;
const BYPASS_RULE_BASE = 100000;

let port = null;
let nextId = 1;
const pending = new Map();
let state = null; // the host's last "state" message
let hostProblem = null; // why the host cannot be reached, when it cannot
let graceTimer = null;
const bypasses = new Map(); // tabId → timer
const gates = new Map(); // gate page port → { session, tabId, ended }

// ---- talking to the host ---------------------------------------------------------------

function connect() {
  if (port) return port;
  try {
    port = api.runtime.connectNative(HOST);
  } catch (error) {
    hostFailed(String(error && error.message || error));
    return null;
  }
  const current = port;
  current.onMessage.addListener(onHostMessage);
  current.onDisconnect.addListener(() => {
    const reason = (api.runtime.lastError && api.runtime.lastError.message) ||
      (current.error && current.error.message) || "miga's native host closed";
    if (port === current) port = null;
    for (const waiter of pending.values()) waiter.reject(new Error(reason));
    pending.clear();
    const wasWorking = state !== null;
    hostFailed(reason);
    // A host that was working and went away (killed, crashed, updated) is asked again at
    // once, so its sites are paused again within a second rather than at the next minute.
    if (wasWorking) setTimeout(refresh, 500);
  });
  return current;
}

function ask(message) {
  return new Promise((resolve, reject) => {
    const current = connect();
    if (!current) return reject(new Error(hostProblem || "miga is not reachable"));
    const id = nextId++;
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new Error("miga did not answer in time"));
    }, REPLY_TIMEOUT_MS);
    pending.set(id, {
      resolve: (reply) => { clearTimeout(timer); resolve(reply); },
      reject: (error) => { clearTimeout(timer); reject(error); },
    });
    try {
      current.postMessage({ ...message, id });
    } catch (error) {
      pending.delete(id);
      clearTimeout(timer);
      reject(error);
    }
  });
}

function onHostMessage(message) {
  if (!message || typeof message !== "object") return;
  if (message.type === "state") applyState(message);
  const waiter = message.id != null && pending.get(message.id);
  if (waiter) {
    pending.delete(message.id);
    waiter.resolve(message);
  }
}

function hostFailed(reason) {
  hostProblem = reason;
  state = null;
  rebuildRules(); // fail open: no host, no gate
}

async function refresh() {
  try {
    await ask({ type: "state" });
  } catch (error) {
    // hostFailed has already opened everything
  }
}

// ---- which sites are gated ---------------------------------------------------------------

function applyState(message) {
  hostProblem = null;
  state = {
    gating: message.gating === true,
    reason: message.reason || null,
    message: message.message || null,
    sites: Array.isArray(message.sites) ? message.sites.filter((site) => typeof site === "string") : [],
    grace: message.grace && typeof message.grace === "object" ? { ...message.grace } : {},
    // Sites in hours without a gate (a schedule's gate = false), each until when at least.
    ungated: message.ungated && typeof message.ungated === "object" ? { ...message.ungated } : {},
  };
  rebuildRules();
}

function hostOf(url) {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return null;
    return parsed.hostname.replace(/\.+$/, "").toLowerCase();
  } catch (error) {
    return null;
  }
}

// The listed site `url` belongs to: the site itself or a subdomain; `*.x` only subdomains.
function siteFor(url) {
  const host = hostOf(url);
  if (!host || !state || !state.gating) return null;
  for (const site of state.sites) {
    if (site.startsWith("*.")) {
      if (host.endsWith(site.slice(1))) return site;
    } else if (host === site || host.endsWith("." + site)) {
      return site;
    }
  }
  return null;
}

function inGrace(site, now = Date.now()) {
  return Boolean(state && Number(state.grace[site]) > now);
}

function ungated(site, now = Date.now()) {
  return Boolean(state && Number(state.ungated[site]) > now);
}

function escapeRegex(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function domainOf(site) {
  return site.startsWith("*.") ? site.slice(2) : site;
}

// What a listed site covers, for a rule that names its domain: `*.x` only subdomains of x.
function addressesOf(site) {
  return site.startsWith("*.")
    ? `^(https?://([^/?#@]*@)?[^/?#@]+\\.${escapeRegex(domainOf(site))}\\.?(:[0-9]+)?([/?#].*)?)$`
    : "^(https?://.*)$";
}

// The redirect rules: one pair per site, kept as long as the site is listed.
function rulesFor(sites) {
  const rules = [];
  let id = 1;
  for (const site of sites) {
    const domain = domainOf(site);
    const regexFilter = addressesOf(site);
    // A gate guards the entry into a site, not each page: a navigation the site itself starts
    // (a link, a form, a script on one of its pages) is a visit going on, not an entry.
    const condition = { requestDomains: [domain], excludedInitiatorDomains: [domain], resourceTypes: ["main_frame"], regexFilter };
    rules.push({
      id: id++, priority: 1, condition,
      action: { type: "redirect", redirect: { regexSubstitution: GATE_PAGE + "#\\1" } },
    });
    // A form sent to a gated site is not sent again after Open; its gate says so.
    rules.push({
      id: id++, priority: 2, condition: { ...condition, requestMethods: ["post"] },
      action: { type: "redirect", redirect: { regexSubstitution: GATE_PAGE + "?post=1#\\1" } },
    });
  }
  return rules;
}

// Sites that open anyway for now (grace, hours without a gate) get an allow rule above their
// redirect: no redirect, no round trip, a form keeps its data. Session rules, so a grace never
// outlives the browser, while the redirect rules stay put.
const OPEN_RULE_BASE = 50000;

function openRulesFor(sites, now) {
  return sites.filter((site) => inGrace(site, now) || ungated(site, now)).map((site, index) => ({
    id: OPEN_RULE_BASE + index, priority: 50, action: { type: "allow" },
    condition: { requestDomains: [domainOf(site)], resourceTypes: ["main_frame"] },
  }));
}

let rulesQueue = Promise.resolve();

function rebuildRules() {
  rulesQueue = rulesQueue.then(async () => {
    const now = Date.now();
    const sites = state && state.gating ? state.sites : [];
    const existing = await api.declarativeNetRequest.getDynamicRules();
    await api.declarativeNetRequest.updateDynamicRules({
      removeRuleIds: existing.map((rule) => rule.id),
      addRules: rulesFor(sites),
    });
    const open = (await api.declarativeNetRequest.getSessionRules()).map((rule) => rule.id)
      .filter((id) => id >= OPEN_RULE_BASE && id < BYPASS_RULE_BASE); // the open and the workers' rules
    const workers = workerRulesFor(sites, now);
    workerRulesKey = JSON.stringify(workers);
    await api.declarativeNetRequest.updateSessionRules({ removeRuleIds: open, addRules: [...openRulesFor(sites, now), ...workers] });
    scheduleGraceEnd(now);
  }).catch((error) => console.error("miga: could not update the rules:", error));
  return rulesQueue;
}

// When a grace or gate-free hours end, the rules come back; the host is asked again too, since
// the hours may go on (schedules are by the minute).
function scheduleGraceEnd(now) {
  clearTimeout(graceTimer);
  const ends = state ? [...Object.values(state.grace), ...Object.values(state.ungated)].map(Number).filter((until) => until > now) : [];
  if (ends.length) graceTimer = setTimeout(() => { rebuildRules(); refresh(); }, Math.min(...ends) - now + 50);
}

// A site's own service worker may answer a navigation by fetching it itself (most fetch the
// network first), which the redirect rules never see, and checks for its own update as a visit
// starts. While no tab is on a gated site and nothing lets it in (grace, hours without a gate,
// an Open under way), the requests the site's own workers make (no tab, the site as initiator)
// are blocked: nothing reaches the site before Open, and the tab is sent to the gate by the
// backstop. Requests from tabs, and other sites' or extensions' requests, are not touched.
const WORKER_RULE_BASE = 60000;
const opening = new Map(); // tabId → the site that tab is opening (after Open, a grace pass)
let workerRulesKey = "";

function sitesInUse(now) {
  const used = new Set(opening.values());
  for (const url of lastAddress.values()) {
    const site = siteFor(url);
    if (site) used.add(site);
  }
  for (const site of state ? state.sites : []) if (inGrace(site, now) || ungated(site, now)) used.add(site);
  return used;
}

function workerRulesFor(sites, now) {
  const used = sitesInUse(now);
  return sites.filter((site) => !used.has(site)).map((site, index) => ({
    id: WORKER_RULE_BASE + index, priority: 60, action: { type: "block" },
    condition: { requestDomains: [domainOf(site)], initiatorDomains: [domainOf(site)], tabIds: [-1], regexFilter: addressesOf(site) },
  }));
}

// Called as tabs come and go from sites: only the workers' rules change, and only when needed.
function refreshWorkerRules() {
  rulesQueue = rulesQueue.then(async () => {
    const workers = workerRulesFor(state && state.gating ? state.sites : [], Date.now());
    const key = JSON.stringify(workers);
    if (key === workerRulesKey) return;
    workerRulesKey = key;
    const old = (await api.declarativeNetRequest.getSessionRules()).map((rule) => rule.id)
      .filter((id) => id >= WORKER_RULE_BASE && id < BYPASS_RULE_BASE);
    await api.declarativeNetRequest.updateSessionRules({ removeRuleIds: old, addRules: workers });
  }).catch((error) => console.error("miga: could not update the rules:", error));
  return rulesQueue;
}

// One tab may load anything for a moment: the navigation after Open or a grace pass to `url`.
async function allowTab(tabId, url) {
  if (typeof tabId !== "number" || tabId < 0) return;
  const id = BYPASS_RULE_BASE + tabId;
  clearTimeout(bypasses.get(tabId));
  const site = typeof url === "string" && siteFor(url);
  if (site) {
    opening.set(tabId, site);
    await refreshWorkerRules();
  }
  await api.declarativeNetRequest.updateSessionRules({
    removeRuleIds: [id],
    addRules: [{ id, priority: 100, action: { type: "allow" }, condition: { tabIds: [tabId], resourceTypes: ["main_frame"] } }],
  });
  bypasses.set(tabId, setTimeout(() => endBypass(tabId), BYPASS_MS));
}

function endBypass(tabId) {
  clearTimeout(bypasses.get(tabId));
  bypasses.delete(tabId);
  if (opening.delete(tabId)) refreshWorkerRules();
  api.declarativeNetRequest.updateSessionRules({ removeRuleIds: [BYPASS_RULE_BASE + tabId] }).catch(() => {});
}

// ---- gate pages ----------------------------------------------------------------------------

// Tabs whose last top-level navigation went to a web address (or to a gate page the backstop
// sent them to): a gate page in such a tab is one miga sent there. gate.html must be reachable
// from the web for the rules to send a tab to it, so a site could open it itself (a frame, a
// link, window.open, a redirect of its own); such a page gets nothing: no event, no bypass.
const sentHere = new Set();
const backstopped = new Map(); // tabId → the gate page address the backstop sent it to

api.webNavigation.onBeforeNavigate.addListener((details) => {
  if (details.frameId !== 0) return;
  const toGate = backstopped.get(details.tabId) === details.url;
  if (/^https?:/.test(details.url) || toGate) sentHere.add(details.tabId);
  else sentHere.delete(details.tabId);
  if (!toGate) backstopped.delete(details.tabId); // another navigation took the gate's place
});

api.runtime.onConnect.addListener((page) => {
  if (page.name !== "gate" || !page.sender || !page.sender.tab) return;
  const tabId = page.sender.tab.id;
  const sent = page.sender.frameId === 0 && sentHere.has(tabId);
  sentHere.delete(tabId);
  if (!sent && page.sender.frameId !== 0) return refuse(page);
  // known: miga has answered for this gate (always so for a page this worker sent).
  const gate = { session: null, url: null, tabId, ended: false, sent, known: sent };
  gates.set(page, gate);
  page.onMessage.addListener((message) => {
    // A page this worker did not send may only go on with a gate it names (its worker
    // restarted); the host checks that gate against what it stored. It cannot start one.
    if (!gate.sent && (!message || message.type === "gate" || (!gate.session && typeof message.session !== "string"))) {
      return page.postMessage({ action: "go", reason: "not_sent", replyTo: message && message.replyTo });
    }
    handleGateMessage(page, gate, message).then(
      (reply) => page.postMessage({ ...reply, replyTo: message.replyTo }),
      (error) => page.postMessage({ type: "error", error: String(error && error.message || error), replyTo: message.replyTo }),
    ).catch(() => {}); // the page went away
  });
  page.onDisconnect.addListener(() => {
    gates.delete(page);
    // Closing the tab (or leaving the page) before choosing is `abandoned`.
    if (gate.session && !gate.ended) {
      gate.ended = true;
      ask({ type: "abandon", session: gate.session }).catch(() => {});
    }
  });
});

// Not a page miga sent: it learns nothing, and what it asks for is loaded as any navigation
// is (so a gated site is gated then, properly).
function refuse(page) {
  page.onMessage.addListener((message) => page.postMessage({ action: "go", reason: "not_sent", replyTo: message && message.replyTo }));
}

// The host answers a gate it does not hold (it restarted while the page was up) with this;
// the gate is then resumed from what miga stored, and the request asked again once.
const NO_SUCH_GATE = "no such gate (it ended already)";

async function askAboutGate(gate, message) {
  const reply = await ask(message);
  if (reply.type !== "error") gate.known = true;
  if (reply.type !== "error" || reply.error !== NO_SUCH_GATE || gate.ended || !gate.session || !gate.url) return reply;
  const resumed = await ask({ type: "resume", session: gate.session, url: gate.url });
  if (resumed.type === "error") return reply;
  gate.known = true;
  return ask(message);
}

async function handleGateMessage(page, gate, message) {
  // A page whose gate began before this worker did (it restarted) names its gate; the host
  // holds it still, or rebuilds it from what it stored (askAboutGate), or says it has ended.
  if (message && message.type !== "gate" && !gate.session && typeof message.session === "string" && typeof message.url === "string") {
    gate.session = message.session;
    gate.url = message.url;
  }
  switch (message && message.type) {
    case "gate": {
      gate.url = String(message.url);
      let reply;
      try {
        reply = await ask({ type: "gate", url: gate.url });
      } catch (error) {
        await allowTab(gate.tabId, gate.url);
        return { action: "go", reason: "no_host", message: String(error.message || error) };
      }
      if (reply.type === "error") {
        await allowTab(gate.tabId, gate.url);
        return { action: "go", reason: "error", message: reply.error };
      }
      if (reply.action === "go") {
        if (reply.grace_until && state) {
          state.grace[reply.site] = reply.grace_until;
          await rebuildRules();
        }
        await allowTab(gate.tabId, gate.url);
        refresh();
        return reply;
      }
      gate.session = reply.session;
      refresh(); // a gate page opening is a good moment to catch up with config and grace
      return reply;
    }
    case "next":
    case "completed":
      return askAboutGate(gate, { type: message.type, session: gate.session });
    case "exit": {
      const reply = await askAboutGate(gate, { type: "exit", session: gate.session });
      if (reply.type !== "error") gate.ended = true;
      return reply;
    }
    case "open": {
      // The answer to "What are you here to do?", when the page asked: miga cleans and cuts it.
      const open = { type: "open", session: gate.session };
      if (typeof message.intention === "string") open.intention = message.intention.slice(0, 1000);
      let reply;
      try {
        reply = await askAboutGate(gate, open);
      } catch (error) {
        reply = { type: "error", error: String(error.message || error) };
      }
      // Locked: the page says how long is left. Any other failure is miga's: the person
      // chose Open after the countdown, and Open they get, with one line saying why.
      if (reply.type === "error" && reply.seconds_left != null) return reply;
      // A page that only named a gate, which miga does not know, gets no bypass: its address
      // is loaded as any navigation is, and gated if it is an entry.
      if (reply.type === "error" && !gate.sent && !gate.known) return { action: "go", reason: "not_sent" };
      if (reply.type === "error") {
        gate.ended = true;
        await allowTab(gate.tabId, gate.url);
        return { type: "open", failed_open: `miga could not record this Open (${reply.error}); opening anyway.` };
      }
      gate.ended = true;
      if (reply.grace_until && state) {
        state.grace[reply.site] = reply.grace_until;
        await rebuildRules();
      }
      await allowTab(gate.tabId, gate.url);
      return reply;
    }
    case "close": {
      // Exit closes the tab, or shows a calm page when it is the window's last.
      const tab = await api.tabs.get(gate.tabId);
      const siblings = await api.tabs.query({ windowId: tab.windowId });
      if (siblings.length > 1) {
        await api.tabs.remove(gate.tabId);
        return { closed: true };
      }
      return { closed: false, calm: CALM_PAGE };
    }
    default:
      throw new Error("unknown request");
  }
}

// ---- the popup -----------------------------------------------------------------------------

api.runtime.onMessage.addListener((message, sender, sendResponse) => {
  if (!message || message.type !== "popup") return false;
  ask({ type: "stats" }).then(
    (stats) => sendResponse({ stats, state, hostProblem }),
    (error) => sendResponse({ stats: null, state, hostProblem: hostProblem || String(error.message || error) }),
  );
  return true; // answered asynchronously
});

// ---- grace passes ------------------------------------------------------------------------

// A navigation into a site during its grace is let through by the rules; it is still a pass
// to record (once per entry into the site, not for every page within it).
api.webNavigation.onBeforeNavigate.addListener(async (details) => {
  if (details.frameId !== 0 || bypasses.has(details.tabId)) return; // Open's own navigation
  const site = siteFor(details.url);
  if (!site || !(inGrace(site) || ungated(site))) return;
  let previous = null;
  try {
    previous = (await api.tabs.get(details.tabId)).url;
  } catch (error) {
    // a tab being created
  }
  if (previous && siteFor(previous) === site) return;
  ask({ type: inGrace(site) ? "grace_pass" : "schedule_pass", url: details.url }).catch(() => {});
});

// ---- the backstop ---------------------------------------------------------------------------

// What the rules cannot see: a site's own service worker answering a navigation (Chromium's
// declarativeNetRequest never sees those requests), a back/forward-cache restore, a prerender
// made active. Each shows a document of a gated site with no request the rules could redirect,
// so a tab that comes to show a gated site without having been on it — an entry — is sent to
// the gate page the moment its document commits. Only the tab's last top-level address is
// needed to tell an entry from a visit going on; it is kept for the session, so a worker that
// restarts does not mistake a click inside a site for an entry.
const lastAddress = new Map(); // tabId → the last top-level address the tab showed
const lastAddressLoaded = api.storage && api.storage.session
  ? api.storage.session.get(null).then((saved) => {
    for (const [key, url] of Object.entries(saved || {})) {
      if (key.startsWith("tab:") && !lastAddress.has(Number(key.slice(4)))) lastAddress.set(Number(key.slice(4)), url);
    }
  }).catch(() => {})
  : Promise.resolve();

function remember(tabId, url) {
  lastAddress.set(tabId, url);
  if (api.storage && api.storage.session) api.storage.session.set({ ["tab:" + tabId]: url }).catch(() => {});
}

async function shown(tabId, url) {
  if (typeof tabId !== "number" || tabId < 0 || typeof url !== "string") return;
  await lastAddressLoaded;
  const previous = lastAddress.get(tabId);
  if (previous === url || backstopped.has(tabId)) return;
  if (isEntry(tabId, url, previous)) return sendToGate(tabId, url); // the tab stays where it was, for now
  remember(tabId, url);
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
api.tabs.onUpdated.addListener((tabId, change) => {
  if (change.url) shown(tabId, change.url);
});

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

// ---- start -----------------------------------------------------------------------------------

// A bypass outlives nothing: rules left by a worker that was stopped mid-way go at start.
api.declarativeNetRequest.getSessionRules().then((rules) => {
  const stale = rules.map((rule) => rule.id).filter((id) => id >= BYPASS_RULE_BASE && !bypasses.has(id - BYPASS_RULE_BASE));
  if (stale.length) return api.declarativeNetRequest.updateSessionRules({ removeRuleIds: stale });
}).catch(() => {});

api.alarms.create("miga-refresh", { periodInMinutes: 1 });
api.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === "miga-refresh") refresh();
});
refresh();
