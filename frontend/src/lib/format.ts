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
