import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { countCodeLines } from './count-app-lines.mjs';

test('counts code lines, not blank lines or comments', () => {
  const source = [
    '// a comment',
    'const a = 1;',
    '',
    '/**',
    ' * a doc comment',
    ' */',
    '/* one line */',
    'export { a }; // trailing comments stay code',
  ].join('\n');
  assert.equal(countCodeLines(source), 2);
});

// Issue 33's goal: the chat service in at most 70 lines (141 for the same service on the AI SDK).
test('the chat service example is at most 70 lines of app code', () => {
  const files = ['chat-service.ts', 'main.ts', 'settings.ts'].map(
    (f) => `apps/chat-service/src/${f}`,
  );
  const lines = files.reduce(
    (sum, file) =>
      sum + countCodeLines(readFileSync(new URL(`../${file}`, import.meta.url), 'utf8')),
    0,
  );
  assert.ok(lines <= 70, `the chat service is ${lines} lines`);
});
