import { escapeHtml } from './escape-html.js';

/**
 * What is wrong with an inspector address, or undefined when it is one: an absolute http(s) URL
 * (a page must never link to `javascript:` or a file).
 */
export function inspectorUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `must be an absolute http(s) URL such as http://127.0.0.1:4319/, got "${url}"`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return `must be an http(s) URL, got "${parsed.protocol}" in "${url}"`;
  return undefined;
}

/**
 * The inspector's page of a thread: its hash route `#/thread/<id>` (the id escaped as one path
 * segment, as the inspector's own links have it) after the inspector's address, whose own hash is
 * dropped. `inspectorUrl` must pass `inspectorUrlProblem`.
 */
export function inspectorThreadUrl(inspectorUrl: string, threadId: string): string {
  const base = new URL(inspectorUrl);
  base.hash = '';
  return `${base.href}#/thread/${encodeURIComponent(threadId)}`;
}

/**
 * A thread as HTML: a link to it in the inspector when there is an address, else its id; a dash
 * for an item without a thread (an INVALID item, or a run folder without results).
 */
export function threadHtml(threadId: string | undefined, inspectorUrl?: string): string {
  if (threadId === undefined) return '<span class="none">—</span>';
  const id = `<code>${escapeHtml(threadId)}</code>`;
  if (inspectorUrl === undefined) return id;
  const href = escapeHtml(inspectorThreadUrl(inspectorUrl, threadId));
  return `<a class="thread" href="${href}" rel="noreferrer">${id}</a>`;
}
