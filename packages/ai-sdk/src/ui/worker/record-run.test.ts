import { attachmentDigest } from '@skein/core/store-kit';
import { describe, expect, it } from 'vitest';
import { base64Of, pngBytes } from '../../test-support/media-bytes.js';
import type { UIChunk } from '../ui-chunk.js';
import { UIRun } from '../ui-run.js';
import type { LoggedPart } from './attachment-marker.js';
import { recordRun } from './record-run.js';
import type { UIPartsLog } from './ui-parts-log.js';

const IMAGE = pngBytes(0, 0, 0, 13, 4, 2);
const FILE: UIChunk = {
  type: 'file',
  mediaType: 'image/png',
  url: `data:image/png;base64,${base64Of(IMAGE)}`,
};

/** A parts log in memory: what `recordRun` wrote, position by position, in the order written. */
function memoryLog() {
  const parts: LoggedPart[] = [];
  const writes: string[] = [];
  const log = {
    async append(_thread: string, _run: string, seq: number, added: readonly LoggedPart[]) {
      writes.push(`append ${seq}+${added.length}`);
      added.forEach((part, i) => {
        parts[seq + i] = part;
      });
    },
    async replace(_thread: string, _run: string, seq: number, part: UIChunk) {
      writes.push(`replace ${seq}`);
      parts[seq] = part;
    },
  };
  return { parts, writes, log: log as unknown as UIPartsLog };
}

async function record(held: boolean) {
  const { parts, writes, log } = memoryLog();
  const run = new UIRun({ type: 'start', messageId: 'm' });
  const recording = recordRun(
    {
      log,
      threadId: 't',
      runId: 'r',
      readAttachment: async (_thread, digest) =>
        held && digest === attachmentDigest(IMAGE) ? IMAGE : undefined,
    },
    run,
    () => {},
  );
  run.push({ type: 'start-step' });
  run.push(FILE);
  run.push({ type: 'finish-step' });
  run.end();
  await recording;
  return { parts, writes };
}

describe('recordRun', () => {
  it('logs a file chunk by its digest when the store holds its bytes', async () => {
    const { parts } = await record(true);
    expect(parts).toEqual([
      { type: 'start', messageId: 'm' },
      { type: 'start-step' },
      { type: 'skein-attachment', mediaType: 'image/png', digest: attachmentDigest(IMAGE) },
      { type: 'finish-step' },
      null,
    ]);
  });

  it('puts the chunk back before the end when the store never got the bytes', async () => {
    const { parts, writes } = await record(false);
    expect(parts[2]).toEqual(FILE);
    expect(writes.at(-2)).toBe('replace 2');
    expect(writes.at(-1)).toMatch(/^append 4\+1$/);
  });
});
