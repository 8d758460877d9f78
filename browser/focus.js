// The room, not just the door: which gated site's tab is in front (the active tab of the
// focused window, the person not idle), for how long — `focus` messages, one per full minute
// and the rest when focus leaves — and, when such a tab comes (back) to the front, a `reentry`
// question to the host, whose "gate" brings the gate over the page (page-gate.js).
//
// The host decides every rule (how long away is a return, what covers a site, the budget);
// this only observes and acts on its answers. A tab switch or navigation to a site that is not
// gated costs nothing: it is decided from memory (siteFor, the tabs' last addresses) and sends
// no message. What is in front, since when, and when each gated tab and site was last in front
// are kept in storage.session, so a worker that restarts loses at most a minute and mistakes
// nothing for a return; a browser that starts afresh has no record, and a gated tab it shows
// in front is a return (a tab restored).
import { api } from "./api.js";
import { request } from "./protocol.js";
import { state, ask, siteFor } from "./host.js";
import { lastAddress, lastAddressLoaded } from "./tabs.js";
import { showGateOverPage } from "./page-gate.js";
import { budgetDue } from "./budget.js";

export const FOCUS_ALARM = "miga-focus";
const STORE_KEY = "focus";
const MINUTE_MS = 60000;
// Alarms come every 30 s while a gated tab is in front. A silence of minutes is a worker or a
// computer that was asleep: only a minute past the last alarm counts, the rest is away.
const TICK_MINUTES = 0.5;
const STALE_MS = 3 * MINUTE_MS;
// Focus that leaves a window for another of the same browser passes through "no window" for a
// moment (Firefox says so between the two): only a lasting "no window" is a person gone.
const NO_WINDOW_GRACE_MS = 300;
const DEFAULT_IDLE_SECONDS = 300;

// {tabId, windowId, url, site, since (start of the time not yet sent), checked (last alarm)}
let front = null;
let lastFront = { tabs: {}, sites: {} }; // tabId / site → when it last left the front (ms)
let focusedWindow = null; // a window id, WINDOW_ID_NONE, or null (not known yet)
let idleState = "active";
let idleSeconds = DEFAULT_IDLE_SECONDS;
// A browser session that starts with no record: its first gated tab in front is a return.
let freshSession = false;
const covered = new Set(); // tabs under a coming-back gate: not focus on the site
const asking = new Set(); // tabs whose `reentry` is on its way

const loaded = load();

async function load() {
  try {
    const saved = api.storage && api.storage.session ? await api.storage.session.get(STORE_KEY) : {};
    const kept = saved && saved[STORE_KEY];
    if (kept && typeof kept === "object") {
      front = validFront(kept.front);
      lastFront = { tabs: { ...(kept.tabs || {}) }, sites: { ...(kept.sites || {}) } };
    } else {
      freshSession = true;
    }
  } catch (error) {
    freshSession = false; // no memory: nothing is taken for a return
  }
  try {
    const window = await api.windows.getLastFocused({});
    focusedWindow = window && window.focused ? window.id : api.windows.WINDOW_ID_NONE;
  } catch (error) {
    focusedWindow = null;
  }
  try {
    idleState = await api.idle.queryState(idleSeconds);
  } catch (error) {
    idleState = "active";
  }
}

function validFront(saved) {
  if (!saved || !Number.isInteger(saved.tabId) || typeof saved.url !== "string" || typeof saved.site !== "string") return null;
  if (!Number.isFinite(saved.since) || !Number.isFinite(saved.checked)) return null;
  return { tabId: saved.tabId, windowId: saved.windowId, url: saved.url, site: saved.site, since: saved.since, checked: saved.checked };
}

function save() {
  if (!api.storage || !api.storage.session) return;
  api.storage.session.set({ [STORE_KEY]: { front, tabs: lastFront.tabs, sites: lastFront.sites } }).catch(() => {});
}

// ---- what is in front ---------------------------------------------------------------------

