import type { HistoryItem, ThreadDetail, ThreadSummary } from '../src/model/types.js';

export type { MediaPartView, PartView } from '../src/model/media-part-view.js';
export type {
  BatchRecord,
  HistoryItem,
  StoredMessage,
  ThreadDetail,
  ThreadSummary,
  ToolPair,
  TrippedGuardrailView,
} from '../src/model/types.js';

export interface Info {
  readonly live: 'engine' | 'poll';
  readonly allowResume: boolean;
  readonly allowFork: boolean;
}

/** The error message of a refused write, or its status. */
async function failure(response: Response, what: string): Promise<Error> {
  const body = await response.json().catch(() => ({}));
  return new Error(body?.error?.message ?? `${what} failed: ${response.status}`);
}

function postJson(path: string, body: unknown): Promise<Response> {
  return fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
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
  /** Where the inspector serves the bytes of media part `index` of the message at `position`. */
  partUrl: (id: string, position: number, index: number) =>
    `api/threads/${encodeURIComponent(id)}/messages/${position}/parts/${index}`,
  events: (id: string) => new EventSource(`api/threads/${encodeURIComponent(id)}/events`),
  history: async (id: string) =>
    (await getJson<{ entries: HistoryItem[] }>(`api/threads/${encodeURIComponent(id)}/history`))
      .entries,
  async resume(id: string, input: unknown): Promise<void> {
    const response = await postJson(`api/threads/${encodeURIComponent(id)}/resume`, { input });
    if (!response.ok) throw await failure(response, 'resume');
  },
  /** Forks `id` at checkpoint `at`: the new thread's id once it is stored. */
  async fork(id: string, at: string): Promise<string> {
    const response = await postJson(`api/threads/${encodeURIComponent(id)}/fork`, { at });
    if (!response.ok) throw await failure(response, 'fork');
    return ((await response.json()) as { threadId: string }).threadId;
  },
};
