// miga's extension: gate top-level navigations to the sites listed in miga's config.toml.
//
// The decision is made by declarativeNetRequest redirect rules, built from the site list the
// native host `miga.gateway` serves, so a gated page is never requested before Open and no
// other navigation waits for anything. Without the host there are no rules: the browser
// works exactly as it would without miga (fail open).
import { request } from "./protocol.js";

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
    await ask(request("state"));
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
    // The sites the host gates, each with the addresses it covers (the host's rule, as a
    // pattern): matched in order, as the host matches them.
    rules: Array.isArray(message.site_rules) ? message.site_rules.map(siteRuleFrom).filter(Boolean) : [],
    grace: message.grace && typeof message.grace === "object" ? { ...message.grace } : {},
    // Sites in hours without a gate (a schedule's gate = false), each until when at least.
    ungated: message.ungated && typeof message.ungated === "object" ? { ...message.ungated } : {},
  };
  state.sites = state.rules.map((rule) => rule.site);
  rebuildRules();
  // Every gated site's timebox that runs or has ended unanswered (an older host sends none).
  if (Array.isArray(message.timeboxes)) syncTimeboxes(message.timeboxes);
}

// An http(s) address as the browser writes it, or null.
function webAddress(text) {
  try {
    const url = new URL(String(text));
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch (error) {
    return null;
  }
}

// A site's rule from the host: {site, domain, addresses}, with its pattern compiled; null when
// it is not one (that site is then not gated here: fail open).
function siteRuleFrom(rule) {
  if (!rule || typeof rule.site !== "string" || typeof rule.domain !== "string" || typeof rule.addresses !== "string") return null;
  try {
    return { site: rule.site, domain: rule.domain, addresses: rule.addresses, pattern: new RegExp(rule.addresses, "i") };
  } catch (error) {
    return null;
  }
}

function ruleOf(site) {
  return state ? state.rules.find((rule) => rule.site === site) : undefined;
}

// The listed site `url` belongs to, by the host's rule.
function siteFor(url) {
  if (typeof url !== "string" || !state || !state.gating) return null;
  const rule = state.rules.find((candidate) => candidate.pattern.test(url));
  return rule ? rule.site : null;
}

function inGrace(site, now = Date.now()) {
  return Boolean(state && Number(state.grace[site]) > now);
}

function ungated(site, now = Date.now()) {
  return Boolean(state && Number(state.ungated[site]) > now);
}

// The redirect rules: one pair per site, kept as long as the site is listed.
function rulesFor(sites) {
  const rules = [];
  let id = 1;
  for (const { domain, addresses: regexFilter } of sites.map(ruleOf).filter(Boolean)) {
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
  return sites.filter((site) => ruleOf(site) && (inGrace(site, now) || ungated(site, now))).map((site, index) => ({
    id: OPEN_RULE_BASE + index, priority: 50, action: { type: "allow" },
    condition: { requestDomains: [ruleOf(site).domain], resourceTypes: ["main_frame"] },
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
  return sites.filter((site) => !used.has(site)).map(ruleOf).filter(Boolean).map((rule, index) => ({
    id: WORKER_RULE_BASE + index, priority: 60, action: { type: "block" },
    condition: { requestDomains: [rule.domain], initiatorDomains: [rule.domain], tabIds: [-1], regexFilter: rule.addresses },
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
      ask(request("abandon", { session: gate.session })).catch(() => {});
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
  const resumed = await ask(request("resume", { session: gate.session, url: gate.url }));
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
        reply = await ask(request("gate", { url: gate.url }));
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
      // A "Do this instead" choice names the host's alternative by its index; the host checks it.
      const exit = { type: "exit", session: gate.session };
      if (Number.isInteger(message.alternative) && message.alternative > 0) exit.alternative = message.alternative;
      const reply = await askAboutGate(gate, exit);
      if (reply.type !== "error") gate.ended = true;
      // An alternative that is a link opens in this tab after the celebration, with the same
      // one-time pass an Open gives: it is never gated, whatever site it is on.
      const link = reply.type !== "error" && reply.alternative && reply.alternative.kind === "url" ? webAddress(reply.alternative.url) : null;
      if (link && (gate.sent || gate.known)) await allowTab(gate.tabId, link);
      return reply;
    }
    case "open": {
      // The answer to "What are you here to do?", when the page asked: miga cleans and cuts it.
      const open = { type: "open", session: gate.session };
      if (typeof message.intention === "string") open.intention = message.intention.slice(0, 1000);
      // The answer to "For how long?": the host takes it only if it is one of its answers.
      if (Number.isInteger(message.minutes) && message.minutes > 0) open.minutes = message.minutes;
      // The typed challenge, as typed: the host compares it with its sentence.
      if (typeof message.challenge === "string") open.challenge = message.challenge.slice(0, 1000);
      let reply;
      try {
        reply = await askAboutGate(gate, open);
      } catch (error) {
        reply = { type: "error", error: String(error.message || error) };
      }
      // Locked: the page says how long is left. Any other failure is miga's: the person
      // chose Open after the countdown, and Open they get, with one line saying why.
      if (reply.type === "error" && reply.seconds_left != null) return reply;
      // The typed sentence was not the one asked (or none came): the page asks it again. A
      // challenge never fails open.
      if (reply.type === "error" && reply.challenge_failed === true) return reply;
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
      if (reply.timebox) await learnTimebox(reply.timebox); // before the site loads in this tab
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
  if (message && message.type === "soft_end") {
    softEndChosen(message, sender).then(sendResponse, (error) => {
      console.error("miga: the soft end's choice:", error);
      sendResponse({ ok: false });
    });
    return true;
  }
  if (!message || message.type !== "popup") return false;
  ask(request("stats")).then(
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
  ask(request(inGrace(site) ? "grace_pass" : "schedule_pass", { url: details.url })).catch(() => {});
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
  tabLeftSoftEnd(tabId);
  sentHere.delete(tabId);
  backstopped.delete(tabId);
  if (lastAddress.delete(tabId)) refreshWorkerRules();
  if (api.storage && api.storage.session) api.storage.session.remove("tab:" + tabId).catch(() => {});
  if (bypasses.has(tabId)) endBypass(tabId);
});

// ---- "For how long?": the soft end ------------------------------------------------------------

// An Open that said how long (ask_minutes) comes with a timebox, from the open reply or, for
// every gated site, in each state: {session, site, minutes, end (Unix ms), extended}. A quiet
// notice one minute before its end, in that site's tabs; at the end an overlay in exactly
// those tabs ("Your 10 minutes on reddit.com are up": Close tab · 5 more minutes · Keep going),
// whose choice goes to the host as `timebox_end`. The timeboxes are kept in memory and in
// storage.session (with the tabs that show an overlay), timed by alarms, which wake a stopped
// worker, and by timers, which are exact while it runs; the states the host sends time them
// again after a restart of the browser. Nothing here ever blocks a navigation: if anything
// fails, the person keeps their tab.
const NOTICE_ALARM = "miga-timebox-notice:";
const END_ALARM = "miga-timebox-end:";
// session → { session, site, minutes, end, extended, noticed, fired (the end whose overlay was
// shown), tabs (ids showing it), answering, settled (a failed answer: no more overlays) }
const timeboxes = new Map();
const timeboxTimers = new Map(); // session → timeouts

const timeboxesLoaded = api.storage && api.storage.session
  ? api.storage.session.get("timeboxes").then((saved) => {
    for (const box of Array.isArray(saved && saved.timeboxes) ? saved.timeboxes : []) {
      const valid = timeboxFrom(box);
      if (valid && !timeboxes.has(valid.session)) {
        timeboxes.set(valid.session, {
          ...valid, noticed: box.noticed === true, fired: Number.isFinite(box.fired) ? box.fired : null,
          tabs: Array.isArray(box.tabs) ? box.tabs.filter(Number.isInteger) : [], answering: false, settled: box.settled === true,
        });
      }
    }
    for (const box of timeboxes.values()) scheduleTimebox(box);
  }).catch(() => {})
  : Promise.resolve();

function saveTimeboxes() {
  if (!api.storage || !api.storage.session) return;
  const boxes = [...timeboxes.values()].map(({ answering, ...box }) => box);
  api.storage.session.set({ timeboxes: boxes }).catch(() => {});
}

// The host's timebox, checked: null when it is not one. The host decides everything about
// it: its site's addresses, when the notice comes (and until when it is still worth showing),
// when it ends, the minutes the overlay names and the choices it offers.
function timeboxFrom(box) {
  if (!box || typeof box !== "object") return null;
  const { session, site, domain, addresses, minutes, end, notice_at: noticeAt, notice_until: noticeUntil } = box;
  if (typeof session !== "string" || !session || session.length > 200 || typeof site !== "string" || !site) return null;
  if (typeof domain !== "string" || !domain || typeof addresses !== "string") return null;
  if (!Number.isInteger(minutes) || minutes <= 0 || !Number.isFinite(end)) return null;
  if (!Number.isFinite(noticeAt) || !Number.isFinite(noticeUntil) || !Number.isInteger(box.declared_minutes)) return null;
  const choices = Array.isArray(box.choices) ? box.choices.filter((choice) => typeof choice === "string") : [];
  if (!inSite(null, { addresses })) return null; // a pattern that does not compile
  return {
    session, site, domain, addresses, minutes, end, extended: box.extended === true, notice_at: noticeAt, notice_until: noticeUntil,
    declared_minutes: box.declared_minutes, choices, extend_label: typeof box.extend_label === "string" ? box.extend_label : "",
  };
}

// Whether `url` is an address of the timebox's site (by the host's rule for it); with no
// address, whether the rule can be used at all.
const compiledPatterns = new Map(); // pattern → RegExp
function inSite(url, box) {
  let pattern = compiledPatterns.get(box.addresses);
  if (!pattern) {
    try {
      pattern = new RegExp(box.addresses, "i");
    } catch (error) {
      return false;
    }
    compiledPatterns.set(box.addresses, pattern);
  }
  return url === null || (typeof url === "string" && pattern.test(url));
}

// A state's timeboxes are all there are: one no longer listed was answered (here or in
// another browser) or replaced by a later Open, and its overlays go.
async function syncTimeboxes(list) {
  await timeboxesLoaded;
  const listed = new Set();
  for (const raw of list) {
    const box = timeboxFrom(raw);
    if (box) listed.add(box.session);
  }
  for (const box of [...timeboxes.values()]) {
    if (!listed.has(box.session) && !box.answering) forgetTimebox(box);
  }
  for (const raw of list) await learnTimebox(raw);
}

// A timebox from the host: new, or changed (five more minutes, here or elsewhere), is timed
// afresh; one already timed stays as it is (its overlay may be up, waiting for an answer).
async function learnTimebox(raw) {
  await timeboxesLoaded;
  const box = timeboxFrom(raw);
  if (!box) return;
  // One per site, as the host keeps it: a later Open's replaces the earlier one's.
  for (const other of [...timeboxes.values()]) {
    if (other.site === box.site && other.session !== box.session && !other.answering) forgetTimebox(other);
  }
  const known = timeboxes.get(box.session);
  if (known && known.end === box.end && known.extended === box.extended) return;
  if (known && known.answering) return; // its answer brings the news
  if (known) {
    clearTimeboxTimers(known);
    removeOverlays(known);
  }
  const kept = { ...box, noticed: false, fired: null, tabs: [], answering: false, settled: false };
  timeboxes.set(box.session, kept);
  saveTimeboxes();
  scheduleTimebox(kept);
}

function forgetTimebox(box) {
  clearTimeboxTimers(box);
  if (box.tabs.length) removeOverlays(box);
  timeboxes.delete(box.session);
  saveTimeboxes();
}

function clearTimeboxTimers(box) {
  for (const timer of timeboxTimers.get(box.session) || []) clearTimeout(timer);
  timeboxTimers.delete(box.session);
  quietly(() => api.alarms.clear(NOTICE_ALARM + box.session));
  quietly(() => api.alarms.clear(END_ALARM + box.session));
}

// Runs `call`, whatever it returns or throws (alarms.create returns no promise everywhere).
function quietly(call) {
  try {
    const result = call();
    if (result && typeof result.catch === "function") result.catch(() => {});
  } catch (error) {
    // nothing to do
  }
}

// The notice a minute before the end, and the end: an alarm and a timer each (an alarm in a
// packed extension fires no sooner than 30 s after it is set); a time already past, at once.
function scheduleTimebox(box) {
  clearTimeboxTimers(box);
  if (box.settled || box.fired === box.end) return;
  const now = Date.now();
  const timers = [];
  const at = (name, when, run) => {
    const delay = Math.max(0, when - now);
    timers.push(setTimeout(run, Math.min(delay, 0x7fffffff)));
    if (delay > 0) quietly(() => api.alarms.create(name + box.session, { when }));
  };
  if (!box.noticed && now < box.notice_until) {
    at(NOTICE_ALARM, box.notice_at, () => timeboxNotice(box.session));
  }
  at(END_ALARM, box.end, () => timeboxEnd(box.session));
  timeboxTimers.set(box.session, timers);
}

// The tabs showing a page of `site` (this browser's, in this worker's windows).
async function tabsOfSite(box) {
  const tabs = await api.tabs.query({});
  return tabs.filter((tab) => inSite(tab.url || lastAddress.get(tab.id), box));
}

async function timeboxNotice(session) {
  await timeboxesLoaded;
  const box = timeboxes.get(session);
  if (!box || box.noticed || box.settled || box.answering) return;
  if (Date.now() < box.notice_at - 1000) return scheduleTimebox(box); // early: again
  box.noticed = true;
  saveTimeboxes();
  if (Date.now() >= box.notice_until) return;
  try {
    for (const tab of await tabsOfSite(box)) {
      api.scripting.executeScript({ target: { tabId: tab.id }, func: softEndNotice, args: [{ site: box.domain }] })
        .catch(() => {}); // a tab that cannot show it (discarded, an error page) goes without
    }
  } catch (error) {
    console.warn("miga: the minute's notice:", error);
  }
}

async function timeboxEnd(session) {
  await timeboxesLoaded;
  const box = timeboxes.get(session);
  if (!box || box.settled || box.answering || box.fired === box.end) return;
  if (Date.now() < box.end - 1000) return scheduleTimebox(box); // early: again
  clearTimeboxTimers(box);
  box.fired = box.end;
  box.tabs = [];
  saveTimeboxes();
  let tabs = [];
  try {
    tabs = await tabsOfSite(box);
  } catch (error) {
    console.warn("miga: the soft end could not see the tabs:", error);
    return;
  }
  if (!tabs.length) return answerTimebox(box, "gone");
  await Promise.all(tabs.map((tab) => showOverlay(box, tab.id)));
}

// The overlay in one tab of the site (again, if it was there: the page went on meanwhile).
async function showOverlay(box, tabId) {
  if (box.settled || box.answering || timeboxes.get(box.session) !== box) return false;
  try {
    await api.scripting.executeScript({
      target: { tabId },
      func: softEndOverlay,
      args: [{ session: box.session, site: box.domain, minutes: box.declared_minutes, choices: box.choices, extendLabel: box.extend_label }],
    });
  } catch (error) {
    console.warn(`miga: no soft end in tab ${tabId}:`, error && error.message || error);
    return false;
  }
  if (!box.tabs.includes(tabId)) box.tabs.push(tabId);
  saveTimeboxes();
  return true;
}

function removeOverlays(box) {
  for (const tabId of box.tabs) {
    api.scripting.executeScript({ target: { tabId }, func: removeSoftEnd, args: [box.session] }).catch(() => {});
  }
}

// The overlay says what was chosen. Only a tab it was put in may answer for its timebox, and
// only the overlay's own script there (the page's scripts cannot reach the extension).
async function softEndChosen(message, sender) {
  await timeboxesLoaded;
  const box = typeof message.session === "string" && timeboxes.get(message.session);
  const tabId = sender && sender.tab && sender.tab.id;
  if (!box || sender.id !== api.runtime.id || sender.frameId !== 0 || !box.tabs.includes(tabId) ||
      (sender.url && !inSite(sender.url, box)) || !box.choices.includes(message.choice)) {
    return { ok: false };
  }
  if (box.answering) return { ok: true }; // another tab answered a moment before
  await answerTimebox(box, message.choice, tabId);
  return { ok: true, remove: message.choice !== "close" };
}

// Records the choice, then does it. A host that cannot record it costs the person nothing:
// the overlays go (and Close still closes, as they asked).
async function answerTimebox(box, choice, fromTab) {
  box.answering = true;
  clearTimeboxTimers(box);
  let reply;
  try {
    reply = await ask(request("timebox_end", { session: box.session, choice }));
  } catch (error) {
    reply = { type: "error", error: String(error && error.message || error) };
  }
  const failed = !reply || reply.type === "error";
  if (failed) console.warn(`miga: the soft end's "${choice}" was not recorded:`, reply && reply.error);
  try {
    if (choice === "close") await closeSiteTabs(box, fromTab);
  } catch (error) {
    console.warn("miga: the soft end's choice:", error);
  }
  // Whatever is left of the overlays goes (a tab Close did not close, as it left the site).
  if (choice !== "gone") removeOverlays(box);
  box.answering = false;
  box.tabs = [];
  if (failed) {
    // Kept, so the next state does not show it again; no more overlays for it.
    box.settled = true;
    saveTimeboxes();
    return;
  }
  const after = choice === "extend" && timeboxFrom(reply.timebox);
  if (after && after.session === box.session) {
    // Five more minutes: the site's grace runs to the new end, and so does the timebox.
    if (reply.grace_until && state) {
      state.grace[box.site] = reply.grace_until;
      await rebuildRules();
    }
    Object.assign(box, after, { noticed: false, fired: null, settled: false });
    saveTimeboxes();
    scheduleTimebox(box);
    return;
  }
  timeboxes.delete(box.session);
  saveTimeboxes();
}

// Close tab: the site's tabs that show the overlay close; were they every tab there is, the
// last shows the calm page instead (as Exit does), so the browser is not closed under them.
async function closeSiteTabs(box, fromTab) {
  const tabs = await api.tabs.query({});
  const closing = tabs.filter((tab) => box.tabs.includes(tab.id) && inSite(tab.url || lastAddress.get(tab.id), box));
  if (!closing.length) return;
  let calm = null;
  if (closing.length === tabs.length) calm = closing.find((tab) => tab.id === fromTab) || closing[closing.length - 1];
  if (calm) await api.tabs.update(calm.id, { url: CALM_PAGE });
  const ids = closing.filter((tab) => tab !== calm).map((tab) => tab.id);
  if (ids.length) await api.tabs.remove(ids);
}

// A tab that showed an overlay closed, or left the site: when no tab of the site is left, no
// one will answer, and the timebox ended `gone`.
async function tabLeftSoftEnd(tabId) {
  await timeboxesLoaded;
  for (const box of [...timeboxes.values()]) {
    if (box.answering || box.settled || box.fired !== box.end || !box.tabs.includes(tabId)) continue;
    box.tabs = box.tabs.filter((id) => id !== tabId);
    saveTimeboxes();
    if (box.tabs.length) continue;
    try {
      if ((await tabsOfSite(box)).length) continue;
    } catch (error) {
      continue;
    }
    if (!box.answering && !box.tabs.length && timeboxes.get(box.session) === box) answerTimebox(box, "gone");
  }
}

// While an overlay waits for its answer, a page of the site that (re)loads shows it too (the
// person reloaded, went on inside the site, or a tab came back from being discarded); a tab
// that showed it and went elsewhere no longer counts.
api.webNavigation.onCommitted.addListener((details) => {
  if (details.frameId !== 0) return;
  for (const box of timeboxes.values()) {
    if (box.tabs.includes(details.tabId) && !inSite(details.url, box)) tabLeftSoftEnd(details.tabId);
  }
});
api.webNavigation.onCompleted.addListener(async (details) => {
  if (details.frameId !== 0 || !/^https?:/.test(details.url)) return;
  await timeboxesLoaded;
  for (const box of timeboxes.values()) {
    if (box.fired === box.end && !box.settled && !box.answering && inSite(details.url, box)) showOverlay(box, details.tabId);
  }
});

// ---- what the soft end puts in a page ----------------------------------------------------------
// These functions run in the page's tab, in the extension's isolated world (scripting), each on
// its own: they use nothing from this file. What they show lives in a closed shadow root,
// styled from inside (inline, so a page's style-src policy cannot strip it), so the page's CSS
// cannot restyle it and its scripts cannot read or click it; the host element's own styles are
// inline and important. Only its tag name shows that something is there.

function softEndOverlay(options) {
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

function removeSoftEnd(session) {
  const shown = globalThis.__migaSoftEnd;
  if (shown && shown.session === session) shown.remove();
}

function softEndNotice(options) {
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

// ---- start -----------------------------------------------------------------------------------

// A bypass outlives nothing: rules left by a worker that was stopped mid-way go at start.
api.declarativeNetRequest.getSessionRules().then((rules) => {
  const stale = rules.map((rule) => rule.id).filter((id) => id >= BYPASS_RULE_BASE && !bypasses.has(id - BYPASS_RULE_BASE));
  if (stale.length) return api.declarativeNetRequest.updateSessionRules({ removeRuleIds: stale });
}).catch(() => {});

api.alarms.create("miga-refresh", { periodInMinutes: 1 });
api.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === "miga-refresh") refresh();
  else if (alarm.name.startsWith(NOTICE_ALARM)) timeboxNotice(alarm.name.slice(NOTICE_ALARM.length));
  else if (alarm.name.startsWith(END_ALARM)) timeboxEnd(alarm.name.slice(END_ALARM.length));
});
refresh();
