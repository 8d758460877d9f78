// The pause: the same experience as miga's terminal gate, in a browser tab (gate.html, through
// gate-tab.js) or over a page (page-gate-overlay.js, which scripts/build-extension.sh builds
// from these same modules). The countdown runs on the monotonic clock (performance.now);
// miga's host keeps its own and has the last word.
import { env, $, now, webAddress, request, go, setState, say } from "./gate-page.js";
import {
  openLabel, secondsLeft, CHALLENGE_HINT, showQuestion, hideQuestion, challengeSentence, showChallenge, hideChallenge, watchChallenge, backToChoices,
  minutesOffer, buildMinutes, showMinutes, hideMinutes,
} from "./gate-questions.js";

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

const BREATH = ["Breathe in", "Hold", "Breathe out", "Hold"];

function tick() {
  const elapsed = performance.now() - now.startedAt;
  const left = secondsLeft();
  const fraction = Math.min(1, elapsed / (now.gate.timer_seconds * 1000));
  $("fill").style.width = `${(fraction * 100).toFixed(1)}%`;
  $("bar").setAttribute("aria-valuenow", String(Math.round(fraction * 100)));
  $("countdown").textContent = left > 0 ? `${left} s` : "ready";
  $("open-label").textContent = openLabel(left);
  if (now.gate.breathing === "box") {
    const phase = Math.floor(elapsed / 4000) % 4;
    const count = Math.floor(elapsed / 1000) % 4 + 1;
    $("breath").textContent = `${BREATH[phase]} ${"●".repeat(count)}${"○".repeat(4 - count)}`;
  }
  if (left === 0 && !now.completedSent) {
    now.completedSent = true;
    $("open").setAttribute("aria-disabled", "false");
    setState("ready");
    say("");
    request({ type: "completed" }).catch(() => {});
  }
}

// `alternative`: one of the host's "Do this instead" entries, when one was chosen: an Exit
// that then opens it (miga runs a command itself; a link opens in this tab).
async function chooseExit(alternative) {
  if (now.finished || !now.gate) return;
  now.finished = true;
  clearInterval(now.ticker);
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
  if (now.gate.animations) env.root.classList.add("animate");
  $("celebration").hidden = false;
  const link = chosen && chosen.kind === "url" ? webAddress(chosen.url) : null;
  const problem = chosen && typeof chosen.problem === "string" ? chosen.problem.trim().split("\n")[0] : "";
  if (problem) say(problem); // the command could not start: one line, read before the tab goes
  setTimeout(async () => {
    // The alternative's page, in this tab (the worker let it through, gated site or not).
    if (link) return env.transport.navigate(link);
    let reply = null;
    try {
      reply = await request({ type: "close" });
    } catch (error) {
      // the worker is gone: the tab stays, with nothing of the site's in it
    }
    env.transport.closed(reply);
  }, problem ? 6000 : 2500);
}

// The host's "Do this instead" entries (at most three): {index, label, kind}.
function alternativesOffered() {
  const list = now.gate && Array.isArray(now.gate.alternatives) ? now.gate.alternatives : [];
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
    onClick(button, () => chooseExit(entry));
    group.append(button);
  });
  group.hidden = offered.length === 0;
}

async function readNext() {
  if (now.finished || !now.gate) return;
  try {
    const reply = await request({ type: "next" });
    if (reply.type === "error") return say(reply.error);
    showItem(reply.item);
    say("");
  } catch (error) {
    say("miga could not find another item.");
  }
}

