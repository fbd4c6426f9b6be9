import { invalidServerOption } from './errors/invalid-server-option.js';
import {
  type FieldCheck,
  isAnyObject,
  isArrayOf,
  isBoolean,
  isNonNegativeInteger,
  isNumber,
  isObject,
  isPort,
  isString,
  oneOf,
} from './field-checks.js';

const isUrl: FieldCheck = (value, path) => {
  if (!(value instanceof URL)) throw invalidServerOption(path, 'must be a URL');
};

// Not oneOf: the object's own checks name the exact field that is wrong.
const orTrue =
  (check: FieldCheck): FieldCheck =>
  (value, path) => {
    if (value !== true) check(value, path);
  };

const checkQuirks = isObject({
  nullIdOnFirstChunk: isBoolean,
  idOnLaterChunk: isBoolean,
  repeatIdAndName: isBoolean,
  noIndex: isBoolean,
  indexBase: isNonNegativeInteger,
  wholeArguments: isBoolean,
  usageOnlyFinalChunk: isBoolean,
  stopWithToolCalls: isBoolean,
  errorChunk: orTrue(
    isObject({
      afterChunks: isNonNegativeInteger,
      error: isObject(
        { message: isString, code: isString, type: isString },
        { required: ['message'] },
      ),
    }),
  ),
  failBeforeSuccess: isObject(
    { status: isNonNegativeInteger, times: isNonNegativeInteger, retryAfterMs: isNumber },
    { required: ['status', 'times'] },
  ),
  dropAfterChunks: isNonNegativeInteger,
  argumentsChunkSize: isNonNegativeInteger,
  textChunkSize: isNonNegativeInteger,
  chunkDelayMs: isNumber,
});

const isNullableString = oneOf(isString, (value, path) => {
  if (value !== null) throw invalidServerOption(path, 'must be null');
});

const checkToolCall = isObject(
  { id: isNullableString, name: isString, arguments: oneOf(isString, isAnyObject) },
  { required: ['name'] },
);

const checkScriptedTurn = isObject({
  content: isString,
  reasoning: isString,
  toolCalls: isArrayOf(checkToolCall),
  usage: isObject(
    { promptTokens: isNumber, completionTokens: isNumber, totalTokens: isNumber },
    { required: ['promptTokens', 'completionTokens'] },
  ),
  finishReason: isString,
  quirks: checkQuirks,
});

const checkFixtureTurn = isObject({ fixture: oneOf(isString, isUrl) }, { required: ['fixture'] });
const checkChunksTurn = isObject({ chunks: isArrayOf(() => {}) }, { required: ['chunks'] });

/** A scripted, fixture or raw-chunks turn, told apart by its `fixture` or `chunks` field. */
export const checkTurn: FieldCheck = (value, path) => {
  if (typeof value === 'object' && value !== null && 'fixture' in value)
    return checkFixtureTurn(value, path);
  if (typeof value === 'object' && value !== null && 'chunks' in value)
    return checkChunksTurn(value, path);
  return checkScriptedTurn(value, path);
};

const checkScript: FieldCheck = (value, path) => {
  if (typeof value === 'function') return;
  isArrayOf((step, at) => {
    if (typeof step !== 'function') checkTurn(step, at);
  })(value, path);
};

/** Refuses options that cannot work, before the server starts. */
export const checkServerOptions = isObject(
  { script: checkScript, quirks: checkQuirks, model: isString, port: isPort },
  { required: ['script'] },
);
