import { SkeinError } from '@skein/spec';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as api from '../../index.js';
import { invalidServerOption as openAIServerOption } from '../../openai-server/errors/invalid-server-option.js';
import { invalidServerOption as toolBenchServerOption } from './invalid-server-option.js';

type ErrorClass = (abstract new (
  ...args: never[]
) => SkeinError) & {
  readonly errorName: string;
  isInstance(value: unknown): boolean;
};

// Every error class this package exports (none of its own: @skein/spec's InvalidArgumentError
// for the servers' options, @skein/core's ScriptError for the scripted model), with each code.
const table: [ErrorClass, SkeinError, string][] = [
  [api.InvalidArgumentError, toolBenchServerOption('port', 'is negative'), 'INVALID_ARGUMENT'],
  [
    api.InvalidArgumentError,
    openAIServerOption('script[0].contnet', 'is not a known field', ['content']),
    'INVALID_ARGUMENT',
  ],
  [
    api.ScriptError,
    api.ScriptError.invalid('script[0].text', 'is not a known field', ['content']),
    'SCRIPT_INVALID',
  ],
  [api.ScriptError, api.ScriptError.exhausted(2, 1, 'user: "hi"'), 'SCRIPT_EXHAUSTED'],
];

type Api = typeof api;
type ClassNames = {
  [K in keyof Api]: Api[K] extends abstract new (...args: never[]) => SkeinError ? K : never;
}[keyof Api];
type CodeOf<C> = C extends abstract new (...args: never[]) => SkeinError<infer Code> ? Code : never;
type WideCodes = { [K in ClassNames]: string extends CodeOf<Api[K]> ? K : never }[ClassNames];

describe('every exported error class', () => {
  it('is in the table, and none is the package’s own', () => {
    const exported = Object.values(api).filter(
      (value) => typeof value === 'function' && value.prototype instanceof SkeinError,
    );
    expect(new Set(exported)).toEqual(new Set(table.map(([type]) => type)));
    expect(exported.map((type) => (type as ErrorClass).errorName).sort()).toEqual([
      'InvalidArgumentError',
      'ScriptError',
    ]);
  });

  it.each(table)(
    '%o has its code, and an isInstance that rejects its siblings',
    (type, error, code) => {
      expect(error.code).toBe(code);
      expect(error.retryable).toBe(false);
      expect(SkeinError.isInstance(error)).toBe(true);
      for (const [other, instance] of table)
        expect(type.isInstance(instance), `${type.errorName}.isInstance(${other.errorName})`).toBe(
          other === type,
        );
    },
  );

  it('has a literal code type', () => {
    expectTypeOf<WideCodes>().toEqualTypeOf<never>();
  });
});

describe('the option errors', () => {
  it('name the option as `argument`, with the problem (and accepted fields) in details', () => {
    expect(
      openAIServerOption('script[0].contnet', 'is not a known field', ['content']),
    ).toMatchObject({
      argument: 'script[0].contnet',
      message:
        'Invalid OpenAI-compatible server option script[0].contnet: is not a known field (accepted: content)',
      details: {
        argument: 'script[0].contnet',
        problem: 'is not a known field',
        accepted: ['content'],
      },
    });
    expect(toolBenchServerOption('port', 'is negative')).toMatchObject({
      argument: 'port',
      message: 'Invalid ToolBench server option port: is negative',
      details: { argument: 'port', problem: 'is negative' },
    });
  });
});
