import { SkeinError } from '@skein/spec';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as api from '../index.js';

type ErrorClass = (abstract new (
  ...args: never[]
) => SkeinError) & {
  isInstance(value: unknown): boolean;
};

const cause = new Error('boom');

// One instance of every error class this package exports, with the code it must carry.
const table: [ErrorClass, SkeinError, string][] = [
  [
    api.DuplicateFunctionNameError,
    new api.DuplicateFunctionNameError('f', 'a', 'b'),
    'TOOLBENCH_DUPLICATE_FUNCTION',
  ],
  [
    api.InvalidAnswerInputError,
    new api.InvalidAnswerInputError('answer', 'is missing'),
    'TOOLBENCH_INVALID_ANSWER_INPUT',
  ],
  [
    api.InvalidCompletionError,
    new api.InvalidCompletionError('a number'),
    'TOOLBENCH_INVALID_COMPLETION',
  ],
  [
    api.InvalidToolBenchOptionError,
    new api.InvalidToolBenchOptionError('maxTokens', 'is negative'),
    'TOOLBENCH_INVALID_OPTION',
  ],
  [
    api.InvalidToolBenchQueryError,
    new api.InvalidToolBenchQueryError('query.api_list', 'missing'),
    'TOOLBENCH_INVALID_QUERY',
  ],
  [
    api.MissingCategoryError,
    new api.MissingCategoryError('Tool', 'Api', 'query.api_list[0]'),
    'TOOLBENCH_MISSING_CATEGORY',
  ],
  [
    api.ReActParseError,
    new api.ReActParseError('missing-action', 'no Action'),
    'REACT_PARSE_ERROR',
  ],
  [
    api.ToolBenchServerUnreachableError,
    new api.ToolBenchServerUnreachableError('http://x', cause),
    'TOOLBENCH_SERVER_UNREACHABLE',
  ],
  [
    api.ToolLLaMAPromptError,
    new api.ToolLLaMAPromptError('system', 'empty'),
    'TOOLLLAMA_PROMPT_INVALID',
  ],
  [
    api.UnsupportedValueError,
    new api.UnsupportedValueError('$.f', 'a function'),
    'TOOLBENCH_UNSUPPORTED_VALUE',
  ],
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
