// The browser's request rules, built from the host's state: a redirect to the gate page per
// gated site, allow rules while something lets a site in (grace, hours without a gate, the
// navigation after Open), and blocks for a site's own workers while no tab is on it.
import { api, GATE_PAGE } from "./api.js";
import { state, ruleOf, siteFor, inGrace, ungated, refresh } from "./host.js";
import { lastAddress } from "./tabs.js";

// After Open (or a grace pass) the tab may load anything for this long, so a redirect chain
// (t.co → reddit.com → www.reddit.com) completes without a second gate.
const BYPASS_MS = 30000;
const BYPASS_RULE_BASE = 100000;
let graceTimer = null;
export const bypasses = new Map(); // tabId → timer

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

export function rebuildRules() {
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
export function refreshWorkerRules() {
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
export async function allowTab(tabId, url) {
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

export function endBypass(tabId) {
  clearTimeout(bypasses.get(tabId));
  bypasses.delete(tabId);
  if (opening.delete(tabId)) refreshWorkerRules();
  api.declarativeNetRequest.updateSessionRules({ removeRuleIds: [BYPASS_RULE_BASE + tabId] }).catch(() => {});
}

// A bypass outlives nothing: rules left by a worker that was stopped mid-way go at start.
export function removeStaleBypasses() {
  api.declarativeNetRequest.getSessionRules().then((rules) => {
    const stale = rules.map((rule) => rule.id).filter((id) => id >= BYPASS_RULE_BASE && !bypasses.has(id - BYPASS_RULE_BASE));
    if (stale.length) return api.declarativeNetRequest.updateSessionRules({ removeRuleIds: stale });
  }).catch(() => {});
}
