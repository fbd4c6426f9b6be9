/** Reads server-sent events from `url` until `until` accepts one (or the timeout passes). */
export async function waitForEvent(
  url: string,
  until: (event: string, data: unknown) => boolean,
  options: { timeoutMs?: number; onReady?: () => void | Promise<void> } = {},
): Promise<{ event: string; data: unknown }[]> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? 20_000);
  const seen: { event: string; data: unknown }[] = [];
  try {
    const response = await fetch(url, { signal: controller.signal });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`stream ended before the event came; saw ${JSON.stringify(seen)}`);
      buffer += value;
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf('\n\n');
        const event = /^event: ?(.*)$/m.exec(block)?.[1];
        const data = /^data: ?(.*)$/m.exec(block)?.[1];
        if (event === undefined) continue;
        const parsed: unknown = data === undefined ? undefined : JSON.parse(data);
        seen.push({ event, data: parsed });
        if (event === 'ready') await options.onReady?.();
        if (until(event, parsed)) {
          controller.abort();
          return seen;
        }
      }
    }
  } finally {
    clearTimeout(timer);
  }
}

/** Opens an event stream and resolves once its `ready` event came; `close` drops it. */
export async function openFeed(url: string): Promise<{ close(): void }> {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal });
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  while (!/^event: ready$/m.test(buffer)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${url} ended before its ready event`);
    buffer += value;
  }
  return { close: () => controller.abort() };
}
