export function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

export function formatTokens(n: number): string {
  return n.toLocaleString('en-US');
}

export function formatBytes(n: number): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? 'byte' : 'bytes'}`;
}

export function threadHref(id: string): string {
  return `#/thread/${encodeURIComponent(id)}`;
}
