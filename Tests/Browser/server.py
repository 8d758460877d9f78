"""A local web server for the browser tests: one listening port that speaks both plain HTTP
and TLS (it sniffs the first byte of each connection: 0x16 starts a TLS handshake), for any
number of host names, logging every request and every TLS handshake's SNI.

Browsers reach it under real names through `--host-resolver-rules` (Chromium) or
`network.dns.localDomains` (Firefox). As root it also listens on 127.0.0.1:80 and :443 when
they are free, so a typed `reddit.com` works as a person types it; otherwise URLs carry the
high port (`server.url(...)` always gives a URL that reaches this server).

Pages (the same on every host; the title names the host and path so a test can see where a
tab ended up):
  /                     a page with links (ids below)
  /page/...             a plain page
  /links                #to-gated (a link to GATED_LINK), #new-window (same, target=_blank),
                        #to-free (a link to a non-gated page); targets given by ?gated=URL
  /redirect?to=URL      302 to URL
  /form                 a POST form (#post-form, #post-submit) to ?action=URL
  /hop/N?to=URL         302 chain of N hops on this host, then 302 to URL (or a page)
  /spa/...              a single-page site: a tall page with a field (#comment), links that
                        change its route by history.pushState (#to-shorts: /shorts/abc,
                        #to-other: /spa/other, #to-more: /shorts/def), #route showing the
                        route, and `window.spaLoads` counting its loads in this tab
Run it alone: `python3 server.py` prints its port and logs requests to stdout.
"""
import datetime, html, json, os, shutil, socket, ssl, subprocess, tempfile, threading, time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DEFAULT_HOSTS = [
    "reddit.com", "www.reddit.com", "old.reddit.com",
    "gated.test", "www.gated.test", "sub.gated.test",
    "chain.test", "www.chain.test", "open.test", "www.open.test", "import.test", "exit.test", "abandon.test", "post.test",
    "revive.test", "restart.test", "sw.test", "back.test", "private.test", "handed.test", "after.test", "swnet.test",
    "wild.test", "sub.wild.test", "later.test",
    "keep.test", "www.keep.test", "extend.test", "close.test", "www.close.test", "gone.test", "left.test", "last.test",
    "notice.test",
    "free.test", "www.free.test", "other.test", "docs.test", "spa.test",
]


# /sw/...: a page that installs a service worker for the whole site, which from then on answers
# every navigation itself (as social sites' workers do), without the network.
SERVICE_WORKER_PAGE = """<p id=arrived>from the network</p><script>
navigator.serviceWorker.register("/sw/worker.js", {scope: "/"}).then(() => navigator.serviceWorker.ready)
  .then(() => { document.documentElement.dataset.worker = "ready"; }, (e) => { document.documentElement.dataset.worker = "failed " + e; });
</script>"""
# /swnet/...: the same with a worker that fetches each navigation from the network itself
# (network first, as most sites' workers do), and says so when it cannot.
NETWORK_FIRST_WORKER = """
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
self.addEventListener("fetch", (event) => {
  if (event.request.mode !== "navigate") return;
  event.respondWith(fetch(event.request).catch(() => new Response(
    "<!doctype html><title>PAGE offline</title><h1 id=page>offline</h1><p id=arrived>the worker could not fetch</p>",
    {headers: {"Content-Type": "text/html; charset=utf-8"}})));
});
"""
# /spa/...: a single-page site, whose links change the route without a request. The links are
# fixed at the top, so clicking them scrolls nothing; the page is tall, so it can be scrolled.
SINGLE_PAGE_SITE = """<style>#routes { position: fixed; top: 0; right: 0; background: #fff; }</style>
<p id=routes><a id=to-shorts href="/shorts/abc">shorts</a> <a id=to-other href="/spa/other">other</a>
<a id=to-more href="/shorts/def">more shorts</a></p>
<p id=route></p><input id=comment autocomplete=off><div style="height: 5000px">a tall page</div><script>
sessionStorage.spaLoads = String(Number(sessionStorage.spaLoads || 0) + 1);
window.spaLoads = Number(sessionStorage.spaLoads);
for (const link of document.querySelectorAll("#routes a")) {
  link.addEventListener("click", (event) => {
    event.preventDefault();
    history.pushState({}, "", link.getAttribute("href"));
    document.getElementById("route").textContent = location.pathname;
  });
}
</script>"""
SERVICE_WORKER = """
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
self.addEventListener("fetch", (event) => {
  if (event.request.mode !== "navigate") return;
  const url = new URL(event.request.url);
  const label = url.host + url.pathname + url.search;
  event.respondWith(new Response(
    "<!doctype html><html><head><meta charset=utf-8><title>PAGE " + label + "</title></head>" +
    "<body><h1 id=page>" + label + "</h1><p id=arrived>from the service worker</p></body></html>",
    {headers: {"Content-Type": "text/html; charset=utf-8"}}));
});
"""


