// Marks for e2e/perf.mjs: when the app's code starts and when it is on screen.
performance.mark('mundaneum:start');
import { mount, unmount } from 'svelte';
import './app.css';
import App from './App.svelte';
import HeldView from './views/HeldView.svelte';
import { connected, reportStartSteps, workspaceState, type WorkspaceState } from './api';
import { applyTheme, rememberedTheme } from './lib/theme';

const target = document.getElementById('app');
if (!target) {
  throw new Error('mundaneum: #app element missing from index.html');
}

// Paint in last run's theme at once; the workspace's setting follows when it loads.
applyTheme(rememberedTheme());

function mountApp() {
  mount(App, { target: target! });
  performance.mark('mundaneum:mounted');
  void document.body.offsetHeight;
  performance.mark('mundaneum:laid-out');
  traceFirstFrame();
}

// The start's steps as the page saw them, for the window's start trace (bench-window.sh):
// its loading (the navigation's timing), the app's code, and the first frame
// after the app mounted (a task after the next animation frame: the frame is made).
function traceFirstFrame() {
  const at = (ms: number) => performance.timeOrigin + ms;
  const mark = (name: string) => performance.getEntriesByName(name, 'mark')[0]?.startTime;
  // The first task after the mount (is the page's thread busy?) and the frame's own start.
  setTimeout(() => performance.mark('mundaneum:task'));
  requestAnimationFrame(() => {
    performance.mark('mundaneum:frame');
    setTimeout(() => {
      const steps: [string, number][] = [];
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
      if (nav) {
        steps.push(['page-asked', at(nav.requestStart)], ['page-loaded', at(nav.responseEnd)], ['page-parsed', at(nav.domInteractive)]);
        if (nav.domContentLoadedEventEnd > 0) steps.push(['page-dom-loaded', at(nav.domContentLoadedEventEnd)]);
        if (nav.loadEventEnd > 0) steps.push(['page-load-event', at(nav.loadEventEnd)]);
      }
      for (const [step, name] of [
        ['js-start', 'mundaneum:start'],
        ['js-state', 'mundaneum:state'],
        ['js-mounted', 'mundaneum:mounted'],
        ['js-task', 'mundaneum:task'],
        ['js-laid-out', 'mundaneum:laid-out'],
        ['js-frame-start', 'mundaneum:frame'],
      ]) {
        const t = mark(name);
        if (t !== undefined) steps.push([step, at(t)]);
      }
      steps.push(['js-first-frame', at(performance.now())]);
      reportStartSteps(steps);
    });
  });
}

// The window opens its workspace while it starts; when another process holds it (or it
// cannot be opened) say so, and show the app once it opens.
async function start() {
  let state: WorkspaceState | null = null;
  if (connected()) state = await workspaceState().catch(() => null);
  performance.mark('mundaneum:state');
  if (!state || state.open) {
    mountApp();
    return;
  }
  let opened = false;
  const held = mount(HeldView, {
    target: target!,
    props: {
      initial: state,
      onopen: () => {
        if (opened) return;
        opened = true;
        void unmount(held);
        mountApp();
      },
    },
  });
}

void start();
