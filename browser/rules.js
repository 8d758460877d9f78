// The browser's request rules, built from the host's state: a redirect to the gate page per
// gated site, allow rules while something lets a site in (grace, hours without a gate, the
// navigation after Open), and blocks for a site's own workers while no tab is on it.
import { api, GATE_PAGE } from "./api.js";
import { state, ruleOf, siteFor, inGrace, ungated, refresh } from "./host.js";
import { lastAddress, lastAddressLoaded } from "./tabs.js";

// After Open (or a grace pass) the tab may load anything for this long, so a redirect chain
// (t.co → reddit.com → www.reddit.com) completes without a second gate.
const BYPASS_MS = 30000;
const BYPASS_RULE_BASE = 100000;
let graceTimer = null;
export const bypasses = new Map(); // tabId → timer

// A path site's rules (youtube.com/shorts) sit above every rule of a whole host (its redirect,
// and its grace's allow: the host's grace does not let the path site in), and match with case.
const PATH_PRIORITY = 51;

function caseOf(rule) {
  return rule.path ? { isUrlFilterCaseSensitive: true } : {};
}

// The redirect rules: one pair per site, kept as long as the site is listed.
function rulesFor(sites) {
  const rules = [];
  let id = 1;
  for (const rule of sites.map(ruleOf).filter(Boolean)) {
    const { domain, addresses: regexFilter, path } = rule;
    // A gate guards the entry into a site, not each page: a navigation the site itself starts
    // (a link, a form, a script on one of its pages) is a visit going on, not an entry. Not
    // so for a path site: a link from its host into the path is an entry into it (a tab
    // already inside it goes on by its own rule, insideRulesFor).
    const condition = { requestDomains: [domain], resourceTypes: ["main_frame"], regexFilter, ...caseOf(rule) };
    if (!path) condition.excludedInitiatorDomains = [domain];
    const priority = path ? PATH_PRIORITY : 1;
    rules.push({
      id: id++, priority, condition,
      action: { type: "redirect", redirect: { regexSubstitution: GATE_PAGE + "#\\1" } },
    });
    // A form sent to a gated site is not sent again after Open; its gate says so.
    rules.push({
      id: id++, priority: priority + 1, condition: { ...condition, requestMethods: ["post"] },
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
  return sites.filter((site) => ruleOf(site) && (inGrace(site, now) || ungated(site, now))).map((site, index) => {
    const rule = ruleOf(site);
    const condition = { requestDomains: [rule.domain], resourceTypes: ["main_frame"] };
    // A path site's grace is its own: its addresses only, above its redirect.
    if (rule.path) Object.assign(condition, { regexFilter: rule.addresses, ...caseOf(rule) });
    return { id: OPEN_RULE_BASE + index, priority: rule.path ? PATH_PRIORITY + 4 : 50, action: { type: "allow" }, condition };
  });
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
    await lastAddressLoaded;
    const open = (await api.declarativeNetRequest.getSessionRules()).map((rule) => rule.id)
      .filter((id) => id >= OPEN_RULE_BASE && id < BYPASS_RULE_BASE); // the open, the workers' and the inside rules
    const followers = tabRulesFor(sites, now);
    workerRulesKey = JSON.stringify(followers);
    await api.declarativeNetRequest.updateSessionRules({ removeRuleIds: open, addRules: [...openRulesFor(sites, now), ...followers] });
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
    condition: { requestDomains: [rule.domain], initiatorDomains: [rule.domain], tabIds: [-1], regexFilter: rule.addresses, ...caseOf(rule) },
  }));
}

// A gate guards the entry into a path site, not each page: a tab that shows a page of a path
// site (it got in: Open, grace, hours without a gate) may go on inside it — one allow rule per
// path site for the tabs inside it, above its redirect, while they stay there. A tab that
// leaves the path site, or closes, is no longer in it (backstop.js refreshes these rules as
// tabs come and go from sites).
const INSIDE_RULE_BASE = 70000;

function insideRulesFor(sites) {
  const rules = [];
  sites.map(ruleOf).filter((rule) => rule && rule.path).forEach((rule, index) => {
    const tabIds = [...lastAddress].filter(([, url]) => siteFor(url) === rule.site).map(([tabId]) => tabId).sort((a, b) => a - b);
    if (!tabIds.length) return;
    rules.push({
      id: INSIDE_RULE_BASE + index, priority: PATH_PRIORITY + 5, action: { type: "allow" },
      condition: { tabIds, requestDomains: [rule.domain], resourceTypes: ["main_frame"], regexFilter: rule.addresses, ...caseOf(rule) },
    });
  });
  return rules;
}

// The rules that follow the tabs: the workers' and the inside rules.
function tabRulesFor(sites, now) {
  return [...workerRulesFor(sites, now), ...insideRulesFor(sites)];
}

// Called as tabs come and go from sites: only the rules that follow the tabs change, and only
// when needed.
export function refreshWorkerRules() {
  rulesQueue = rulesQueue.then(async () => {
    await lastAddressLoaded;
    const followers = tabRulesFor(state && state.gating ? state.sites : [], Date.now());
    const key = JSON.stringify(followers);
    if (key === workerRulesKey) return;
    workerRulesKey = key;
    const old = (await api.declarativeNetRequest.getSessionRules()).map((rule) => rule.id)
      .filter((id) => id >= WORKER_RULE_BASE && id < BYPASS_RULE_BASE);
    await api.declarativeNetRequest.updateSessionRules({ removeRuleIds: old, addRules: followers });
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
