import { SkeinError } from '@skein/spec';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as api from '../index.js';
import { invalidOption } from './invalid-option.js';
import { invalidCompletion, serverUnreachable } from './provider-errors.js';

type ErrorClass = (abstract new (
  ...args: never[]
) => SkeinError) & {
  readonly errorName: string;
  isInstance(value: unknown): boolean;
};

const cause = new Error('boom');

// One instance per code: typed so a code added to a union and missing here does not compile.
const toolBenchErrors: { [C in api.ToolBenchErrorCode]: api.ToolBenchError<C> } = {
  REACT_PARSE_ERROR: api.ToolBenchError.reactParse('missing-action', 'no Action', {
    marker: 'Action:',
  }),
  TOOLLLAMA_PROMPT_INVALID: api.ToolBenchError.prompt('system', 'empty'),
  TOOLBENCH_INVALID_QUERY: api.ToolBenchError.invalidQuery('query.api_list', 'missing'),
  TOOLBENCH_MISSING_CATEGORY: api.ToolBenchError.missingCategory(
    'Tool',
    'Api',
    'query.api_list[0]',
  ),
  TOOLBENCH_DUPLICATE_FUNCTION: api.ToolBenchError.duplicateFunction('f', 'a', 'b'),
  TOOLBENCH_INVALID_ANSWER_INPUT: api.ToolBenchError.answerInput('answer', 'is missing'),
  TOOLBENCH_UNSUPPORTED_VALUE: api.ToolBenchError.unsupportedValue('$.f', 'a function'),
};
const providerErrors: {
  [C in api.ToolBenchProviderErrorCode]: api.ToolBenchProviderError<C>;
} = {
  TOOLBENCH_SERVER_UNREACHABLE: serverUnreachable('http://x', cause),
  TOOLBENCH_INVALID_COMPLETION: invalidCompletion('a number'),
};

function rows(
  type: ErrorClass,
  errors: Record<string, SkeinError>,
): [ErrorClass, SkeinError, string][] {
  return Object.entries(errors).map(([code, error]) => [type, error, code]);
}

// Every error class this package exports, with each code it throws.
const table: [ErrorClass, SkeinError, string][] = [
  [api.InvalidArgumentError, invalidOption('maxTokens', 'is negative'), 'INVALID_ARGUMENT'],
  ...rows(api.ProviderError, providerErrors),
  ...rows(api.ToolBenchError, toolBenchErrors),
];

type Api = typeof api;
type ClassNames = {
  [K in keyof Api]: Api[K] extends abstract new (...args: never[]) => SkeinError ? K : never;
}[keyof Api];
type CodeOf<C> = C extends abstract new (...args: never[]) => SkeinError<infer Code> ? Code : never;
// ProviderError's code is each package's (this package's are `ToolBenchProviderErrorCode`).
type WideCodes = {
  [K in Exclude<ClassNames, 'ProviderError'>]: string extends CodeOf<Api[K]> ? K : never;
}[Exclude<ClassNames, 'ProviderError'>];

describe('every exported error class', () => {
  it('is in the table', () => {
    const exported = Object.values(api).filter(
      (value) => typeof value === 'function' && value.prototype instanceof SkeinError,
    );
    expect(new Set(exported)).toEqual(new Set(table.map(([type]) => type)));
  });

  it('is ToolBenchError, besides those of @skein/spec', () => {
    const own = new Set(table.map(([type]) => type));
    own.delete(api.InvalidArgumentError);
    own.delete(api.ProviderError);
    expect([...own].map((type) => type.errorName)).toEqual(['ToolBenchError']);
  });

  it.each(table)(
    '%o has its code %#, and an isInstance that rejects its siblings',
    (type, error, code) => {
      expect(error.code).toBe(code);
      expect(error.code).toMatch(/^[A-Z]+(_[A-Z]+)*$/);
      expect(error.name).toBe(type.errorName);
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
    expectTypeOf<api.ToolBenchError['code']>().toEqualTypeOf<api.ToolBenchErrorCode>();
    expectTypeOf(
      api.ToolBenchError.prompt('x', 'y').code,
    ).toEqualTypeOf<'TOOLLLAMA_PROMPT_INVALID'>();
  });
});

describe('the facts of each code', () => {
  it('are typed fields, and in details', () => {
    expect(toolBenchErrors.REACT_PARSE_ERROR).toMatchObject({
      reason: 'missing-action',
      marker: 'Action:',
      details: { reason: 'missing-action', marker: 'Action:' },
    });
    expect(toolBenchErrors.TOOLBENCH_MISSING_CATEGORY).toMatchObject({
      toolName: 'Tool',
      apiName: 'Api',
      details: { toolName: 'Tool', apiName: 'Api', where: 'query.api_list[0]' },
    });
    expect(toolBenchErrors.TOOLBENCH_DUPLICATE_FUNCTION.details).toEqual({
      functionName: 'f',
      firstPath: 'a',
      secondPath: 'b',
    });
    expect(toolBenchErrors.TOOLLLAMA_PROMPT_INVALID).toMatchObject({ where: 'system' });
    expect('path' in toolBenchErrors.TOOLLLAMA_PROMPT_INVALID).toBe(false);
  });

  it('of a provider error are fields, typed through isToolBenchProviderError', () => {
    const error: unknown = providerErrors.TOOLBENCH_SERVER_UNREACHABLE;
    expect(api.isToolBenchProviderError(error)).toBe(true);
    expect(api.isToolBenchProviderError(error, 'TOOLBENCH_INVALID_COMPLETION')).toBe(false);
    expect(api.isToolBenchProviderError(new api.ProviderError('X', 'x'))).toBe(false);
    if (!api.isToolBenchProviderError(error, 'TOOLBENCH_SERVER_UNREACHABLE'))
      throw new Error('narrows');
    expectTypeOf(error.url).toEqualTypeOf<string>();
    expect(error).toMatchObject({ url: 'http://x', details: { url: 'http://x' }, cause });
    expect(providerErrors.TOOLBENCH_INVALID_COMPLETION).toMatchObject({
      problem: 'a number',
      details: { problem: 'a number' },
    });
  });
});
