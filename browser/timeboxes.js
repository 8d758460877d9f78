// "For how long?": the soft end of a timebox in a site's tabs. The host decides every time and
// choice (protocol.js's `timebox` record); this times them and shows them.
import { api, CALM_PAGE } from "./api.js";
import { request } from "./protocol.js";
import { state, ask } from "./host.js";
import { rebuildRules } from "./rules.js";
import { lastAddress } from "./tabs.js";
import { showSoftEnd, removeSoftEnd, showNotice } from "./overlays.js";


// An Open that said how long (ask_minutes) comes with a timebox, from the open reply or, for
// every gated site, in each state: {session, site, minutes, end (Unix ms), extended}. A quiet
// notice one minute before its end, in that site's tabs; at the end an overlay in exactly
// those tabs ("Your 10 minutes on reddit.com are up": Close tab · 5 more minutes · Keep going),
// whose choice goes to the host as `timebox_end`. The timeboxes are kept in memory and in
// storage.session (with the tabs that show an overlay), timed by alarms, which wake a stopped
// worker, and by timers, which are exact while it runs; the states the host sends time them
// again after a restart of the browser. Nothing here ever blocks a navigation: if anything
// fails, the person keeps their tab.
export const NOTICE_ALARM = "miga-timebox-notice:";
export const END_ALARM = "miga-timebox-end:";
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
// address, whether the rule can be used at all. A path site's rule (its name holds the path:
// youtube.com/shorts) is matched with case, as host.js matches it; a whole host's without.
const compiledPatterns = new Map(); // pattern → RegExp
function inSite(url, box) {
  let pattern = compiledPatterns.get(box.addresses);
  if (!pattern) {
    try {
      pattern = new RegExp(box.addresses, String(box.site).includes("/") ? "" : "i");
    } catch (error) {
      return false;
    }
    compiledPatterns.set(box.addresses, pattern);
  }
  return url === null || (typeof url === "string" && pattern.test(url));
}

// A state's timeboxes are all there are: one no longer listed was answered (here or in
// another browser) or replaced by a later Open, and its overlays go.
export async function syncTimeboxes(list) {
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
export async function learnTimebox(raw) {
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

export async function timeboxNotice(session) {
  await timeboxesLoaded;
  const box = timeboxes.get(session);
  if (!box || box.noticed || box.settled || box.answering) return;
  if (Date.now() < box.notice_at - 1000) return scheduleTimebox(box); // early: again
  box.noticed = true;
  saveTimeboxes();
  if (Date.now() >= box.notice_until) return;
  try {
    for (const tab of await tabsOfSite(box)) {
      showNotice(tab.id, { site: box.domain })
        .catch(() => {}); // a tab that cannot show it (discarded, an error page) goes without
    }
  } catch (error) {
    console.warn("miga: the minute's notice:", error);
  }
}

export async function timeboxEnd(session) {
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
    await showSoftEnd(tabId,
      { session: box.session, site: box.domain, minutes: box.declared_minutes, choices: box.choices, extendLabel: box.extend_label });
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
    removeSoftEnd(tabId, box.session).catch(() => {});
  }
}

// The overlay says what was chosen. Only a tab it was put in may answer for its timebox, and
// only the overlay's own script there (the page's scripts cannot reach the extension).
export async function softEndChosen(message, sender) {
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
export async function tabLeftSoftEnd(tabId) {
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

api.tabs.onRemoved.addListener((tabId) => tabLeftSoftEnd(tabId));
