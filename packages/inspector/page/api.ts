import type { ThreadDetail, ThreadSummary } from '../src/model/types.js';

export type {
  BatchRecord,
  StoredMessage,
  ThreadDetail,
  ThreadSummary,
  ToolPair,
} from '../src/model/types.js';

export interface Info {
  readonly live: 'engine' | 'poll';
  readonly allowResume: boolean;
}

async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(path);
  const body = await response.json();
  if (!response.ok) throw new Error(body?.error?.message ?? `${response.status} ${path}`);
  return body as T;
}

/** `undefined` when the store has no such thread (404), so the page can say so. */
async function getThread(id: string): Promise<ThreadDetail | undefined> {
  const path = `api/threads/${encodeURIComponent(id)}`;
  const response = await fetch(path);
  if (response.status === 404) return undefined;
  const body = await response.json();
  if (!response.ok) throw new Error(body?.error?.message ?? `${response.status} ${path}`);
  return body as ThreadDetail;
}

export const api = {
  info: () => getJson<Info>('api/info'),
  threads: (query: URLSearchParams) =>
    getJson<{ threads: ThreadSummary[]; workflows: string[] }>(`api/threads?${query}`),
  thread: getThread,
  events: (id: string) => new EventSource(`api/threads/${encodeURIComponent(id)}/events`),
  async resume(id: string, input: unknown): Promise<void> {
    const response = await fetch(`api/threads/${encodeURIComponent(id)}/resume`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input }),
    });
    if (!response.ok) {
      const body = await response.json().catch(() => ({}));
      throw new Error(body?.error?.message ?? `resume failed: ${response.status}`);
    }
  },
};
