// The gate page (gate.html): the gate in its own tab, which the rules or the backstop sent
// there. Everything after the first "#" of its address is the address that was asked for,
// exactly as the browser serialised it.
import { api } from "./gate-page.js";
import { runGate } from "./gate.js";

const href = location.href;

runGate({
  dom: document,
  root: document.documentElement,
  keys: document,
  target: href.includes("#") ? href.slice(href.indexOf("#") + 1) : "",
  isPost: new URLSearchParams(location.search).get("post") === "1",
  // Framed by another page: miga's gate never runs inside someone else's page.
  framed: window.top !== window,
  transport: {
    connect: () => api.runtime.connect({ name: "gate" }),
    // The page is gone the moment the address loads, so a line about failing open would not
    // be read: the address loading is the answer.
    open: (url) => location.replace(url),
    navigate: (url) => location.replace(url),
    // Exit: the worker closed the tab, or it was the window's last and shows the calm page.
    closed: (reply) => {
      if (!reply) location.replace("calm.html");
      else if (reply.calm) location.replace(reply.calm);
    },
    title: (text) => { document.title = text; },
  },
});