def make_certificate(folder, hosts):
    """A self-signed certificate for `hosts` (and localhost); returns (certfile, keyfile)."""
    cert, key = os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem")
    try:
        from cryptography import x509
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.x509.oid import NameOID
        import ipaddress
        private = ec.generate_private_key(ec.SECP256R1())
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "miga browser tests")])
        now = datetime.datetime.now(datetime.timezone.utc)
        alt = [x509.DNSName(h) for h in hosts] + [x509.DNSName("localhost"),
                                                  x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
        certificate = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
                       .public_key(private.public_key()).serial_number(x509.random_serial_number())
                       .not_valid_before(now - datetime.timedelta(days=1))
                       .not_valid_after(now + datetime.timedelta(days=30))
                       .add_extension(x509.SubjectAlternativeName(alt), critical=False)
                       .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
                       .sign(private, hashes.SHA256()))
        with open(cert, "wb") as f:
            f.write(certificate.public_bytes(serialization.Encoding.PEM))
        with open(key, "wb") as f:
            f.write(private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                          serialization.NoEncryption()))
    except ImportError:
        san = ",".join(["DNS:" + h for h in hosts] + ["DNS:localhost", "IP:127.0.0.1"])
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                        "-nodes", "-days", "30", "-subj", "/CN=miga browser tests", "-addext",
                        "subjectAltName=" + san, "-keyout", key, "-out", cert],
                       check=True, capture_output=True)
    return cert, key


