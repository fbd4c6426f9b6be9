import { SkeinError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import * as api from '../index.js';

const table: [abstract new (...args: never[]) => SkeinError, SkeinError, string][] = [
  [api.InputLineError, new api.InputLineError('data.jsonl', 3, 'not JSON'), 'INPUT_LINE_MALFORMED'],
  [api.ItemIdError, new api.ItemIdError('item 2', 'no id'), 'ITEM_ID_INVALID'],
  [api.RateLimitError, new api.RateLimitError('m', 3, new Error('429')), 'RATE_LIMITED'],
  [api.RunFolderError, new api.RunFolderError('runs/x/run.json', 'bad'), 'RUN_FOLDER_INVALID'],
  [api.RunnerOptionError, new api.RunnerOptionError('concurrency', 'bad'), 'RUNNER_INVALID_OPTION'],
  [api.WorkflowModuleError, new api.WorkflowModuleError('wf.ts', 'bad'), 'WORKFLOW_MODULE_INVALID'],
];

describe('every exported error class', () => {
  it('is in the table', () => {
    const exported = Object.values(api).filter(
      (value) => typeof value === 'function' && value.prototype instanceof SkeinError,
    );
    expect(new Set(exported)).toEqual(new Set(table.map(([type]) => type)));
  });

  it.each(table)(
    '%o has its code and an isInstance that rejects its siblings',
    (type, error, code) => {
      expect(error.code).toBe(code);
      expect(error.name).toBe((type as unknown as { errorName: string }).errorName);
      for (const [other, otherError] of table)
        expect((other as unknown as typeof SkeinError).isInstance(error)).toBe(
          otherError === error || other === type,
        );
    },
  );

  it('says which is retryable: only the rate limit', () => {
    expect(table.filter(([, e]) => e.retryable).map(([, e]) => e.code)).toEqual(['RATE_LIMITED']);
  });

  it('gives the classes with several codes each code, UPPER_SNAKE, none retryable', () => {
    const codes = [
      new api.RunFolderError('runs/x', 'bad'),
      new api.RunFolderError('runs/x', 'holds files', undefined, 'OUTPUT_NOT_EMPTY'),
      new api.RunFolderError('runs/x/run.json', 'another run', undefined, 'OUTPUT_NOT_OURS'),
      new api.WorkflowModuleError('wf.ts', 'bad'),
      new api.WorkflowModuleError('wf.ts', 'threw', new Error('x'), 'WORKFLOW_MODULE_FAILED'),
    ].map((error) => {
      expect(error.retryable).toBe(false);
      return error.code;
    });
    expect(codes).toEqual([
      'RUN_FOLDER_INVALID',
      'OUTPUT_NOT_EMPTY',
      'OUTPUT_NOT_OURS',
      'WORKFLOW_MODULE_INVALID',
      'WORKFLOW_MODULE_FAILED',
    ]);
    for (const code of codes) expect(code).toMatch(/^[A-Z]+(_[A-Z]+)*$/);
  });
});
