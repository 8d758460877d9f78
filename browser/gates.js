// Gate pages: the page the rules send a gated navigation to asks here, and this asks the host
// (new gate, resume, Read Next, Exit, Open); a navigation let in by grace or hours without a
// gate is recorded as a pass.
import { api, CALM_PAGE } from "./api.js";
import { request } from "./protocol.js";
import { state, ask, refresh, webAddress, siteFor, inGrace, ungated } from "./host.js";
import { rebuildRules, allowTab, bypasses } from "./rules.js";
import { sentHere, backstopped } from "./tabs.js";
import { learnTimebox } from "./timeboxes.js";

const gates = new Map(); // gate page port → { session, tabId, ended }

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
  serveGate(page, { session: null, url: null, tabId, ended: false, sent, known: sent });
});

// The port of a gate (a gate page, or a gate over a page: page-gate.js), answered here.
// `gate.overlay`, for a gate over a page: {reply (the host's gate, asked already), settle
// (how it ended: "open", "exit", "gone", "failed")}.
export function serveGate(page, gate) {
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
    if (gate.overlay) gate.overlay.settle("gone");
  });
}

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

// What a gate page may ask, one function each: (page, gate, message) → the reply it gets.
const GATE_MESSAGES = {
  gate: newGate,
  next: (page, gate, message) => askAboutGate(gate, { type: "next", session: gate.session }),
  completed: (page, gate, message) => askAboutGate(gate, { type: "completed", session: gate.session }),
  exit: exitGate,
  open: openGate,
  close: closeGateTab,
};

async function handleGateMessage(page, gate, message) {
  // A page whose gate began before this worker did (it restarted) names its gate; the host
  // holds it still, or rebuilds it from what it stored (askAboutGate), or says it has ended.
  if (message && message.type !== "gate" && !gate.session && typeof message.session === "string" && typeof message.url === "string") {
    gate.session = message.session;
    gate.url = message.url;
  }
  const type = message && message.type;
  if (typeof type !== "string" || !Object.hasOwn(GATE_MESSAGES, type)) throw new Error("unknown request");
  return GATE_MESSAGES[type](page, gate, message);
}

// A gated navigation's page asks for its gate; miga's answer may be to go straight on.
async function newGate(page, gate, message) {
  if (gate.overlay) return gate.overlay.reply; // page-gate.js asked before it showed the gate
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
    await learnGrace(reply);
    await allowTab(gate.tabId, gate.url);
    refresh();
    return reply;
  }
  gate.session = reply.session;
  refresh(); // a gate page opening is a good moment to catch up with config and grace
  return reply;
}

// A grace the host gave with its answer holds in the rules at once.
export async function learnGrace(reply) {
  if (reply.grace_until && state) {
    state.grace[reply.site] = reply.grace_until;
    await rebuildRules();
  }
}

async function exitGate(page, gate, message) {
  // A "Do this instead" choice names the host's alternative by its index; the host checks it.
  const exit = { type: "exit", session: gate.session };
  if (Number.isInteger(message.alternative) && message.alternative > 0) exit.alternative = message.alternative;
  const reply = await askAboutGate(gate, exit);
  if (reply.type !== "error") gate.ended = true;
  if (reply.type !== "error" && gate.overlay) gate.overlay.settle("exit");
  // An alternative that is a link opens in this tab after the celebration, with the same
  // one-time pass an Open gives: it is never gated, whatever site it is on.
  const link = reply.type !== "error" && reply.alternative && reply.alternative.kind === "url" ? webAddress(reply.alternative.url) : null;
  if (link && (gate.sent || gate.known)) await allowTab(gate.tabId, link);
  return reply;
}

async function openGate(page, gate, message) {
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
  if (reply.type === "error") return openRefused(gate, reply);
  gate.ended = true;
  await learnGrace(reply);
  if (reply.timebox) await learnTimebox(reply.timebox); // before the site loads in this tab
  // A gate over a page uncovers it: nothing loads, so nothing needs letting through.
  if (gate.overlay) gate.overlay.settle("open");
  else await allowTab(gate.tabId, gate.url);
  return reply;
}

// The host did not record an Open: what the page is told, and whether the site loads.
async function openRefused(gate, reply) {
  // Locked: the page says how long is left. Any other failure is miga's: the person
  // chose Open after the countdown, and Open they get, with one line saying why.
  if (reply.seconds_left != null) return reply;
  // The typed sentence was not the one asked (or none came): the page asks it again. A
  // challenge never fails open.
  if (reply.challenge_failed === true) return reply;
  // A page that only named a gate, which miga does not know, gets no bypass: its address
  // is loaded as any navigation is, and gated if it is an entry.
  if (!gate.sent && !gate.known) return { action: "go", reason: "not_sent" };
  gate.ended = true;
  if (gate.overlay) gate.overlay.settle("failed");
  else await allowTab(gate.tabId, gate.url);
  return { type: "open", failed_open: `miga could not record this Open (${reply.error}); opening anyway.` };
}

// Exit closes the tab, or shows a calm page when it is the window's last (a gate page goes
// there itself; a tab under a gate over a page is sent there).
async function closeGateTab(page, gate, message) {
  const tab = await api.tabs.get(gate.tabId);
  const siblings = await api.tabs.query({ windowId: tab.windowId });
  if (siblings.length > 1) {
    await api.tabs.remove(gate.tabId);
    return { closed: true };
  }
  if (gate.overlay) {
    await api.tabs.update(gate.tabId, { url: CALM_PAGE });
    return { closed: false };
  }
  return { closed: false, calm: CALM_PAGE };
}

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
