// Marks for e2e/perf.mjs: when the app's code starts and when it is on screen.
performance.mark('mundaneum:start');
import { mount } from 'svelte';
import './app.css';
import App from './App.svelte';
import { applyTheme, rememberedTheme } from './lib/theme';

const target = document.getElementById('app');
if (!target) {
  throw new Error('mundaneum: #app element missing from index.html');
}

// Paint in last run's theme at once; the workspace's setting follows when it loads.
applyTheme(rememberedTheme());

const app = mount(App, { target });
performance.mark('mundaneum:mounted');

export default app;
