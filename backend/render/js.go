package render

// guardJS runs in every frame of a rendered page before the page's own scripts (the main
// world): no dialogs, no popups, no sockets or peer connections (requests the Fetch domain
// cannot see), no service workers, and every shadow root open, so that the serialiser
// reads the text a closed one holds. Each name is made read-only and unconfigurable, so a
// page cannot put it back.
const guardJS = `(() => {
  const def = (o, k, v) => { try { Object.defineProperty(o, k, { value: v, writable: false, configurable: false }); } catch (e) {} };
  def(window, 'alert', function alert() {});
  def(window, 'confirm', function confirm() { return false; });
  def(window, 'prompt', function prompt() { return null; });
  def(window, 'print', function print() {});
  def(window, 'open', function open() { return null; });
  for (const k of ['WebSocket', 'WebTransport', 'RTCPeerConnection', 'webkitRTCPeerConnection', 'SharedWorker']) def(window, k, undefined);
  try { Object.defineProperty(Navigator.prototype, 'serviceWorker', { get() { return undefined; }, configurable: false }); } catch (e) {}
  try { Object.defineProperty(navigator, 'sendBeacon', { value: function sendBeacon() { return false; }, writable: false, configurable: false }); } catch (e) {}
  const attach = Element.prototype.attachShadow;
  if (attach) def(Element.prototype, 'attachShadow', function attachShadow(init) {
    return attach.call(this, Object.assign({}, init, { mode: 'open' }));
  });
  // Requests the page's scripts make, told to the isolated world as they start (the
  // browser tells Mundaneum a moment later): a page is not settled while one is open.
  // Left replaceable: frameworks wrap fetch in turn.
  const ping = (t) => { try { document.dispatchEvent(new Event(t)); } catch (e) {} };
  const f = window.fetch;
  if (f) window.fetch = function fetch(...a) {
    ping('mundaneum:net-start');
    let p;
    try { p = f.apply(this, a); } catch (e) { ping('mundaneum:net-end'); throw e; }
    Promise.resolve(p).then(() => ping('mundaneum:net-end'), () => ping('mundaneum:net-end'));
    return p;
  };
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function send(...a) {
    ping('mundaneum:net-start');
    this.addEventListener('loadend', () => ping('mundaneum:net-end'), { once: true });
    try { return send.apply(this, a); } catch (e) { ping('mundaneum:net-end'); throw e; }
  };
})();`

// worldJS sets up the isolated world Mundaneum reads a page from (the page's scripts
// cannot see or change it), as each document starts: a MutationObserver that says how
// long the DOM has been quiet, the requests the page's scripts have open (guardJS tells),
// scrolling, and a serialiser of the composed tree (open shadow roots and slotted content
// where a person sees them) that drops scripts, keeps within byte and node budgets, and
// collects the links that are route fragments (#!x, #/x) of the document.
const worldJS = `(() => {
  if (globalThis.__mundaneum) return true;
  const st = { last: performance.now(), count: 0, open: 0, netAt: performance.now() };
  const mo = new MutationObserver((recs) => { st.count += recs.length; st.last = performance.now(); });
  document.addEventListener('mundaneum:net-start', () => { st.open++; st.netAt = performance.now(); });
  document.addEventListener('mundaneum:net-end', () => { st.open = Math.max(0, st.open - 1); st.netAt = performance.now(); });
  mo.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  const se = () => document.scrollingElement || document.documentElement || document.body;
  const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
  const SKIP = new Set(['script', 'noscript', 'template', 'base']);
  const NAME = /^[a-zA-Z_:][-a-zA-Z0-9_:.]*$/;
  const esc = (s) => s.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
  const escA = (s) => s.replace(/[&"]/g, (c) => (c === '&' ? '&amp;' : '&quot;'));
  globalThis.__mundaneum = {
    state() {
      const e = se();
      return { quiet: Math.round(performance.now() - st.last), mutations: st.count, ready: document.readyState,
        open: st.open, netQuiet: Math.round(performance.now() - st.netAt),
        height: e ? e.scrollHeight : 0, viewport: window.innerHeight, url: location.href };
    },
    scroll() { const e = se(); window.scrollTo(0, e ? e.scrollHeight : 0); return e ? e.scrollHeight : 0; },
    top() { window.scrollTo(0, 0); return true; },
    serialize(maxBytes, maxNodes, maxDepth) {
      const out = ['<!DOCTYPE html>'];
      let bytes = 15, nodes = 0, cut = '';
      const routes = new Set();
      const here = location.href.split('#')[0];
      const push = (s) => {
        if (cut) return;
        bytes += s.length;
        if (bytes > maxBytes) { cut = 'bytes'; return; }
        out.push(s);
      };
      const route = (h) => {
        if (typeof h !== 'string' || routes.size >= 1000) return;
        const i = h.indexOf('#');
        if (i < 0 || h.slice(0, i) !== here) return;
        const f = h.slice(i + 1);
        if (f.length > 1 && (f[0] === '!' || f[0] === '/')) routes.add(h);
      };
      const walk = (n, depth) => {
        if (cut) return;
        if (++nodes > maxNodes) { cut = 'nodes'; return; }
        if (depth > maxDepth) { cut = 'depth'; return; }
        if (n.nodeType === 3) { push(esc(n.data)); return; }
        if (n.nodeType !== 1) return;
        const tag = n.localName;
        if (SKIP.has(tag)) return;
        if (tag === 'slot') {
          const as = n.assignedNodes({ flatten: true });
          for (const c of (as.length ? as : n.childNodes)) walk(c, depth + 1);
          return;
        }
        if (!NAME.test(tag)) return;
        let s = '<' + tag;
        for (const a of n.attributes) if (NAME.test(a.name)) s += ' ' + a.name + '="' + escA(a.value) + '"';
        if (tag === 'a' || tag === 'area') route(n.href);
        push(s + '>');
        if (VOID.has(tag)) return;
        if (tag === 'head') push('<base href="' + escA(document.baseURI) + '">');
        if (tag !== 'iframe' && tag !== 'style') {
          for (const c of (n.shadowRoot ? n.shadowRoot.childNodes : n.childNodes)) walk(c, depth + 1);
        }
        push('</' + tag + '>');
      };
      if (document.documentElement) walk(document.documentElement, 0);
      route(location.href);
      return { html: out.join(''), cut, nodes, routes: [...routes], url: location.href };
    },
  };
  return true;
})()`
