import { SkeinError } from '@skein/spec';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as api from '../../index.js';

type ErrorClass = (abstract new (
  ...args: never[]
) => SkeinError) & {
  isInstance(value: unknown): boolean;
};

// One instance of every error class this package exports, with the code it must carry.
const table: [ErrorClass, SkeinError, string][] = [
  [
    api.InvalidToolBenchServerOptionError,
    new api.InvalidToolBenchServerOptionError('port', 'is negative'),
    'TOOLBENCH_SERVER_INVALID_OPTION',
  ],
  [
    api.InvalidOpenAIServerOptionError,
    new api.InvalidOpenAIServerOptionError('script[0].contnet', 'is not a known field', [
      'content',
    ]),
    'OPENAI_SERVER_INVALID_OPTION',
  ],
  [
    api.InvalidScriptError,
    new api.InvalidScriptError('script[0].text', 'is not a known field', ['content']),
    'SCRIPT_INVALID',
  ],
  [api.ScriptExhaustedError, new api.ScriptExhaustedError(2, 1, 'user: "hi"'), 'SCRIPT_EXHAUSTED'],
];

type Api = typeof api;
type ClassNames = {
  [K in keyof Api]: Api[K] extends abstract new (...args: never[]) => SkeinError ? K : never;
}[keyof Api];
type CodeOf<C> = C extends abstract new (...args: never[]) => SkeinError<infer Code> ? Code : never;
type WideCodes = { [K in ClassNames]: string extends CodeOf<Api[K]> ? K : never }[ClassNames];

describe('every exported error class', () => {
  it('is in the table', () => {
    const exported = Object.values(api).filter(
      (value) => typeof value === 'function' && value.prototype instanceof SkeinError,
    );
    expect(new Set(exported)).toEqual(new Set(table.map(([type]) => type)));
  });

  it.each(table)(
    '%o has its code, and an isInstance that rejects its siblings',
    (type, error, code) => {
      expect(error.code).toBe(code);
      expect(SkeinError.isInstance(error)).toBe(true);
      for (const [other, instance] of table)
        expect(type.isInstance(instance), `${type.name}.isInstance(${other.name})`).toBe(
          other === type,
        );
    },
  );

  it('has a literal code type', () => {
    expectTypeOf<WideCodes>().toEqualTypeOf<never>();
  });
});