// `minutes`: the answer to "For how long?" when it was given (a key or a button), else the
// default.
async function chooseOpen(minutes) {
  if (now.finished || !now.gate) return;
  const left = secondsLeft();
  if (left > 0) return say(`Open unlocks in ${left} s. Take this moment; Exit is always free.`);
  const sentence = challengeSentence();
  if (sentence && now.challengeTyped === null) {
    if (!now.askingChallenge) return showChallenge();
    const typed = $("challenge").value;
    if (typed !== sentence) {
      $("challenge-problem").textContent = typed ? "Type the whole sentence, then Enter" : "";
      return;
    }
    now.challengeTyped = typed;
    hideChallenge();
  }
  if (now.gate.intention === true && !now.asking && !now.askingMinutes) return showQuestion();
  const offer = minutesOffer();
  if (offer && !now.askingMinutes) {
    if (now.asking) {
      now.intentionAnswer = $("intention-text").value;
      hideQuestion();
    }
    return showMinutes(offer);
  }
  const message = { type: "open" };
  if (now.asking) message.intention = $("intention-text").value;
  else if (now.intentionAnswer !== null) message.intention = now.intentionAnswer;
  if (offer) message.minutes = Number.isInteger(minutes) && minutes > 0 ? minutes : offer.default;
  if (now.challengeTyped !== null) message.challenge = now.challengeTyped;
  now.finished = true;
  let problem = "";
  try {
    const reply = await request(message);
    if (reply.type === "error" && reply.challenge_failed) {
      // miga did not take the sentence: it is asked again, and nothing opens.
      now.finished = false;
      backToChoices();
      return showChallenge(CHALLENGE_HINT);
    }
    if (reply.type === "error") {
      now.finished = false;
      return say(reply.error);
    }
    if (reply.failed_open) problem = reply.failed_open; // the one line: it opens anyway
  } catch (error) {
    // miga went away: the person chose Open, and Open they get
  }
  go(env.target, problem);
}

function onKey(event) {
  // A person's keys only: nothing a page (or anything else) made up acts.
  if (!event.isTrusted || event.ctrlKey || event.altKey || event.metaKey) return;
  const key = event.key;
  if (now.askingChallenge) {
    // Everything else is typed into the field: the page's keys do not act.
    if (event.isComposing) return;
    if (key === "Escape") backToChoices();
    else if (key === "Enter" && event.target === $("challenge")) chooseOpen();
    else return;
    event.preventDefault();
    return;
  }
  if (now.askingMinutes) {
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
  if (now.asking) {
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
}

// A button acts on a person's click (or Enter/Space on it) only.
function onClick(element, action) {
  element.addEventListener("click", (event) => { if (event.isTrusted) action(); });
}

// The gate, in `options.dom` (a Document or a ShadowRoot holding gate.html's elements):
// `root` the element carrying data-state, `keys` where its keys are heard, `target` the
// address asked for, `isPost`, `framed` (a gate inside someone else's page never runs), and
// `transport`: connect() (a runtime port to the worker), open(url, problem) (Open, or miga
// failing open: the page loads the address, the overlay uncovers the page), navigate(url)
// (an alternative's link), closed(reply) (after Exit, the worker's answer to "close"),
// title(text).
export function runGate(options) {
  Object.assign(env, { dom: options.dom, root: options.root, target: options.target, isPost: options.isPost === true,
    transport: options.transport });
  options.keys.addEventListener("keydown", onKey);
  onClick($("exit"), chooseExit);
  onClick($("next"), readNext);
  onClick($("open"), () => chooseOpen());
  watchChallenge();
  if (options.framed) {
    setState("exited");
    return;
  }
  start();
}

async function start() {
  const url = webAddress(env.target);
  if (!url) {
    setState("exited");
    $("content").textContent = "There is no web address to open here.";
    return;
  }
  let reply;
  try {
    reply = await request({ type: "gate", url });
  } catch (error) {
    reply = { action: "go", problem: `miga could not be asked (${error.message || error}); opening.` };
  }
  // Not gated, grace running, or no miga: fail open.
  if (reply.action !== "gate") return go(url, reply.type === "error" ? reply.error : reply.problem);

  now.gate = reply;
  now.startedAt = performance.now();
  $("site").textContent = `miga · ${reply.site}`;
  env.transport.title(`A pause before ${reply.site} · miga`);
  showItem(reply.item);
  showNotes(reply.notes);
  $("timer").hidden = false;
  $("choices").hidden = false;
  $("post-note").hidden = !env.isPost;
  const offer = minutesOffer();
  if (offer) buildMinutes(offer, chooseOpen);
  buildAlternatives();
  setState("counting");
  tick();
  now.ticker = setInterval(tick, 200);
  requestAnimationFrame(() => { env.root.dataset.shownAt = String(performance.now()); });
}
