// The daily budget's soft end: when a `focus` reply says a site's `minutes_per_day` ran out
// during the visit (`budget_end`: the host's words and choices), the soft end overlay
// (overlays.js, the timebox's) asks once in that site's tabs: "Your 30 minutes on reddit.com
// for today are used" — Close tab · Keep going. The choice goes to the host as `budget_end`.
// Asked once per site a day in this browser (kept in storage.session); a gateway, never a lock:
// if anything fails, the person keeps their page.
import { api, CALM_PAGE } from "./api.js";
import { request } from "./protocol.js";
import { ask, siteFor } from "./host.js";
import { lastAddress } from "./tabs.js";
import { showSoftEnd, removeSoftEnd } from "./overlays.js";

const STORE_KEY = "budgets";
const CHOICES = ["close", "keep"];
// site → { session, site, day, url, message, choices, tabs (ids showing it), answering, answered }
const budgets = new Map();

const loaded = api.storage && api.storage.session
  ? api.storage.session.get(STORE_KEY).then((saved) => {
    for (const budget of Array.isArray(saved && saved[STORE_KEY]) ? saved[STORE_KEY] : []) {
      if (budget && typeof budget.site === "string" && typeof budget.day === "string" && !budgets.has(budget.site)) {
        budgets.set(budget.site, { ...budget, tabs: Array.isArray(budget.tabs) ? budget.tabs.filter(Number.isInteger) : [],
          answering: false });
      }
    }
  }).catch(() => {})
  : Promise.resolve();

function save() {
  if (!api.storage || !api.storage.session) return;
  const list = [...budgets.values()].map(({ answering, ...budget }) => budget);
  api.storage.session.set({ [STORE_KEY]: list }).catch(() => {});
}

function today() {
  const now = new Date();
  return `${now.getFullYear()}-${now.getMonth() + 1}-${now.getDate()}`;
}

// The host's `budget_end`, checked: null when it is not one.
function budgetEndFrom(end) {
  if (!end || typeof end !== "object" || typeof end.site !== "string" || !end.site || end.site.length > 300) return null;
  if (typeof end.message !== "string" || !end.message || end.message.length > 500 || !Array.isArray(end.choices)) return null;
  const choices = end.choices.filter((entry) => entry && CHOICES.includes(entry.choice) && typeof entry.label === "string" &&
    entry.label && entry.label.length <= 100).map((entry) => ({ choice: entry.choice, label: entry.label }));
  if (!choices.length) return null;
  return { site: end.site, message: end.message, minutes: Number.isInteger(end.minutes) ? end.minutes : null, choices };
}

// The tabs showing a page of `site` (by the host's rule).
async function tabsOfSite(site) {
  const tabs = await api.tabs.query({});
  return tabs.filter((tab) => siteFor(tab.url || lastAddress.get(tab.id)) === site);
}

// A `focus` reply's `budget_end` for the page at `url`: the soft end in the site's tabs, once.
export async function budgetDue(raw, url) {
  await loaded;
  const end = budgetEndFrom(raw);
  if (!end || siteFor(url) !== end.site) return;
  const known = budgets.get(end.site);
  if (known && known.day === today()) return; // asked already today
  const budget = { session: `budget:${end.site}:${today()}`, site: end.site, day: today(), url, message: end.message,
    choices: end.choices, tabs: [], answering: false, answered: false };
  budgets.set(end.site, budget);
  save();
  let tabs = [];
  try {
    tabs = await tabsOfSite(end.site);
  } catch (error) {
    return;
  }
  if (!tabs.length) return answer(budget, "gone");
  await Promise.all(tabs.map((tab) => showIn(budget, tab.id)));
  if (!budget.tabs.length && !budget.answered) answer(budget, "gone");
}

