import { SkeinError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { DuplicateFunctionNameError } from './duplicate-function-error.js';
import { InvalidAnswerInputError } from './invalid-answer-input-error.js';
import { InvalidCompletionError } from './invalid-completion-error.js';
import { InvalidToolBenchOptionError } from './invalid-option-error.js';
import { InvalidToolBenchQueryError } from './invalid-query-error.js';
import { MissingCategoryError } from './missing-category-error.js';
import { ReActParseError } from './react-parse-error.js';
import { ToolBenchServerUnreachableError } from './server-unreachable-error.js';
import { ToolLLaMAPromptError } from './toolllama-prompt-error.js';
import { UnsupportedValueError } from './unsupported-value-error.js';

describe('errors', () => {
  it.each([
    [
      new ReActParseError('missing-action', 'no Action', { marker: 'Action:' }),
      'REACT_PARSE_ERROR',
      'ReActParseError',
    ],
    [new ToolLLaMAPromptError('system', 'x'), 'TOOLLLAMA_PROMPT_INVALID', 'ToolLLaMAPromptError'],
    [
      new InvalidToolBenchQueryError('query.api_list', 'x'),
      'TOOLBENCH_INVALID_QUERY',
      'InvalidToolBenchQueryError',
    ],
    [
      new MissingCategoryError('Tool', 'Api', 'query.api_list[0]'),
      'TOOLBENCH_MISSING_CATEGORY',
      'MissingCategoryError',
    ],
    [
      new DuplicateFunctionNameError('f', 'a', 'b'),
      'TOOLBENCH_DUPLICATE_FUNCTION',
      'DuplicateFunctionNameError',
    ],
    [
      new ToolBenchServerUnreachableError('http://x', new Error('refused')),
      'TOOLBENCH_SERVER_UNREACHABLE',
      'ToolBenchServerUnreachableError',
    ],
    [
      new InvalidToolBenchOptionError('url', 'x'),
      'TOOLBENCH_INVALID_OPTION',
      'InvalidToolBenchOptionError',
    ],
    [
      new InvalidCompletionError('a number'),
      'TOOLBENCH_INVALID_COMPLETION',
      'InvalidCompletionError',
    ],
    [
      new InvalidAnswerInputError('messages', 'x'),
      'TOOLBENCH_INVALID_ANSWER_INPUT',
      'InvalidAnswerInputError',
    ],
    [new UnsupportedValueError('$.a', 'x'), 'TOOLBENCH_UNSUPPORTED_VALUE', 'UnsupportedValueError'],
  ])('%o is a SkeinError with a stable code and its own name', (error, code, name) => {
    expect(SkeinError.isInstance(error)).toBe(true);
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe(code);
    expect(error.name).toBe(name);
  });

  it('says what was wrong and where', () => {
    expect(
      new MissingCategoryError('Olato Quotes', 'Love Quote', 'query.api_list[2]').message,
    ).toBe(
      'No category for tool "Olato Quotes" (API "Love Quote", query.api_list[2]): give the entry a category_name or pass it in options.categories',
    );
    const unreachable = new ToolBenchServerUnreachableError(
      'http://127.0.0.1:1/virtual',
      new Error('ECONNREFUSED'),
    );
    expect(unreachable.message).toContain('http://127.0.0.1:1/virtual');
    expect(unreachable.cause).toBeInstanceOf(Error);
    expect(new ReActParseError('missing-action', 'm', { marker: 'Action:' })).toMatchObject({
      reason: 'missing-action',
      marker: 'Action:',
      details: { reason: 'missing-action', marker: 'Action:' },
    });
  });
});
