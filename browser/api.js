// The browser's extension API and the extension's own pages, for every module.
export const api = globalThis.browser ?? globalThis.chrome;
export const GATE_PAGE = api.runtime.getURL("gate.html");
export const CALM_PAGE = api.runtime.getURL("calm.html");
