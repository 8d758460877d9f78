// The questions Open may ask first: a sentence to type (challenge = "type"), "What are you
// here to do?" (intention = true) and "For how long?" (ask_minutes = true).
import { env, $, focused, now, say } from "./gate-page.js";

// "Open anyway" past today's opens_per_day: the host names it; an older host names nothing.
// While "For how long?" asks, Open (and Enter) takes the default.
export function openLabel(left = secondsLeft()) {
  const open = typeof now.gate.open_label === "string" && now.gate.open_label ? now.gate.open_label : "Open";
  if (left > 0) return `${open} in ${left} s`;
  const offer = now.askingMinutes && minutesOffer();
  return offer ? `${open} · ${offer.default} min` : open;
}

export function secondsLeft() {
  const left = now.gate.timer_seconds * 1000 - (performance.now() - now.startedAt);
  return left <= 0 ? 0 : Math.ceil(left / 1000);
}

// intention = true: Open first asks "What are you here to do?"; Enter in the field opens
// (an empty answer too), Esc comes back to the three choices.
export function showQuestion() {
  now.asking = true;
  env.root.dataset.question = "shown";
  $("intention").hidden = false;
  say("");
  $("intention-text").focus();
}

export function hideQuestion() {
  if (!now.asking) return;
  now.asking = false;
  delete env.root.dataset.question;
  $("intention").hidden = true;
  if (focused() === $("intention-text")) $("intention-text").blur();
}

// challenge = "type": after the countdown, Open first shows a sentence to type exactly, key by
// key. A character that is not the sentence's next one clears the field; a paste, a drop or
// any text the browser puts in at once never counts. Enter, with the whole sentence typed,
// goes on (to the intention, "For how long?", then Open); Esc comes back to the choices.
export const CHALLENGE_HINT = "Start again: type it exactly";

export function challengeSentence() {
  return now.gate && typeof now.gate.challenge === "string" && now.gate.challenge ? now.gate.challenge : null;
}

export function showChallenge(problem) {
  now.askingChallenge = true;
  env.root.dataset.question = "challenge";
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

export function hideChallenge() {
  if (!now.askingChallenge) return;
  now.askingChallenge = false;
  if (env.root.dataset.question === "challenge") delete env.root.dataset.question;
  $("challenge-box").hidden = true;
  $("challenge").value = "";
  $("challenge-problem").textContent = "";
  if (focused() === $("challenge")) $("challenge").blur();
}

// Typed wrong, or put in some other way: the field starts again, and says so.
function challengeRefused() {
  $("challenge").value = "";
  $("challenge-problem").textContent = CHALLENGE_HINT;
}

// Only typing counts: what the browser inserts whole (a paste, a drop, an autocompletion, a
// spelling fix, a yank) is refused before it lands.
const NOT_TYPED = /^insert(FromPaste|FromDrop|FromYank|ReplacementText|Transpose|Link|FromPasteAsQuotation)/;

export function watchChallenge() {
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
export function backToChoices() {
  if (now.finished) return;
  hideChallenge();
  hideQuestion();
  hideMinutes();
  now.challengeTyped = null;
  now.intentionAnswer = null;
}

// ask_minutes = true: after the countdown (and the intention, when asked), Open asks "For
// how long?": one key per answer (1…4), Enter takes the default, Esc comes back to the three
// choices. The host's offer: {choices: [5, 10, 20, 30], default: 10}, or null.
export function minutesOffer() {
  const offer = now.gate && now.gate.minutes;
  if (!offer || typeof offer !== "object" || !Array.isArray(offer.choices)) return null;
  const choices = offer.choices.filter((minutes) => Number.isInteger(minutes) && minutes > 0).slice(0, 9);
  const fallback = Number.isInteger(offer.default) && offer.default > 0 ? offer.default : choices[0];
  return choices.length ? { choices, default: fallback } : null;
}

export function buildMinutes(offer, chooseOpen) {
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
    // Named as the gate window names it: a screen reader never reads "1 5 min" as "15 min".
    button.setAttribute("aria-label", `${minutes} min (${index + 1})`);
    button.addEventListener("click", (event) => { if (event.isTrusted) chooseOpen(minutes); });
    group.append(button);
  });
  $("minutes-default").textContent = `${offer.default} min`;
}

export function showMinutes(offer) {
  now.askingMinutes = true;
  env.root.dataset.question = "minutes";
  $("minutes").hidden = false;
  $("open-key").textContent = "Enter";
  $("open-label").textContent = openLabel();
  say("");
  const focus = $(`minutes-${offer.default}`) || $("minutes-choices").querySelector("button");
  if (focus) focus.focus();
}

export function hideMinutes() {
  if (!now.askingMinutes) return;
  now.askingMinutes = false;
  now.intentionAnswer = null; // the next Open asks again
  if (env.root.dataset.question === "minutes") delete env.root.dataset.question;
  $("minutes").hidden = true;
  $("open-key").textContent = "o";
  $("open-label").textContent = openLabel();
  if ($("minutes").contains(focused())) focused().blur();
}
