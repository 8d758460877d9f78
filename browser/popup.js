// Today's exits, opens, streak and minutes on gated sites, from miga; or, without miga, how to get it.
"use strict";

const api = globalThis.browser ?? globalThis.chrome;
const $ = (id) => document.getElementById(id);

function days(count) {
  return `${count} day${count === 1 ? "" : "s"}`;
}

function showStatus(text, command) {
  const status = $("status");
  status.replaceChildren(document.createTextNode(text));
  if (command) {
    const code = document.createElement("code");
    code.textContent = command;
    status.append(" ", code);
  }
}

async function show() {
  let answer = null;
  try {
    answer = await api.runtime.sendMessage({ type: "popup" });
  } catch (error) {
    answer = { stats: null, hostProblem: String(error && error.message || error) };
  }
  const stats = answer && answer.stats;
  if (!stats || stats.type !== "stats") {
    showStatus("miga is not reachable on this computer, so no site is paused. Install miga, run this in a terminal, then restart the browser:",
      "miga install");
    return;
  }
  $("exits").textContent = String(stats.exits);
  $("opens").textContent = String(stats.opens);
  $("streak").textContent = days(stats.streak.current);
  // Focused time on the gated sites today (one decimal from miga; an older miga sends none).
  const minutes = stats.focus_minutes;
  if (Number.isFinite(minutes) && minutes >= 0) $("minutes").textContent = minutes > 0 && minutes < 1 ? "< 1 min" : `${Math.round(minutes)} min`;
  if (!stats.gating) {
    if (stats.reason === "not_set_up") showStatus("miga is installed but not set up for you, so no site is paused. In a terminal:", "miga install");
    else showStatus(`No site is paused: ${stats.message || stats.reason}`);
  } else if (stats.snooze && Number.isFinite(stats.snooze.until)) {
    const until = new Date(stats.snooze.until).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    const what = Array.isArray(stats.snooze.apps) && stats.snooze.apps.length ? stats.snooze.apps.join(", ") : "every pause";
    showStatus(`Snoozed until ${until}: ${what}. To end it sooner:`, "miga snooze --off");
  } else {
    showStatus("Sites you listed in miga get a pause first.");
  }
}

async function showIncognito() {
  let allowed = true;
  try {
    allowed = await api.extension.isAllowedIncognitoAccess();
  } catch (error) {
    return;
  }
  if (allowed) return;
  const firefox = typeof globalThis.browser !== "undefined" && api.runtime.getURL("").startsWith("moz-extension:");
  $("incognito").textContent = firefox
    ? "Private windows are not paused: about:addons → miga → Run in Private Windows → Allow."
    : "Incognito windows are not paused: chrome://extensions → miga → Details → Allow in Incognito.";
  $("incognito").hidden = false;
}

show();
showIncognito();
