import type { FinishReason, LLMMessage, ToolCall } from '@skein/spec';
import { type ReActParseFailure, ToolBenchError } from '../errors/toolbench-error.js';
import { FINISH_FUNCTION_NAME } from '../functions/finish-function.js';
import { resolveToolBenchAction } from '../naming/resolve-action.js';
import {
  DEFAULT_MAX_OBSERVATION_LENGTH,
  formatFunctionResponse,
} from '../observation/function-response.js';
import { pyJsonToJs } from '../python/python-json.js';
import { parsePyJson } from '../python/python-json-parse.js';
import {
  type FinishOutcome,
  finishOutcomeFromArguments,
  finishOutcomeReference,
} from '../react/finish-outcome.js';
import { parseJsonObject } from '../react/lenient-json.js';
import { ACTION_INPUT_MARKER, findMarkerLine } from '../react/markers.js';
import type { ReActParseMode } from '../react/parse-react.js';
import { parseReActReference } from '../react/reference-parser.js';
import { parseReActTolerant, type ReActStep } from '../react/tolerant-parser.js';
import {
  INVALID_FUNCTION_NAME,
  REACT_METADATA_KEY,
  type ReActMessageMetadata,
} from './react-metadata.js';

export interface ReActReplyContext {
  readonly mode: ReActParseMode;
  /** The callable functions, in offer order (`Finish` is handled apart). */
  readonly functionNames: readonly string[];
  readonly generateId: () => string;
  /** Python's `ensure_ascii` for the function responses written here. */
  readonly ensureAscii: boolean;
  readonly warn?: (
    code: string,
    message: string,
    details?: Readonly<Record<string, unknown>>,
  ) => void;
}

export interface ReActReply {
  readonly message: LLMMessage;
  readonly finishReason: FinishReason;
}

const SERVER_PARSE_ERROR = 'Tool input parse error...\n';
const FORMAT_HINT =
  'Reply as "Thought: <your thought>\\nAction: <function name>\\nAction Input: <JSON object of arguments>".';

function metadata(meta: ReActMessageMetadata): Readonly<Record<string, unknown>> {
  return { [REACT_METADATA_KEY]: meta };
}

function assistant(content: string, meta: ReActMessageMetadata, call?: ToolCall): ReActReply {
  return {
    message: {
      role: 'assistant',
      content,
      ...(call ? { toolCalls: [call] } : {}),
      metadata: metadata(meta),
    },
    finishReason: call ? 'tool_calls' : 'stop',
  };
}

function errorCall(
  context: ReActReplyContext,
  name: string,
  args: string,
  error: string,
): ToolCall {
  return { id: context.generateId(), name, arguments: args, error };
}

// A function response this client writes itself, cut as the reference cuts every observation.
function errorResponse(context: ReActReplyContext, error: string): string {
  return formatFunctionResponse(
    { error, response: '' },
    { ensureAscii: context.ensureAscii, maxLength: DEFAULT_MAX_OBSERVATION_LENGTH },
  );
}

function noSuchFunction(context: ReActReplyContext, action: string): string {
  return errorResponse(context, `No such function name: ${action}`);
}

/** A Finish outcome as a reply: the final answer, or (bad input) a call answered with the reply. */
function finishReply(
  context: ReActReplyContext,
  outcome: FinishOutcome,
  rawArguments: string,
  thought: string,
  meta: ReActMessageMetadata,
): ReActReply {
  if (outcome.kind === 'invalid')
    return assistant(
      thought,
      meta,
      errorCall(context, FINISH_FUNCTION_NAME, rawArguments, outcome.reply),
    );
  const finish = { returnType: outcome.returnType, arguments: rawArguments };
  return assistant(outcome.finalAnswer ?? '', { ...meta, finish });
}

// Reference mode: react_parser, exact-name Finish, suffix dispatch, and the server's strict
// parse of the input, so the model reads what it would read in the benchmark.
function referenceReply(text: string, context: ReActReplyContext): ReActReply {
  const parsed = parseReActReference(text);
  const meta: ReActMessageMetadata = {
    raw: text,
    mode: 'reference',
    thought: parsed.thought,
    action: parsed.action,
    actionInput: parsed.actionInput,
  };
  if (parsed.action === FINISH_FUNCTION_NAME)
    return finishReply(
      context,
      finishOutcomeReference(parsed.actionInput),
      parsed.actionInput,
      parsed.thought,
      meta,
    );
  const resolved = resolveToolBenchAction(parsed.action, context.functionNames, {
    mode: 'reference',
  });
  if (resolved === undefined)
    return assistant(
      parsed.thought,
      meta,
      errorCall(
        context,
        INVALID_FUNCTION_NAME,
        parsed.actionInput,
        noSuchFunction(context, parsed.action),
      ),
    );
  const withMatch = Object.assign({}, meta, {
    match: { kind: resolved.match, candidates: resolved.candidates },
  });
  const call = (args: string): ReActReply =>
    assistant(parsed.thought, withMatch, {
      id: context.generateId(),
      name: resolved.name,
      arguments: args,
    });
  if (parsed.actionInput === '') return call('{}');
  const input = parsePyJson(parsed.actionInput);
  if (!input.ok) {
    const error = errorResponse(context, SERVER_PARSE_ERROR);
    return assistant(
      parsed.thought,
      withMatch,
      errorCall(context, resolved.name, parsed.actionInput, error),
    );
  }
  try {
    JSON.parse(parsed.actionInput);
    return call(parsed.actionInput);
  } catch {
    // Python accepts NaN/Infinity; the engine reads standard JSON.
    return call(JSON.stringify(pyJsonToJs(input.value)));
  }
}