// The question in one tab of the site (again, if the page loaded anew meanwhile).
async function showIn(budget, tabId) {
  if (budget.answered || budget.answering) return;
  try {
    await showSoftEnd(tabId, { session: budget.session, site: budget.site, message: budget.message, choices: budget.choices,
      reply: "budget_end" });
  } catch (error) {
    return; // a tab that cannot show it (discarded, an error page) goes without
  }
  if (!budget.tabs.includes(tabId)) budget.tabs.push(tabId);
  save();
}

// Records the choice, then does it. A host that cannot record it costs the person nothing.
async function answer(budget, choice, fromTab) {
  if (budget.answering || budget.answered) return;
  budget.answering = true;
  try {
    const reply = await ask(request("budget_end", { url: budget.url, choice }));
    if (reply && reply.type === "error") console.warn(`miga: the budget's "${choice}" was not recorded:`, reply.error);
  } catch (error) {
    console.warn(`miga: the budget's "${choice}" was not recorded:`, error);
  }
  try {
    if (choice === "close") await closeTabs(budget, fromTab);
  } catch (error) {
    console.warn("miga: the budget's Close:", error);
  }
  for (const tabId of budget.tabs) removeSoftEnd(tabId, budget.session).catch(() => {});
  budget.tabs = [];
  budget.answering = false;
  budget.answered = true;
  save();
}

// Close tab: the tabs showing it close; were they every tab there is, the last shows the calm
// page instead, so the browser is not closed under the person.
async function closeTabs(budget, fromTab) {
  const tabs = await api.tabs.query({});
  const closing = tabs.filter((tab) => budget.tabs.includes(tab.id));
  if (!closing.length) return;
  const calm = closing.length === tabs.length ? (closing.find((tab) => tab.id === fromTab) || closing[closing.length - 1]) : null;
  if (calm) await api.tabs.update(calm.id, { url: CALM_PAGE });
  const ids = closing.filter((tab) => tab !== calm).map((tab) => tab.id);
  if (ids.length) await api.tabs.remove(ids);
}

// The overlay says what was chosen: only from a tab it was put in, its top frame, its own
// script (the page's scripts cannot reach the extension).
api.runtime.onMessage.addListener((message, sender, sendResponse) => {
  if (!message || message.type !== "budget_end") return false;
  chosen(message, sender).then(sendResponse, () => sendResponse({ ok: false }));
  return true;
});

async function chosen(message, sender) {
  await loaded;
  const budget = [...budgets.values()].find((candidate) => candidate.session === message.session);
  const tabId = sender && sender.tab && sender.tab.id;
  if (!budget || sender.id !== api.runtime.id || sender.frameId !== 0 || !budget.tabs.includes(tabId) ||
      !CHOICES.includes(message.choice) || budget.answered) {
    return { ok: false };
  }
  if (budget.answering) return { ok: true };
  await answer(budget, message.choice, tabId);
  return { ok: true, remove: message.choice !== "close" };
}

// A tab that showed it closed or left the site: with none left, no one will answer (`gone`).
async function tabLeft(tabId) {
  await loaded;
  for (const budget of budgets.values()) {
    if (budget.answered || budget.answering || !budget.tabs.includes(tabId)) continue;
    budget.tabs = budget.tabs.filter((id) => id !== tabId);
    save();
    if (!budget.tabs.length) answer(budget, "gone");
  }
}

api.tabs.onRemoved.addListener((tabId) => tabLeft(tabId));
// While the question waits for its answer, a page of the site that (re)loads asks it too.
api.webNavigation.onCompleted.addListener(async (details) => {
  if (details.frameId !== 0 || !/^https?:/.test(details.url)) return;
  await loaded;
  const budget = budgets.get(siteFor(details.url));
  if (budget && budget.day === today() && Array.isArray(budget.choices) && budget.tabs.length) showIn(budget, details.tabId);
});
api.webNavigation.onCommitted.addListener((details) => {
  if (details.frameId !== 0) return;
  for (const budget of budgets.values()) {
    if (budget.tabs.includes(details.tabId) && siteFor(details.url) !== budget.site) tabLeft(details.tabId);
  }
});
