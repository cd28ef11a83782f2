package rendertest

import (
	"fmt"
	"net/http"
	"strings"
)

// Hostile pages: each is a shell (an empty root and a script), so that auto renders it.
// Paths under /hostile/.
var Hostile = []string{"loop", "alerts", "popups", "nodes", "unsettled", "memory", "grow", "outside", "navigate", "download", "worker"}

// WordOutside is in the page /hostile/outside builds once its own (allowed) JSON came.
const WordOutside = "provenance"

func (s *Site) hostile(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, "/hostile/")
	var script string
	switch name {
	case "loop":
		// Scripts that never yield: nothing can be read from the page.
		script = `fetch('/api/tracker?loop'); document.getElementById('root').textContent = 'about to loop'; while (true) {}`
	case "alerts":
		script = `for (let i = 0; i < 10000; i++) { alert('storm ' + i); confirm('sure?'); prompt('name?'); }
document.getElementById('root').textContent = 'The page after ten thousand alerts.';`
	case "popups":
		script = `for (let i = 0; i < 200; i++) { window.open('/hostile/popups?' + i, '_blank'); }
const a = document.createElement('a'); a.href = '/static/'; a.target = '_blank'; a.textContent = 'a popup link';
document.getElementById('root').appendChild(a); a.click();
document.getElementById('root').appendChild(document.createTextNode(' The page after two hundred popups.'));`
	case "nodes":
		script = `const root = document.getElementById('root'); const f = document.createDocumentFragment();
for (let i = 0; i < 1000000; i++) { const d = document.createElement('div'); d.textContent = 'n' + i; f.appendChild(d); }
root.appendChild(f);`
	case "unsettled":
		script = `const root = document.getElementById('root'); root.textContent = 'Never settles.';
setInterval(() => { root.setAttribute('data-t', String(Date.now())); }, 30);
setInterval(() => { fetch('/api/tracker?' + Date.now()); }, 100);`
	case "grow":
		// A DOM that grows by 32 MB a step as fast as the page can, yielding between steps
		// (fast enough to pass a cap before a pause in its requests reads it as settled; in
		// nodes enough that its tab's metrics show it as the one holding most):
		// its tab answers, and only the memory cap stops it.
		// (Kept out of the document, so that no layout slows it down; a counter in it says
		// how far it got, so that it never settles.)
		script = `const root = document.getElementById('root'); const keep = document.createElement('div');
const line = 'x'.repeat(16384); let n = 0;
(function step() { for (let i = 0; i < 2000; i++) { const d = document.createElement('div'); d.textContent = line + n++; keep.appendChild(d); }
  root.textContent = 'Growing: ' + n + ' nodes'; setTimeout(step, 0); })();`
	case "memory":
		script = `const keep = []; while (true) { keep.push(new Array(1 << 20).fill(keep.length)); }`
	case "outside":
		script = fmt.Sprintf(`const root = document.getElementById('root');
const s = document.createElement('script'); s.src = %q; document.head.appendChild(s);
const img = new Image(); img.src = %q; root.appendChild(img);
fetch(%q).catch(() => {});
try { navigator.sendBeacon(%q, 'x'); } catch (e) {}
try { new WebSocket(%q); } catch (e) {}
fetch('/private/secret.json').catch(() => {});
fetch('/api/page?path=/app/about').then((r) => r.json()).then((d) => { root.appendChild(document.createTextNode('The %s of the page: ' + d.text)); });`,
			s.Tracker.URL+"/t.js", s.Tracker.URL+"/pixel.gif", s.Tracker.URL+"/collect", s.Tracker.URL+"/beacon",
			strings.Replace(s.Tracker.URL, "http", "ws", 1)+"/socket", WordOutside)
	case "navigate":
		script = `document.getElementById('root').textContent = 'Leaving for elsewhere.'; setTimeout(() => { location.href = '/static/?from=script'; }, 20);`
	case "download":
		script = `const f = document.createElement('iframe'); f.src = '/hostile/file'; document.body.appendChild(f);
document.getElementById('root').textContent = 'A page that starts a download.';`
	case "worker":
		// A worker's requests: to the tracker (refused), and its own (admitted).
		src := fmt.Sprintf(`fetch(%q).catch(() => {}); try { new WebSocket(%q); } catch (e) {}
fetch(self.location.origin + '/api/page?path=/app/about').then((r) => r.json()).then((d) => postMessage(d.text));`,
			s.Tracker.URL+"/from-worker", strings.Replace(s.Tracker.URL, "http", "ws", 1)+"/worker-socket")
		script = fmt.Sprintf(`const w = new Worker(URL.createObjectURL(new Blob([%q], { type: 'text/javascript' })));
w.onmessage = (e) => { document.getElementById('root').textContent = 'The worker says: ' + e.data; };`, src)
	case "file":
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Disposition", `attachment; filename="x.bin"`)
		w.Write(make([]byte, 1<<16))
		return
	default:
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, `<!doctype html><html><head><title>Hostile: %s</title></head><body><div id="root"></div><script>%s</script></body></html>`, name, script)
}
