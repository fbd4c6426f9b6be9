import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

/** One non-blank line of a JSONL file: its value, or why it is not JSON. */
export type JsonlLine =
  | { readonly line: number; readonly value: unknown }
  | { readonly line: number; readonly problem: string };

/** Parses one line; never throws. */
export function parseJsonlLine(text: string, line: number): JsonlLine {
  try {
    return { line, value: JSON.parse(text) as unknown };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const shown = text.length > 80 ? `${text.slice(0, 80)}…` : text;
    return { line, problem: `not JSON (${reason}): ${JSON.stringify(shown)}` };
  }
}

/**
 * The lines of a JSONL file, streamed (the file is never held whole), numbered from 1 as an
 * editor numbers them. Blank lines are skipped but counted; `\r\n` endings are accepted, and so
 * is a UTF-8 byte order mark at the start (editors on Windows write one; JSON.parse refuses it).
 */
export async function* readJsonl(path: string): AsyncGenerator<JsonlLine> {
  const lines = createInterface({
    input: createReadStream(path, { encoding: 'utf8', highWaterMark: 8 * 1024 }),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let line = 0;
  try {
    for await (const read of lines) {
      line++;
      const text = line === 1 && read.startsWith('\uFEFF') ? read.slice(1) : read;
      if (text.trim() === '') continue;
      yield parseJsonlLine(text, line);
    }
  } finally {
    lines.close();
  }
}

/** Non-blank lines of a file, counted without parsing (for a progress total). */
export async function countJsonlLines(path: string): Promise<number> {
  let count = 0;
  let blank = true;
  let first = true;
  for await (const chunk of createReadStream(path)) {
    const bytes = chunk as Buffer;
    // A byte order mark (EF BB BF) is not text of the first line. The stream's first chunk holds
    // at least 3 bytes unless the whole file is shorter.
    const bom = first && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
    first = false;
    for (let i = bom ? 3 : 0; i < bytes.length; i++) {
      const byte = bytes[i]!;
      if (byte === 10) {
        if (!blank) count++;
        blank = true;
      } else if (byte !== 13 && byte !== 32 && byte !== 9) blank = false;
    }
  }
  return blank ? count : count + 1;
}
