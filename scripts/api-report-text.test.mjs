// `node --test scripts/` (part of the root `test`).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalizeReport } from './api-report-text.mjs';

describe('normalizeReport', () => {
  it('drops the content hash and the line of the built file a note names', () => {
    const report = [
      '// Warnings were encountered during analysis:',
      '//',
      '// dist/index-CI648kQC.d.ts:1425:5 - (ae-forgotten-export) The symbol "A" needs to be exported',
      '// dist/index.d.ts:2749:9 - (ae-forgotten-export) The symbol "B" needs to be exported',
      '// dist/store-kit/index.d.cts:12:3 - (ae-forgotten-export) The symbol "C" needs to be exported',
      '// dist/checkpoint-store-CEXahL5s.d.ts:3:1 - (ae-forgotten-export) The symbol "D" needs',
    ].join('\n');
    assert.equal(
      normalizeReport(report),
      [
        '// Warnings were encountered during analysis:',
        '//',
        '// dist/index.d.ts - (ae-forgotten-export) The symbol "A" needs to be exported',
        '// dist/index.d.ts - (ae-forgotten-export) The symbol "B" needs to be exported',
        '// dist/store-kit/index.d.cts - (ae-forgotten-export) The symbol "C" needs to be exported',
        '// dist/checkpoint-store.d.ts - (ae-forgotten-export) The symbol "D" needs',
      ].join('\n'),
    );
  });

  it('leaves the API itself alone, and is the same when run twice', () => {
    const api =
      '```ts\nexport function run(thread: ThreadContext): Promise<RunOutcome>;\n// dist/x-ABCDEFGH.d.ts here\n```\n';
    assert.equal(normalizeReport(api), api);
    const once = normalizeReport('// dist/index-CI648kQC.d.ts:1:2 - note\n');
    assert.equal(normalizeReport(once), once);
  });
});
