// The pause in a browser tab: the same experience as miga's terminal gate. The countdown runs
// on the monotonic clock (performance.now); miga's host keeps its own and has the last word.
"use strict";

const api = globalThis.browser ?? globalThis.chrome;
const root = document.documentElement;
const $ = (id) => document.getElementById(id);

// Everything after the first "#" is the address that was asked for, exactly as the browser
// serialised it.
const href = location.href;
const target = href.includes("#") ? href.slice(href.indexOf("#") + 1) : "";
const isPost = new URLSearchParams(location.search).get("post") === "1";

let page = null;
let nextReply = 1;
const waiting = new Map();
let gate = null; // the host's "gate" reply
let startedAt = 0;
let completedSent = false;
let finished = false;
let ticker = null;
let asking = false; // "What are you here to do?" is showing (intention = true)
let askingMinutes = false; // "For how long?" is showing (ask_minutes = true)
let intentionAnswer = null; // the answer to "What are you here to do?", kept while "For how long?" asks
let askingChallenge = false; // "Type this to open:" is showing (challenge = "type")
let challengeTyped = null; // the sentence as typed, kept while the later questions ask

function webAddress(text) {
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
function request(message) {
  if (!page) connectPage();
  return send(gate ? { ...message, session: gate.session, url: webAddress(target) } : message);
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

function go(url) {
  finished = true;
  root.dataset.state = "opening";
  location.replace(url);
}

function setState(name) {
  root.dataset.state = name;
}

function say(text) {
  $("notice").textContent = text || "";
}

// A picture of the person's own, beside the words: only an image the host put in the reply
// itself (a data: URL of a picture type), never an address that would load something.
const IMAGE_URL = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}$/;

function showImage(item) {
  const image = $("image");
  const source = item && typeof item.image === "string" && IMAGE_URL.test(item.image) ? item.image : null;
  if (!source) {
    image.hidden = true;
    image.removeAttribute("src");
    image.alt = "";
    return;
  }
  const named = [item.title, item.author].find((text) => typeof text === "string" && text.trim());
  image.alt = named ? named.trim() : "Picture";
  image.onerror = () => { image.hidden = true; }; // a picture that does not decode is not shown
  image.src = source;
  image.hidden = false;
}

function showItem(item) {
  const content = $("content");
  content.replaceChildren();
  showImage(item && typeof item.text === "string" ? item : null);
  if (!item || typeof item.text !== "string") return;
  if (item.kind === "article") {
    if (item.title) {
      const title = document.createElement("h1");
      title.textContent = item.title;
      content.append(title);
    }
    for (const paragraph of item.text.split(/\n\s*\n/)) {
      const p = document.createElement("p");
      p.textContent = paragraph.trim();
      content.append(p);
    }
  } else {
    const quote = document.createElement("blockquote");
    quote.textContent = item.kind === "quote" ? `“${item.text}”` : item.text;
    content.append(quote);
  }
  if (item.author) {
    const author = document.createElement("p");
    author.className = "author";
    author.textContent = `— ${item.author}`;
    content.append(author);
  }
}

// The host's lines under the site's name ("3rd time today", "Last time: reply to Sam"), as
// plain text; hidden when there are none.
function showNotes(notes) {
  const lines = Array.isArray(notes) ? notes.filter((note) => typeof note === "string" && note.trim()) : [];
  const element = $("notes");
  element.replaceChildren();
  lines.forEach((line, index) => {
    if (index > 0) element.append(document.createElement("br"));
    element.append(document.createTextNode(line.trim()));
  });
  element.hidden = lines.length === 0;
}

// "Open anyway" past today's opens_per_day: the host names it; an older host names nothing.
// While "For how long?" asks, Open (and Enter) takes the default.
function openLabel(left = secondsLeft()) {
  const open = typeof gate.open_label === "string" && gate.open_label ? gate.open_label : "Open";
  if (left > 0) return `${open} in ${left} s`;
  const offer = askingMinutes && minutesOffer();
  return offer ? `${open} · ${offer.default} min` : open;
}

function secondsLeft() {
  const left = gate.timer_seconds * 1000 - (performance.now() - startedAt);
  return left <= 0 ? 0 : Math.ceil(left / 1000);
}

const BREATH = ["Breathe in", "Hold", "Breathe out", "Hold"];

function tick() {
  const elapsed = performance.now() - startedAt;
  const left = secondsLeft();
  const fraction = Math.min(1, elapsed / (gate.timer_seconds * 1000));
  $("fill").style.width = `${(fraction * 100).toFixed(1)}%`;
  $("bar").setAttribute("aria-valuenow", String(Math.round(fraction * 100)));
  $("countdown").textContent = left > 0 ? `${left} s` : "ready";
  $("open-label").textContent = openLabel(left);
  if (gate.breathing === "box") {
    const phase = Math.floor(elapsed / 4000) % 4;
    const count = Math.floor(elapsed / 1000) % 4 + 1;
    $("breath").textContent = `${BREATH[phase]} ${"●".repeat(count)}${"○".repeat(4 - count)}`;
  }
  if (left === 0 && !completedSent) {
    completedSent = true;
    $("open").setAttribute("aria-disabled", "false");
    setState("ready");
    say("");
    request({ type: "completed" }).catch(() => {});
  }
}

// `alternative`: one of the host's "Do this instead" entries, when one was chosen: an Exit
// that then opens it (miga runs a command itself; a link opens in this tab).
async function chooseExit(alternative) {
  if (finished || !gate) return;
  finished = true;
  clearInterval(ticker);
  let message = "You chose not to open it.";
  let chosen = null; // what the host did with the alternative
  const exit = { type: "exit" };
  if (alternative) exit.alternative = alternative.index;
  try {
    const reply = await request(exit);
    if (reply.type !== "error" && reply.message) message = reply.message;
    if (reply.type !== "error" && reply.alternative && typeof reply.alternative === "object") chosen = reply.alternative;
  } catch (error) {
    // the choice stands even if it could not be recorded
  }
  hideChallenge();
  hideQuestion();
  hideMinutes();
  setState("exited");
  $("choices").hidden = true;
  $("timer").hidden = true;
  say("");
  $("celebration-text").textContent = message;
  if (gate.animations) root.classList.add("animate");
  $("celebration").hidden = false;
  const link = chosen && chosen.kind === "url" ? webAddress(chosen.url) : null;
  const problem = chosen && typeof chosen.problem === "string" ? chosen.problem.trim().split("\n")[0] : "";
  if (problem) say(problem); // the command could not start: one line, read before the tab goes
  setTimeout(async () => {
    if (link) {
      // The alternative's page, in this tab (the worker let it through, gated site or not).
      location.replace(link);
      return;
    }
    try {
      const reply = await request({ type: "close" });
      if (reply && reply.calm) location.replace(reply.calm);
    } catch (error) {
      location.replace("calm.html");
    }
  }, problem ? 6000 : 2500);
}

// The host's "Do this instead" entries (at most three): {index, label, kind}.
function alternativesOffered() {
  const list = gate && Array.isArray(gate.alternatives) ? gate.alternatives : [];
  return list.filter((entry) => entry && typeof entry === "object" && Number.isInteger(entry.index) && entry.index > 0 &&
    typeof entry.label === "string" && entry.label.trim()).slice(0, 3);
}

function buildAlternatives() {
  const group = $("alternatives");
  group.replaceChildren();
  const offered = alternativesOffered();
  offered.forEach((entry, position) => {
    const button = document.createElement("button");
    button.type = "button";
    button.id = `alternative-${position + 1}`;
    button.dataset.kind = entry.kind === "url" ? "url" : "command";
    const key = document.createElement("kbd");
    key.textContent = String(position + 1);
    button.append(key, ` ${entry.label.trim()}`);
    button.addEventListener("click", () => chooseExit(entry));
    group.append(button);
  });
  group.hidden = offered.length === 0;
}

async function readNext() {
  if (finished || !gate) return;
  try {
    const reply = await request({ type: "next" });
    if (reply.type === "error") return say(reply.error);
    showItem(reply.item);
    say("");
  } catch (error) {
    say("miga could not find another item.");
  }
}

// intention = true: Open first asks "What are you here to do?"; Enter in the field opens
// (an empty answer too), Esc comes back to the three choices.
function showQuestion() {
  asking = true;
  root.dataset.question = "shown";
  $("intention").hidden = false;
  say("");
  $("intention-text").focus();
}

function hideQuestion() {
  if (!asking) return;
  asking = false;
  delete root.dataset.question;
  $("intention").hidden = true;
  if (document.activeElement === $("intention-text")) $("intention-text").blur();
}

// challenge = "type": after the countdown, Open first shows a sentence to type exactly, key by
// key. A character that is not the sentence's next one clears the field; a paste, a drop or
// any text the browser puts in at once never counts. Enter, with the whole sentence typed,
// goes on (to the intention, "For how long?", then Open); Esc comes back to the choices.
const CHALLENGE_HINT = "Start again: type it exactly";

function challengeSentence() {
  return gate && typeof gate.challenge === "string" && gate.challenge ? gate.challenge : null;
}

function showChallenge(problem) {
  askingChallenge = true;
  root.dataset.question = "challenge";
  $("challenge-sentence").textContent = challengeSentence();
  const field = $("challenge");
  field.value = "";
  field.maxLength = challengeSentence().length;
  $("challenge-problem").textContent = problem || "";
  $("challenge-box").hidden = false;
  say("");
  field.focus();
  $("choices").scrollIntoView({ block: "nearest" }); // the sentence, its field and Exit in view
}

function hideChallenge() {
  if (!askingChallenge) return;
  askingChallenge = false;
  if (root.dataset.question === "challenge") delete root.dataset.question;
  $("challenge-box").hidden = true;
  $("challenge").value = "";
  $("challenge-problem").textContent = "";
  if (document.activeElement === $("challenge")) $("challenge").blur();
}

// Typed wrong, or put in some other way: the field starts again, and says so.
function challengeRefused() {
  $("challenge").value = "";
  $("challenge-problem").textContent = CHALLENGE_HINT;
}

// Only typing counts: what the browser inserts whole (a paste, a drop, an autocompletion, a
// spelling fix, a yank) is refused before it lands.
const NOT_TYPED = /^insert(FromPaste|FromDrop|FromYank|ReplacementText|Transpose|Link|FromPasteAsQuotation)/;

function watchChallenge() {
  const field = $("challenge");
  let before = "";
  field.addEventListener("beforeinput", (event) => {
    before = field.value;
    if (NOT_TYPED.test(event.inputType || "")) {
      event.preventDefault();
      challengeRefused();
    }
  });
  for (const type of ["paste", "drop"]) {
    field.addEventListener(type, (event) => {
      event.preventDefault();
      challengeRefused();
    });
  }
  field.addEventListener("dragover", (event) => event.preventDefault()); // a drop lands here, and is refused
  field.addEventListener("input", (event) => {
    const sentence = challengeSentence();
    if (!sentence || event.isComposing) return;
    const value = field.value;
    // More than one character at once is not a key (a middle-click paste, an extension
    // filling the field); a character that is not the sentence's next one is a mistake.
    const grew = value.length - before.length;
    if (!sentence.startsWith(value) || (grew > 1 && event.inputType !== "insertCompositionText")) return challengeRefused();
    before = value;
    if ($("challenge-problem").textContent === CHALLENGE_HINT && value) $("challenge-problem").textContent = "";
  });
}

// Esc from any question: back to the choices; the next Open asks everything again.
function backToChoices() {
  if (finished) return;
  hideChallenge();
  hideQuestion();
  hideMinutes();
  challengeTyped = null;
  intentionAnswer = null;
}

// ask_minutes = true: after the countdown (and the intention, when asked), Open asks "For
// how long?": one key per answer (1…4), Enter takes the default, Esc comes back to the three
// choices. The host's offer: {choices: [5, 10, 20, 30], default: 10}, or null.
function minutesOffer() {
  const offer = gate && gate.minutes;
  if (!offer || typeof offer !== "object" || !Array.isArray(offer.choices)) return null;
  const choices = offer.choices.filter((minutes) => Number.isInteger(minutes) && minutes > 0).slice(0, 9);
  const fallback = Number.isInteger(offer.default) && offer.default > 0 ? offer.default : choices[0];
  return choices.length ? { choices, default: fallback } : null;
}

function buildMinutes(offer) {
  const group = $("minutes-choices");
  group.replaceChildren();
  offer.choices.forEach((minutes, index) => {
    const button = document.createElement("button");
    button.type = "button";
    button.id = `minutes-${minutes}`;
    button.dataset.minutes = String(minutes);
    if (minutes === offer.default) button.classList.add("default");
    const key = document.createElement("kbd");
    key.textContent = String(index + 1);
    button.append(key, ` ${minutes} min`);
    button.addEventListener("click", () => chooseOpen(minutes));
    group.append(button);
  });
  $("minutes-default").textContent = `${offer.default} min`;
}

function showMinutes(offer) {
  askingMinutes = true;
  root.dataset.question = "minutes";
  $("minutes").hidden = false;
  $("open-key").textContent = "Enter";
  $("open-label").textContent = openLabel();
  say("");
  const focus = $(`minutes-${offer.default}`) || $("minutes-choices").querySelector("button");
  if (focus) focus.focus();
}

function hideMinutes() {
  if (!askingMinutes) return;
  askingMinutes = false;
  intentionAnswer = null; // the next Open asks again
  if (root.dataset.question === "minutes") delete root.dataset.question;
  $("minutes").hidden = true;
  $("open-key").textContent = "o";
  $("open-label").textContent = openLabel();
  if ($("minutes").contains(document.activeElement)) document.activeElement.blur();
}

// `minutes`: the answer to "For how long?" when it was given (a key or a button), else the
// default.
async function chooseOpen(minutes) {
  if (finished || !gate) return;
  const left = secondsLeft();
  if (left > 0) return say(`Open unlocks in ${left} s. Take this moment; Exit is always free.`);
  const sentence = challengeSentence();
  if (sentence && challengeTyped === null) {
    if (!askingChallenge) return showChallenge();
    const typed = $("challenge").value;
    if (typed !== sentence) {
      $("challenge-problem").textContent = typed ? "Type the whole sentence, then Enter" : "";
      return;
    }
    challengeTyped = typed;
    hideChallenge();
  }
  if (gate.intention === true && !asking && !askingMinutes) return showQuestion();
  const offer = minutesOffer();
  if (offer && !askingMinutes) {
    if (asking) {
      intentionAnswer = $("intention-text").value;
      hideQuestion();
    }
    return showMinutes(offer);
  }
  const message = { type: "open" };
  if (asking) message.intention = $("intention-text").value;
  else if (intentionAnswer !== null) message.intention = intentionAnswer;
  if (offer) message.minutes = Number.isInteger(minutes) && minutes > 0 ? minutes : offer.default;
  if (challengeTyped !== null) message.challenge = challengeTyped;
  finished = true;
  try {
    const reply = await request(message);
    if (reply.type === "error" && reply.challenge_failed) {
      // miga did not take the sentence: it is asked again, and nothing opens.
      finished = false;
      backToChoices();
      return showChallenge(CHALLENGE_HINT);
    }
    if (reply.type === "error") {
      finished = false;
      return say(reply.error);
    }
    if (reply.failed_open) say(reply.failed_open); // the one line: it opens anyway
  } catch (error) {
    // miga went away: the person chose Open, and Open they get
  }
  clearInterval(ticker);
  go(target);
}

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.altKey || event.metaKey) return;
  const key = event.key;
  if (askingChallenge) {
    // Everything else is typed into the field: the page's keys do not act.
    if (event.isComposing) return;
    if (key === "Escape") backToChoices();
    else if (key === "Enter" && event.target === $("challenge")) chooseOpen();
    else return;
    event.preventDefault();
    return;
  }
  if (askingMinutes) {
    if (event.isComposing) return;
    const offer = minutesOffer();
    const focused = Number(event.target && event.target.dataset ? event.target.dataset.minutes : NaN);
    if (key === "Escape") backToChoices();
    else if (key === "Enter") chooseOpen(Number.isInteger(focused) && focused > 0 ? focused : offer.default);
    else if (/^[1-9]$/.test(key) && Number(key) <= offer.choices.length) chooseOpen(offer.choices[Number(key) - 1]);
    else if (key === "e" || key === "q") chooseExit();
    else return; // Tab, and Space on a focused answer, as buttons do
    event.preventDefault();
    return;
  }
  if (asking) {
    // Everything else is typed into the field: the page's keys do not act.
    if (event.isComposing) return;
    if (key === "Escape") backToChoices();
    else if (key === "Enter" && event.target === $("intention-text")) chooseOpen();
    else return;
    event.preventDefault();
    return;
  }
  const alternative = /^[1-9]$/.test(key) ? alternativesOffered()[Number(key) - 1] : null;
  if (key === "e" || key === "q" || key === "Escape") chooseExit();
  else if (alternative) chooseExit(alternative);
  else if (key === "n" || key === " ") readNext();
  else if (key === "o" || key === "Enter") chooseOpen();
  else return;
  event.preventDefault();
});
$("exit").addEventListener("click", chooseExit);
$("next").addEventListener("click", readNext);
$("open").addEventListener("click", () => chooseOpen());
watchChallenge();

async function start() {
  // Framed by another page: miga's gate never runs inside someone else's page.
  if (window.top !== window) {
    setState("exited");
    return;
  }
  const url = webAddress(target);
  if (!url) {
    setState("exited");
    $("content").textContent = "There is no web address to open here.";
    return;
  }
  let reply;
  try {
    reply = await request({ type: "gate", url });
  } catch (error) {
    reply = { action: "go" };
  }
  if (reply.action !== "gate") return go(url); // not gated, grace running, or no miga: fail open

  gate = reply;
  startedAt = performance.now();
  $("site").textContent = `miga · ${reply.site}`;
  document.title = `A pause before ${reply.site} · miga`;
  showItem(reply.item);
  showNotes(reply.notes);
  $("timer").hidden = false;
  $("choices").hidden = false;
  $("post-note").hidden = !isPost;
  const offer = minutesOffer();
  if (offer) buildMinutes(offer);
  buildAlternatives();
  setState("counting");
  tick();
  ticker = setInterval(tick, 200);
  requestAnimationFrame(() => { root.dataset.shownAt = String(performance.now()); });
}

start();
