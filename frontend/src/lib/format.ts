// Number formatting for counters and rates.

const counts = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });
const rates = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });

/** Formats a counter: 12,345. */
export function count(n: number): string {
  return Number.isFinite(n) ? counts.format(n) : '–';
}

/** Formats a rate such as pages per second. */
export function rate(n: number): string {
  return Number.isFinite(n) ? rates.format(n) : '–';
}

/** Formats a byte count with a binary unit. */
export function bytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '–';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return `${i === 0 ? n : rates.format(n)} ${units[i]}`;
}

const dates = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/** Formats an RFC 3339 time for people ("21 Nov 2026, 12:00"); "" for none or garbage. */
export function when(iso: string | null | undefined): string {
  if (!iso) return '';
  const t = Date.parse(iso);
  return Number.isFinite(t) ? dates.format(t) : '';
}

/** Formats how long ago an RFC 3339 time was ("just now", "5 min ago", "3 days ago"). */
export function ago(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '';
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return '';
  const s = Math.max(0, Math.round((now - t) / 1000));
  if (s < 45) return 'just now';
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'} ago`;
  const m = Math.max(1, Math.round(s / 60));
  if (m < 60) return `${m} min ago`;
  const h = Math.round(m / 60);
  if (h < 24) return plural(h, 'hour');
  const d = Math.round(h / 24);
  if (d < 30) return plural(d, 'day');
  const mo = Math.round(d / 30);
  if (mo < 12) return plural(mo, 'month');
  return plural(Math.round(d / 365), 'year');
}

/** Formats milliseconds as a short duration ("850 ms", "3.2 s"). */
export function ms(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '–';
  return n < 1000 ? `${rates.format(n)} ms` : `${rates.format(n / 1000)} s`;
}

/** Formats seconds as a clock duration ("45 s", "3 min 5 s", "2 h 10 min"). */
export function duration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '–';
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
  const h = Math.floor(m / 60);
  return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
}
