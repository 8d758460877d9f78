// Where a gate runs and how it talks to the extension's worker, shared by gate.js and
// gate-questions.js. One gate, two places: the gate page (gate.html, in its own tab) and the
// gate over a page (page-gate-overlay.js, built from these same modules, inside a closed
// shadow root). `runGate` (gate.js) fills `env` once, before anything else here is used.
export const api = globalThis.browser ?? globalThis.chrome;

// dom: the Document or ShadowRoot holding the gate's elements (both have getElementById and
// activeElement); root: the element whose data-state and data-question the CSS follows;
// target: the address asked for; isPost: it was a form sent; transport: see gate.js.
export const env = { dom: null, root: null, target: "", isPost: false, transport: null };
export const $ = (id) => env.dom.getElementById(id);
export const focused = () => env.dom.activeElement;

let port = null;
let nextReply = 1;
const waiting = new Map();
// What the gate is doing now.
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
// the next request connects again, and the gate goes on (see gates.js).
function connect() {
  port = env.transport.connect();
  port.onMessage.addListener((message) => {
    const waiter = message && waiting.get(message.replyTo);
    if (!waiter) return;
    waiting.delete(message.replyTo);
    waiter.resolve(message);
  });
  port.onDisconnect.addListener(() => {
    port = null;
    for (const waiter of waiting.values()) waiter.reject(new Error("the extension restarted"));
    waiting.clear();
  });
}

// The gate over a page is over: its port goes with it (the worker has what it needs).
export function hangUp() {
  if (!port) return;
  const current = port;
  port = null;
  current.disconnect();
}

// Every request names the gate, so a worker that restarted meanwhile knows which it is.
export function request(message) {
  if (!port) connect();
  return send(now.gate ? { ...message, session: now.gate.session, url: webAddress(env.target) } : message);
}

function send(message) {
  return new Promise((resolve, reject) => {
    const replyTo = nextReply++;
    waiting.set(replyTo, { resolve, reject });
    try {
      port.postMessage({ ...message, replyTo });
    } catch (error) {
      waiting.delete(replyTo);
      reject(error);
    }
  });
}

// The gate is done and the address opens: the page loads it, the overlay uncovers it.
// `problem`: the one line said when that is miga failing open.
export function go(url, problem) {
  now.finished = true;
  clearInterval(now.ticker);
  env.root.dataset.state = "opening";
  if (problem) say(problem);
  env.transport.open(url, problem);
}

export function setState(name) {
  env.root.dataset.state = name;
}

export function say(text) {
  $("notice").textContent = text || "";
}
