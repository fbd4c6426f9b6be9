import { MAX_JSON_DEPTH } from '@skein/spec';
import { jsonrepair } from 'jsonrepair';
import { exceedsJsonDepth } from '../json/json-text-depth.js';
import type { ToolCallState } from './tool-call-state.js';
import type { AccumulatorWarning, AssembledToolCall } from './types.js';

type Warn = (warning: AccumulatorWarning) => void;

function parseError(text: string): string | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

interface CheckedArguments {
  readonly text: string;
  readonly error?: string;
}

/**
 * Valid JSON passes untouched. Invalid JSON is repaired with jsonrepair when the repair is a JSON
 * object (a repair to a bare string or number would run the tool with nonsense); otherwise the
 * raw text is kept and the call is marked so it is answered with an error instead of being run.
 */
function checkArguments(call: ToolCallState, where: string, warn: Warn): CheckedArguments {
  const raw = call.arguments.join();
  if (call.argumentsProblem !== undefined)
    return invalid(call, raw, call.argumentsProblem, where, warn);
  if (raw.length === 0) return { text: '{}' };
  // Parsing would succeed, but every later step (repair, clone, store) recurses and would throw
  // RangeError: such arguments are as unusable as broken JSON, and are answered the same way.
  if (exceedsJsonDepth(raw, MAX_JSON_DEPTH)) {
    return invalid(call, raw, `nested deeper than ${MAX_JSON_DEPTH} levels`, where, warn);
  }
  const problem = parseError(raw);
  if (problem === undefined) return { text: raw };
  let repaired: string | undefined;
  try {
    repaired = jsonrepair(raw);
  } catch {
    repaired = undefined;
  }
  if (repaired !== undefined && isJsonObject(repaired)) {
    warn({
      code: 'TOOL_CALL_ARGUMENTS_REPAIRED',
      message: `${where}: the arguments were not valid JSON (${problem}); repaired with jsonrepair`,
      details: { id: call.id, name: call.name, original: raw, repaired },
    });
    return { text: repaired };
  }
  return invalid(call, raw, `${problem}; could not be repaired`, where, warn);
}

function invalid(
  call: ToolCallState,
  raw: string,
  problem: string,
  where: string,
  warn: Warn,
): CheckedArguments {
  const received = raw.length === 0 ? '' : ` Arguments received: ${raw}`;
  const error = `The arguments of tool call "${call.name}" are not valid JSON (${problem}), so the tool was not run.${received}`;
  warn({
    code: 'TOOL_CALL_ARGUMENTS_INVALID',
    message: `${where}: the arguments are not usable JSON (${problem}); the tool will not run`,
    details: { id: call.id, name: call.name, arguments: raw },
  });
  return { text: raw, error };
}

/**
 * Fills in what the stream left out, once, at the end: a unique id when none (or a duplicate)
 * arrived, `function` as type, `{}` for empty arguments; marks calls that cannot run.
 */
export function finalizeToolCall(
  call: ToolCallState,
  choiceIndex: number,
  usedIds: Set<string>,
  generateId: () => string,
  warn: Warn,
): AssembledToolCall {
  const where = `choice ${choiceIndex}, tool call ${call.position}`;
  let id = call.id;
  if (id === '' || usedIds.has(id)) {
    let fresh = generateId();
    while (usedIds.has(fresh)) fresh = generateId();
    warn(
      id === ''
        ? {
            code: 'TOOL_CALL_ID_GENERATED',
            message: `${where} ("${call.name}") arrived without an id; generated "${fresh}"`,
            details: { position: call.position, name: call.name, id: fresh },
          }
        : {
            code: 'TOOL_CALL_ID_DUPLICATE',
            message: `${where} ("${call.name}") reused the id "${id}" of an earlier call; generated "${fresh}"`,
            details: { position: call.position, name: call.name, duplicate: id, id: fresh },
          },
    );
    id = fresh;
  }
  usedIds.add(id);
  const type = call.type === '' ? 'function' : call.type;
  const args = checkArguments(call, where, warn);
  let error = args.error;
  if (call.name === '') {
    error = `The model called a tool without giving its name (call id ${id}), so no tool was run. Call the tool again with its name.`;
    warn({
      code: 'TOOL_CALL_NAME_MISSING',
      message: `${where} (id "${id}") arrived without a name; it will be answered with an error instead of running a tool`,
      details: { position: call.position, id },
    });
  } else if (type !== 'function') {
    error = `Tool call type "${type}" is not supported; only function tools can be run.`;
    warn({
      code: 'TOOL_CALL_TYPE_UNSUPPORTED',
      message: `${where} ("${call.name}") has type "${type}"; only "function" calls are run`,
      details: { position: call.position, id, type },
    });
  }
  return {
    id,
    type,
    name: call.name,
    arguments: args.text,
    ...(error === undefined ? {} : { error }),
    ...(call.extraContent === undefined ? {} : { extraContent: call.extraContent }),
  };
}
