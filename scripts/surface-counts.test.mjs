import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BRANCHES_ON_KIND, WAIT_FIELDS } from './surface-counts.mjs';

test('a file branches on a pause kind when it compares or switches on one', () => {
  assert.ok(BRANCHES_ON_KIND.test("if (pending?.kind === 'tool-approval') return;"));
  assert.ok(BRANCHES_ON_KIND.test("switch (p.kind) {\n  case 'sleep':"));
  assert.ok(BRANCHES_ON_KIND.test("wait.reason !== 'event'"));
  assert.ok(!BRANCHES_ON_KIND.test("const kind = 'user-input';"));
  assert.ok(!BRANCHES_ON_KIND.test("if (part.kind === 'image') {}"));
});

test('wait fields are read by name', () => {
  assert.ok(WAIT_FIELDS.test('pending.wakeAt'));
  assert.ok(WAIT_FIELDS.test('{ timedOut: true }'));
  assert.ok(!WAIT_FIELDS.test('const awakeAtNoon = 1;'));
});