function describeParseError(reason: ReActParseFailure): string {
  switch (reason) {
    case 'missing-action':
      return 'Invalid output format: no "Action:" line.';
    case 'missing-action-input':
      return 'Invalid output format: no "Action Input:" line after the "Action:" line.';
    case 'empty-action':
      return 'Invalid output format: the "Action:" line names no function.';
    case 'invalid-action-input':
      return 'Invalid output format: the Action Input is not a JSON object.';
  }
}

function tolerantStepReply(text: string, step: ReActStep, context: ReActReplyContext): ReActReply {
  const raw = step.complete ? text.slice(0, step.end) : text;
  const meta: ReActMessageMetadata = {
    raw,
    mode: 'tolerant',
    thought: step.thought,
    action: step.action,
    actionInput: step.rawActionInput,
    parsedBy: step.parsedBy,
    warnings: step.warnings,
  };
  for (const warning of step.warnings)
    context.warn?.(`REACT_${warning.code.toUpperCase().replaceAll('-', '_')}`, warning.message);
  // The model's own JSON text when it is standard JSON; Python's NaN/Infinity and repaired input
  // are written out again, as the engine reads standard JSON only.
  const args =
    (step.parsedBy === 'strict' || step.parsedBy === 'balanced') &&
    parseJsonObject(step.rawActionInput) !== undefined
      ? step.rawActionInput
      : JSON.stringify(step.actionInput);
  if (step.action === FINISH_FUNCTION_NAME)
    return finishReply(
      context,
      finishOutcomeFromArguments(step.actionInput),
      args,
      step.thought,
      meta,
    );
  const resolved = resolveToolBenchAction(step.action, context.functionNames, { mode: 'tolerant' });
  if (resolved === undefined)
    return assistant(
      step.thought,
      meta,
      errorCall(context, INVALID_FUNCTION_NAME, args, noSuchFunction(context, step.action)),
    );
  if (resolved.ambiguous && resolved.match === 'suffix')
    context.warn?.(
      'TOOLBENCH_AMBIGUOUS_ACTION',
      `Action "${step.action}" ends ${resolved.candidates.length} function names; calling the first, "${resolved.name}"`,
      { action: step.action, candidates: resolved.candidates },
    );
  return assistant(
    step.thought,
    Object.assign({}, meta, { match: { kind: resolved.match, candidates: resolved.candidates } }),
    { id: context.generateId(), name: resolved.name, arguments: args },
  );
}

function tolerantReply(text: string, context: ReActReplyContext): ReActReply {
  let step: ReActStep;
  try {
    step = parseReActTolerant(text);
  } catch (error) {
    if (!ToolBenchError.isInstance(error) || error.code !== 'REACT_PARSE_ERROR') throw error;
    // A REACT_PARSE_ERROR always carries its reason (ToolBenchError.reactParse requires one).
    const reason = error.reason as ReActParseFailure;
    const action = typeof error.details.action === 'string' ? error.details.action : '';
    const inputLine = findMarkerLine(text, ACTION_INPUT_MARKER, 0);
    const rawInput = inputLine === undefined ? '' : text.slice(inputLine.after).trim();
    const meta: ReActMessageMetadata = {
      raw: text,
      mode: 'tolerant',
      thought: '',
      action,
      actionInput: rawInput,
      parseError: error.message,
    };
    // A Finish whose arguments defeat every repair still gets the reference's substring reading.
    if (action === FINISH_FUNCTION_NAME && reason === 'invalid-action-input')
      return finishReply(context, finishOutcomeReference(rawInput), rawInput, '', meta);
    context.warn?.('REACT_PARSE_ERROR', error.message, { reason });
    const message = errorResponse(context, `${describeParseError(reason)} ${FORMAT_HINT}`);
    return assistant('', meta, errorCall(context, action || INVALID_FUNCTION_NAME, '{}', message));
  }
  return tolerantStepReply(text, step, context);
}

/** Turns one ToolLLaMA reply into the assistant message the engine stores and acts on. */
export function replyFromReActText(text: string, context: ReActReplyContext): ReActReply {
  return context.mode === 'reference'
    ? referenceReply(text, context)
    : tolerantReply(text, context);
}