// The active tab of the focused window, while the person is there: {tabId, windowId, url}.
async function tabInFront() {
  if (idleState !== "active" || focusedWindow === api.windows.WINDOW_ID_NONE) return null;
  const query = { active: true };
  if (focusedWindow === null) query.lastFocusedWindow = true;
  else query.windowId = focusedWindow;
  const [tab] = await api.tabs.query(query);
  if (!tab) return null;
  const url = tab.url || lastAddress.get(tab.id);
  return typeof url === "string" ? { tabId: tab.id, windowId: tab.windowId, url } : null;
}

// One look at a time, in order: the events come in bursts (a tab activated, then its window).
let queue = Promise.resolve();

// Looks at what is in front now. `arriving`: a tab came to the front (a tab switch, a window
// focused, the person back from idle), so a gated tab there is a return. `leftAt`: when what
// was in front stopped being so, if that was earlier than now.
function look(arriving, leftAt) {
  queue = queue.then(() => lookNow(arriving, leftAt)).catch((error) => console.warn("miga: focus:", error));
  return queue;
}

async function lookNow(arriving, leftAt) {
  await loaded;
  await lastAddressLoaded;
  const now = Date.now();
  if (front && now - front.checked > STALE_MS) {
    leave(front.checked + MINUTE_MS); // asleep: the time after the last alarm is away
    arriving = true;
  }
  const seen = await tabInFront();
  const site = seen && !covered.has(seen.tabId) ? siteFor(seen.url) : null;
  if (front && (!site || front.tabId !== seen.tabId || front.site !== site)) leave(Math.min(leftAt || now, now));
  const fresh = freshSession;
  if (state && state.gating) freshSession = false; // the first look that knows the sites
  if (!site) return save();
  if (front) {
    front.url = seen.url; // a page inside the site: the visit goes on
    return save();
  }
  const away = awayFrom(seen.tabId, site, now);
  begin(seen, site, now);
  // A tab found in front by a state or a navigation is no return (an entry has its own gate),
  // except the one the browser started with, which nothing has seen yet (a tab restored).
  if (arriving || (fresh && away === null)) comeBack(seen, site, away);
}

// How long the tab (or its site, in another tab) has been away from the front, in ms; null
// when neither was ever seen there.
function awayFrom(tabId, site, now) {
  const times = [lastFront.tabs[tabId], lastFront.sites[site]].filter(Number.isFinite);
  return times.length ? Math.max(0, now - Math.max(...times)) : null;
}

function begin(seen, site, now) {
  front = { tabId: seen.tabId, windowId: seen.windowId, url: seen.url, site, since: now, checked: now };
  save();
  quietly(() => api.alarms.create(FOCUS_ALARM, { periodInMinutes: TICK_MINUTES }));
}

// Focus leaves the site's tab at `at`: the rest is sent, and the tab and site remember when.
function leave(at) {
  const was = front;
  front = null;
  quietly(() => api.alarms.clear(FOCUS_ALARM));
  if (!was) return;
  const end = Math.max(was.since, Math.min(at, was.checked + STALE_MS));
  sendFocus(was.url, end - was.since);
  lastFront.tabs[was.tabId] = end;
  lastFront.sites[was.site] = end;
  save();
}

// Focused time to the host: whole minutes as they come, a last part of 1–60 s.
function sendFocus(url, ms) {
  let seconds = Math.round(ms / 1000);
  while (seconds >= 1) {
    const part = Math.min(60, seconds);
    seconds -= part;
    askFocus(url, part);
  }
}

async function askFocus(url, seconds) {
  let reply;
  try {
    reply = await ask(request("focus", { url, seconds }));
  } catch (error) {
    return; // no host: the time is not recorded, nothing else changes
  }
  if (reply && reply.type === "focus" && reply.budget_end) budgetDue(reply.budget_end, url);
}

// The minute's alarm: each full minute in front goes to the host.
export async function focusTick() {
  await loaded;
  if (!front) {
    quietly(() => api.alarms.clear(FOCUS_ALARM));
    return;
  }
  await look(false);
  if (!front) return;
  const now = Date.now();
  while (now - front.since >= MINUTE_MS) {
    askFocus(front.url, 60);
    front.since += MINUTE_MS;
  }
  front.checked = now;
  save();
}

