// The native host `miga.gateway`: one port, requests paired with their replies by id, and the
// host's last state (which sites are gated, with the addresses each covers, and what lets one
// in now). Everything here is the host's decision; the extension only applies it. Without the
// host there is no state, and no gate (fail open).
import { api } from "./api.js";
import { request } from "./protocol.js";

const HOST = "miga.gateway";
const REPLY_TIMEOUT_MS = 5000;

let port = null;
let nextId = 1;
const pending = new Map();
export let state = null; // the host's last "state" message
export let hostProblem = null; // why the host cannot be reached, when it cannot
// What the rest of the extension does when the state changes, or timeboxes arrive with it
// (set by background.js, so this module needs none of them).
export const hooks = { stateChanged() {}, timeboxesArrived() {} };

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

export function ask(message) {
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
  hooks.stateChanged(); // fail open: no host, no gate
}

export async function refresh() {
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
    // After how long without input the person counts as away (focus.js checks its range).
    idle_seconds: Number.isInteger(message.idle_seconds) ? message.idle_seconds : null,
  };
  state.sites = state.rules.map((rule) => rule.site);
  hooks.stateChanged();
  // Every gated site's timebox that runs or has ended unanswered (an older host sends none).
  if (Array.isArray(message.timeboxes)) hooks.timeboxesArrived(message.timeboxes);
}

// An http(s) address as the browser writes it, or null.
export function webAddress(text) {
  try {
    const url = new URL(String(text));
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch (error) {
    return null;
  }
}

// A site's rule from the host: {site, domain, addresses, path}, with its pattern compiled; null
// when it is not one (that site is then not gated here: fail open). A path site's pattern
// (`path` not "": youtube.com/shorts) is matched with case, as paths are; a whole host's without.
function siteRuleFrom(rule) {
  if (!rule || typeof rule.site !== "string" || typeof rule.domain !== "string" || typeof rule.addresses !== "string") return null;
  const path = typeof rule.path === "string" ? rule.path : "";
  try {
    return { site: rule.site, domain: rule.domain, addresses: rule.addresses, path, pattern: new RegExp(rule.addresses, path ? "" : "i") };
  } catch (error) {
    return null;
  }
}

export function ruleOf(site) {
  return state ? state.rules.find((rule) => rule.site === site) : undefined;
}

// The listed site `url` belongs to, by the host's rules: the first that matches (the host sends
// them in the order it tries them, a path site before its host).
export function siteFor(url) {
  if (typeof url !== "string" || !state || !state.gating) return null;
  const rule = state.rules.find((candidate) => candidate.pattern.test(url));
  return rule ? rule.site : null;
}

export function inGrace(site, now = Date.now()) {
  return Boolean(state && Number(state.grace[site]) > now);
}

export function ungated(site, now = Date.now()) {
  return Boolean(state && Number(state.ungated[site]) > now);
}
