// The gate page's state and its port to the extension's worker, shared by gate.js and
// gate-questions.js.
export const api = globalThis.browser ?? globalThis.chrome;
export const root = document.documentElement;
export const $ = (id) => document.getElementById(id);

// Everything after the first "#" is the address that was asked for, exactly as the browser
// serialised it.
const href = location.href;
export const target = href.includes("#") ? href.slice(href.indexOf("#") + 1) : "";
export const isPost = new URLSearchParams(location.search).get("post") === "1";

let page = null;
let nextReply = 1;
const waiting = new Map();
// What the page is doing now.
export const now = {
  gate: null, // the host's "gate" reply
  startedAt: 0,
  completedSent: false,
  finished: false,
  ticker: null,
  asking: false, // "What are you here to do?" is showing (intention = true)
  askingMinutes: false, // "For how long?" is showing (ask_minutes = true)
  intentionAnswer: null, // the answer to "What are you here to do?", kept while "For how long?" asks
  askingChallenge: false, // "Type this to open:" is showing (challenge = "type")
  challengeTyped: null, // the sentence as typed, kept while the later questions ask
};

export function webAddress(text) {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch (error) {
    return null;
  }
}

// The port to the extension's worker. A worker that restarts (an update, a crash) drops it:
// the next request connects again, and the gate goes on (see background.js).
function connectPage() {
  page = api.runtime.connect({ name: "gate" });
  page.onMessage.addListener((message) => {
    const waiter = message && waiting.get(message.replyTo);
    if (!waiter) return;
    waiting.delete(message.replyTo);
    waiter.resolve(message);
  });
  page.onDisconnect.addListener(() => {
    page = null;
    for (const waiter of waiting.values()) waiter.reject(new Error("the extension restarted"));
    waiting.clear();
  });
}

// Every request names the gate, so a worker that restarted meanwhile knows which it is.
export function request(message) {
  if (!page) connectPage();
  return send(now.gate ? { ...message, session: now.gate.session, url: webAddress(target) } : message);
}

function send(message) {
  return new Promise((resolve, reject) => {
    const replyTo = nextReply++;
    waiting.set(replyTo, { resolve, reject });
    try {
      page.postMessage({ ...message, replyTo });
    } catch (error) {
      waiting.delete(replyTo);
      reject(error);
    }
  });
}

export function go(url) {
  now.finished = true;
  root.dataset.state = "opening";
  location.replace(url);
}

export function setState(name) {
  root.dataset.state = name;
}

export function say(text) {
  $("notice").textContent = text || "";
}