class Request:
    """One logged event: an HTTP request, or a TLS handshake (method 'TLS', path '')."""
    __slots__ = ("time", "method", "host", "path", "scheme", "port", "sni")

    def __init__(self, method, host, path, scheme, port, sni):
        self.time = time.monotonic()
        self.method, self.host, self.path, self.scheme, self.port, self.sni = method, host, path, scheme, port, sni

    @property
    def hostname(self):
        """The Host header without its port, or the SNI for a handshake."""
        if self.method == "TLS":
            return self.sni or ""
        host = self.host or ""
        if host.startswith("["):
            return host.split("]")[0] + "]"
        return host.rsplit(":", 1)[0] if ":" in host else host

    def __repr__(self):
        return f"<{self.method} {self.scheme}://{self.host}{self.path} sni={self.sni} t={self.time:.3f}>"


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "migatest/1"

    def log_message(self, *args):  # quiet: the log is the list
        pass

    def _page(self, status, body, headers=(), cache=False, content_type="text/html; charset=utf-8"):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        if not cache:
            self.send_header("Cache-Control", "no-store")
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def _handle(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        scheme = "https" if isinstance(self.connection, ssl.SSLSocket) else "http"
        host = self.headers.get("Host", "")
        self.server.owner._record(Request(self.command, host, self.path, scheme, self.server.owner.port,
                                          getattr(self.connection, "migatest_sni", None)))
        parsed = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(parsed.query)
        path = parsed.path
        label = f"{host}{self.path}"
        if path == "/favicon.ico":
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if path == "/redirect" and "to" in query:
            self._page(int(query.get("status", ["302"])[0]), "moved", [("Location", query["to"][0])])
            return
        if path.startswith("/hop/"):
            try:
                n = int(path.split("/")[2])
            except (IndexError, ValueError):
                n = 0
            if n > 0:
                rest = urllib.parse.urlencode({k: v[0] for k, v in query.items()})
                self._page(302, "hop", [("Location", f"/hop/{n - 1}" + ("?" + rest if rest else ""))])
            elif "to" in query:
                self._page(302, "hop", [("Location", query["to"][0])])
            else:
                self._page(200, self._doc(label, "<p id=arrived>end of the hops</p>"))
            return
        if path == "/links":
            gated = query.get("gated", [""])[0]
            free = query.get("free", [""])[0]
            body = (f'<p><a id="to-gated" href="{html.escape(gated)}">gated</a></p>'
                    f'<p><a id="new-window" target="_blank" href="{html.escape(gated)}">new window</a></p>'
                    f'<p><a id="to-free" href="{html.escape(free)}">free</a></p>'
                    f'<iframe id="frame" src="{html.escape(query.get("frame", ["about:blank"])[0])}"></iframe>')
            self._page(200, self._doc(label, body))
            return
        if path == "/sw/worker.js":
            self._script(SERVICE_WORKER)
            return
        if path == "/swnet/worker.js":
            self._script(NETWORK_FIRST_WORKER)
            return
        if path.startswith("/sw/") or path.startswith("/swnet/"):
            self._page(200, self._doc(label, SERVICE_WORKER_PAGE.replace("/sw/worker.js", path.split("/")[1].join("//") + "worker.js")))
            return
        if path.startswith("/spa/"):
            self._page(200, self._doc(label, SINGLE_PAGE_SITE))
            return
        if path.startswith("/cached/"):
            # No `no-store`: a page the back/forward cache may keep.
            self._page(200, self._doc(label, f"<p id=arrived>{html.escape(label)}</p>"), cache=True)
            return
        if path == "/form":
            action = query.get("action", ["/"])[0]
            body = (f'<form id="post-form" method="post" action="{html.escape(action)}">'
                    f'<input name="q" value="1"><button id="post-submit" type="submit">go</button></form>')
            self._page(200, self._doc(label, body))
            return
        self._page(200, self._doc(label, f"<p id=arrived>{html.escape(self.command)} {html.escape(label)}</p>"))

    def _script(self, source):
        self._page(200, source, content_type="text/javascript", headers=[("Service-Worker-Allowed", "/")])

    @staticmethod
    def _doc(label, body):
        return (f"<!doctype html><html><head><meta charset=utf-8><title>PAGE {html.escape(label)}</title></head>"
                f"<body><h1 id=page>{html.escape(label)}</h1>{body}</body></html>")

    do_GET = do_POST = do_HEAD = _handle


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128

    def __init__(self, address, owner):
        self.owner = owner
        super().__init__(address, _Handler)

    def finish_request(self, request, client_address):
        # Runs in the connection's own thread: sniff TLS here, never in the accept loop.
        request.settimeout(30)
        try:
            first = request.recv(1, socket.MSG_PEEK)
        except OSError:
            return
        if not first:
            return
        if first[0] == 0x16:
            holder = {}
            try:
                ctx = self.owner._context(holder)
                request = ctx.wrap_socket(request, server_side=True)
            except (OSError, ssl.SSLError):
                self.owner._record(Request("TLS", None, "", "https", self.owner.port, holder.get("sni")))
                return
            request.migatest_sni = holder.get("sni")
            self.owner._record(Request("TLS", None, "", "https", self.owner.port, holder.get("sni")))
        try:
            _Handler(request, client_address, self)
        except (OSError, ssl.SSLError):
            pass
        finally:
            if isinstance(request, ssl.SSLSocket):
                try:
                    request.close()
                except OSError:
                    pass

    def handle_error(self, request, client_address):
        pass


class TestServer:
    """Start with `TestServer(folder).start()`; `stop()` when done. `requests` is the log."""

    def __init__(self, folder=None, hosts=DEFAULT_HOSTS, want_standard_ports=None, log_path=None):
        if want_standard_ports is None:  # MIGA_BROWSER_STANDARD_PORTS=0: high port only
            want_standard_ports = os.environ.get("MIGA_BROWSER_STANDARD_PORTS", "1") != "0"
        self._own_folder = folder is None
        self.folder = folder or tempfile.mkdtemp(prefix="miga-server-")
        self.hosts = list(hosts)
        self.want_standard_ports = want_standard_ports
        self.log_path = log_path or os.path.join(self.folder, "requests.log")
        self.requests = []
        self._lock = threading.Lock()
        self._servers = []
        self.port = None
        self.standard_ports = False
        self._cert = None

    # -- lifecycle

    def start(self):
        self._cert = make_certificate(self.folder, self.hosts)
        self._log = open(self.log_path, "a", buffering=1)
        main = _Server(("127.0.0.1", 0), self)
        self.port = main.server_address[1]
        self._servers.append(main)
        if self.want_standard_ports:
            extra = []
            try:
                for port in (80, 443):
                    extra.append(_Server(("127.0.0.1", port), self))
                self._servers += extra
                self.standard_ports = True
            except OSError:
                for s in extra:
                    s.server_close()
        for s in self._servers:
            threading.Thread(target=s.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True).start()
        return self

    def stop(self):
        for s in self._servers:
            s.shutdown()
            s.server_close()
        self._servers = []
        if getattr(self, "_log", None):
            self._log.close()
            self._log = None
        if self._own_folder and os.environ.get("MIGA_BROWSER_KEEP") != "1":
            shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def _context(self, holder):
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(*self._cert)
        ctx.set_alpn_protocols(["http/1.1"])

        def sni(sock, name, _ctx):
            holder["sni"] = name
        ctx.sni_callback = sni
        return ctx

    def _record(self, request):
        with self._lock:
            self.requests.append(request)
            if self._log:
                self._log.write(json.dumps({"t": round(request.time, 4), "method": request.method,
                                            "scheme": request.scheme, "host": request.host,
                                            "sni": request.sni, "path": request.path}) + "\n")

    # -- for tests

    def url(self, host, path="/", scheme="https"):
        """A URL for `host` that reaches this server (standard port when bound, else the high one)."""
        if self.standard_ports:
            return f"{scheme}://{host}{path}"
        return f"{scheme}://{host}:{self.port}{path}"

    def mark(self):
        """A point in the log: pass it to `since()`."""
        with self._lock:
            return len(self.requests)

    def since(self, mark=0):
        with self._lock:
            return list(self.requests[mark:])

    def requests_for(self, host, mark=0, http_only=False):
        """Requests (and TLS handshakes, unless http_only) naming `host` (exact, no port)."""
        return [r for r in self.since(mark)
                if r.hostname == host and not (http_only and r.method == "TLS")]

    def hits(self, host, path, mark=0):
        return [r for r in self.since(mark) if r.method != "TLS" and r.hostname == host
                and r.path.split("?")[0] == path.split("?")[0]]


if __name__ == "__main__":
    s = TestServer().start()
    print(f"port {s.port}, standard ports: {s.standard_ports}, log {s.log_path}", flush=True)
    try:
        while True:
            time.sleep(1)
            for r in s.since(getattr(s, "_shown", 0)):
                print(r, flush=True)
            s._shown = s.mark()
    except KeyboardInterrupt:
        s.stop()
