// miga's extension: gate top-level navigations to the sites listed in miga's config.toml.
//
// The decision is made by declarativeNetRequest redirect rules, built from the site list the
// native host `miga.gateway` serves, so a gated page is never requested before Open and no
// other navigation waits for anything. Without the host there are no rules: the browser
// works exactly as it would without miga (fail open).
//
// One module per job: protocol.js (the messages), host.js (the host and its state), rules.js
// (the request rules), tabs.js and backstop.js (what the rules cannot see), gates.js (gate
// pages and passes), page-gate.js (the gate over a page, and single-page routes), timeboxes.js
// and overlays.js (the soft end), focus.js and budget.js (time in front, returns to a tab, the
// daily budget). This one wires them and starts.
import { api } from "./api.js";
import { request } from "./protocol.js";
import { state, hostProblem, hooks, ask, refresh } from "./host.js";
import { rebuildRules, removeStaleBypasses } from "./rules.js";
import "./backstop.js";
import "./gates.js";
import "./page-gate.js";
import { focusStateChanged } from "./focus.js";
import { syncTimeboxes, softEndChosen, timeboxNotice, timeboxEnd, NOTICE_ALARM, END_ALARM } from "./timeboxes.js";

hooks.stateChanged = () => { rebuildRules(); focusStateChanged(); };
hooks.timeboxesArrived = syncTimeboxes;

// ---- the popup -----------------------------------------------------------------------------

api.runtime.onMessage.addListener((message, sender, sendResponse) => {
  if (message && message.type === "soft_end") {
    softEndChosen(message, sender).then(sendResponse, (error) => {
      console.error("miga: the soft end's choice:", error);
      sendResponse({ ok: false });
    });
    return true;
  }
  if (!message || message.type !== "popup") return false;
  ask(request("stats")).then(
    (stats) => sendResponse({ stats, state, hostProblem }),
    (error) => sendResponse({ stats: null, state, hostProblem: hostProblem || String(error.message || error) }),
  );
  return true; // answered asynchronously
});

// ---- start -----------------------------------------------------------------------------------

removeStaleBypasses();

api.alarms.create("miga-refresh", { periodInMinutes: 1 });
api.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === "miga-refresh") refresh();
  else if (alarm.name.startsWith(NOTICE_ALARM)) timeboxNotice(alarm.name.slice(NOTICE_ALARM.length));
  else if (alarm.name.startsWith(END_ALARM)) timeboxEnd(alarm.name.slice(END_ALARM.length));
});
refresh();
