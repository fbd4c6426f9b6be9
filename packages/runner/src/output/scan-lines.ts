import { createReadStream } from 'node:fs';

/** How every line of `results.jsonl` and `scores.jsonl` starts: their writers put `itemId` first. */
const LINE_START = '{"itemId":"';

/**
 * Whether `text` could be the start of such a line: a last line without its newline that could is
 * a write a crash tore; one that could not was not written by a run.
 */
export function couldStartLine(text: string): boolean {
  return text.startsWith(LINE_START) || LINE_START.startsWith(text);
}

/** A last line without its newline that a crash tore from a line a run wrote. */
export function isTornLine(line: ScannedLine): boolean {
  return !line.terminated && couldStartLine(line.text);
}

/** A line of a file with its byte range; `terminated` is false for a last line without `\n`. */
export interface ScannedLine {
  readonly text: string;
  readonly start: number;
  readonly end: number;
  readonly terminated: boolean;
}

/** The lines of a file with exact byte offsets (readline gives none), streamed. */
export async function* scanLines(path: string): AsyncGenerator<ScannedLine> {
  let pending: Buffer[] = [];
  let pendingStart = 0;
  let offset = 0;
  for await (const chunk of createReadStream(path)) {
    const bytes = chunk as Buffer;
    let from = 0;
    for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, from)) {
      pending.push(bytes.subarray(from, i));
      const text = Buffer.concat(pending).toString('utf8');
      yield { text, start: pendingStart, end: offset + i + 1, terminated: true };
      pending = [];
      from = i + 1;
      pendingStart = offset + from;
    }
    if (from < bytes.length) pending.push(bytes.subarray(from));
    offset += bytes.length;
  }
  if (pending.length !== 0)
    yield {
      text: Buffer.concat(pending).toString('utf8'),
      start: pendingStart,
      end: offset,
      terminated: false,
    };
}
