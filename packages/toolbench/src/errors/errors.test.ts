import { ProviderError, SkeinError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { invalidOption } from './invalid-option.js';
import { invalidCompletion, serverUnreachable } from './provider-errors.js';
import { ToolBenchError } from './toolbench-error.js';

describe('errors', () => {
  it.each([
    [
      ToolBenchError.reactParse('missing-action', 'no Action', { marker: 'Action:' }),
      'REACT_PARSE_ERROR',
      'ToolBenchError',
    ],
    [ToolBenchError.prompt('system', 'x'), 'TOOLLLAMA_PROMPT_INVALID', 'ToolBenchError'],
    [
      ToolBenchError.invalidQuery('query.api_list', 'x'),
      'TOOLBENCH_INVALID_QUERY',
      'ToolBenchError',
    ],
    [
      ToolBenchError.missingCategory('Tool', 'Api', 'query.api_list[0]'),
      'TOOLBENCH_MISSING_CATEGORY',
      'ToolBenchError',
    ],
    [
      ToolBenchError.duplicateFunction('f', 'a', 'b'),
      'TOOLBENCH_DUPLICATE_FUNCTION',
      'ToolBenchError',
    ],
    [
      serverUnreachable('http://x', new Error('refused')),
      'TOOLBENCH_SERVER_UNREACHABLE',
      'ProviderError',
    ],
    [invalidOption('url', 'x'), 'INVALID_ARGUMENT', 'InvalidArgumentError'],
    [invalidCompletion('a number'), 'TOOLBENCH_INVALID_COMPLETION', 'ProviderError'],
    [
      ToolBenchError.answerInput('messages', 'x'),
      'TOOLBENCH_INVALID_ANSWER_INPUT',
      'ToolBenchError',
    ],
    [ToolBenchError.unsupportedValue('$.a', 'x'), 'TOOLBENCH_UNSUPPORTED_VALUE', 'ToolBenchError'],
  ])('%o is a SkeinError with a stable code and its class name', (error, code, name) => {
    expect(SkeinError.isInstance(error)).toBe(true);
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe(code);
    expect(error.name).toBe(name);
  });

  it('says what was wrong and where', () => {
    expect(
      ToolBenchError.missingCategory('Olato Quotes', 'Love Quote', 'query.api_list[2]').message,
    ).toBe(
      'No category for tool "Olato Quotes" (API "Love Quote", query.api_list[2]): give the entry a category_name or pass it in options.categories',
    );
    const unreachable = serverUnreachable('http://127.0.0.1:1/virtual', new Error('ECONNREFUSED'));
    expect(ProviderError.isInstance(unreachable)).toBe(true);
    expect(unreachable.message).toContain('http://127.0.0.1:1/virtual');
    expect(unreachable.cause).toBeInstanceOf(Error);
    expect(ToolBenchError.reactParse('missing-action', 'm', { marker: 'Action:' })).toMatchObject({
      reason: 'missing-action',
      marker: 'Action:',
      details: { reason: 'missing-action', marker: 'Action:' },
    });
    expect(invalidOption('url', 'is not a URL')).toMatchObject({
      argument: 'url',
      message: 'Invalid option url: is not a URL',
      details: { argument: 'url', problem: 'is not a URL' },
    });
  });
});
