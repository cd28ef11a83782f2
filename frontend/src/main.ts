// Marks for e2e/perf.mjs: when the app's code starts and when it is on screen.
performance.mark('mundaneum:start');
import { mount, unmount } from 'svelte';
import './app.css';
import App from './App.svelte';
import HeldView from './views/HeldView.svelte';
import { connected, workspaceState, type WorkspaceState } from './api';
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
}

// The window opens its workspace while it starts; when another process holds it (or it
// cannot be opened) say so, and show the app once it opens.
async function start() {
  let state: WorkspaceState | null = null;
  if (connected()) state = await workspaceState().catch(() => null);
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