// ---- coming back ----------------------------------------------------------------------------

// A gated tab came to the front: the host says whether that is a return to pause. Its "gate"
// brings the gate over the page, as it stands; while it is up the time is not the site's.
async function comeBack(seen, site, away) {
  if (asking.has(seen.tabId)) return;
  asking.add(seen.tabId);
  const fields = { url: seen.url };
  if (away !== null) fields.away_seconds = Math.floor(away / 1000);
  let reply = null;
  try {
    reply = await ask(request("reentry", fields));
  } catch (error) {
    reply = null; // no host: no gate
  } finally {
    asking.delete(seen.tabId);
  }
  if (!reply || reply.type !== "reentry" || reply.action !== "gate") return;
  covered.add(seen.tabId);
  await look(false); // the time under the gate is not the site's
  try {
    await showGateOverPage(seen.tabId, seen.url, { reentry: true });
  } finally {
    covered.delete(seen.tabId);
    look(false);
  }
}

// ---- the browser's news ---------------------------------------------------------------------

// The host's state: the idle threshold it names, and the sites (a site newly gated or no
// longer gated changes what is counted).
export function focusStateChanged() {
  const seconds = state && Number.isInteger(state.idle_seconds) && state.idle_seconds >= 15 && state.idle_seconds <= 3600
    ? state.idle_seconds : DEFAULT_IDLE_SECONDS;
  if (seconds !== idleSeconds) {
    idleSeconds = seconds;
    quietly(() => api.idle.setDetectionInterval(seconds));
  }
  look(false);
}

quietly(() => api.idle.setDetectionInterval(idleSeconds));

api.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === FOCUS_ALARM) focusTick();
});

api.idle.onStateChanged.addListener(async (newState) => {
  await loaded;
  const was = idleState;
  idleState = newState;
  if (newState === "active") {
    if (was !== "active") look(true); // back from idle or a locked screen: a return
    return;
  }
  // Idle is noticed after the threshold without input: the person left that long ago.
  look(false, newState === "idle" ? Date.now() - idleSeconds * 1000 : Date.now());
});

let noWindowTimer = null;
api.windows.onFocusChanged.addListener(async (windowId) => {
  await loaded;
  clearTimeout(noWindowTimer);
  if (windowId !== api.windows.WINDOW_ID_NONE) {
    const returning = focusedWindow !== windowId;
    focusedWindow = windowId;
    if (returning) look(true);
    return;
  }
  const leftAt = Date.now();
  noWindowTimer = setTimeout(() => {
    focusedWindow = api.windows.WINDOW_ID_NONE;
    look(false, leftAt);
  }, NO_WINDOW_GRACE_MS);
});

api.tabs.onActivated.addListener(async ({ tabId, windowId }) => {
  await loaded;
  await lastAddressLoaded;
  // A switch between tabs of no gated site, with none in front before: nothing to do.
  const url = lastAddress.get(tabId);
  if (!front && url !== undefined && !siteFor(url)) return;
  if (focusedWindow !== null && focusedWindow !== windowId) return; // a window behind
  look(true);
});

// The front tab's address changed (a link, a route): into a site, out of it, or within it.
api.tabs.onUpdated.addListener((tabId, change, tab) => {
  if (!change.url || !tab || !tab.active) return;
  if (!(front && front.tabId === tabId) && !siteFor(change.url)) return;
  look(false);
});

api.tabs.onRemoved.addListener(async (tabId) => {
  await loaded;
  if (front && front.tabId === tabId) look(false);
  if (lastFront.tabs[tabId] !== undefined) {
    delete lastFront.tabs[tabId];
    save();
  }
});

// Runs `call`, whatever it returns or throws (alarms and idle return no promise everywhere).
function quietly(call) {
  try {
    const result = call();
    if (result && typeof result.catch === "function") result.catch(() => {});
  } catch (error) {
    // nothing to do
  }
}
