import { contentProblem, findNonJsonValue, type ToolCall } from '@skein/spec';
import {
  TOOL_RESULT_NOT_JSON,
  type ToolRunResult,
  toolErrorContent,
} from '../tools/tool-runner.js';

/**
 * The result as it can be stored: unchanged, or — when its data holds what JSON cannot carry (a
 * BigInt, NaN, a Date, a cycle), which a store would refuse at the next checkpoint — or its
 * parts break a content rule (`checkContent`), an error result telling the model the result
 * could not be stored, and where. `reason` is set then.
 */
export function storableToolResult(
  call: ToolCall,
  result: ToolRunResult,
): { result: ToolRunResult; reason?: string } {
  const { content, metadata } = result.message;
  const part = typeof content === 'string' ? undefined : contentProblem(content, 'result.content');
  const found = part
    ? { path: part.path, reason: `refused: ${part.problem}` }
    : typeof content === 'string' || Array.isArray(content)
      ? findNonJsonValue(metadata ?? {}, 'result')
      : { path: 'content', reason: `${typeof content}, not text` };
  if (!found) return { result };
  const reason = `the result of "${call.name}" could not be stored: ${found.path.replace(/^result\./, '')} is ${found.reason}`;
  return {
    reason,
    result: {
      isError: true,
      errorCode: TOOL_RESULT_NOT_JSON,
      message: {
        role: 'tool',
        content: toolErrorContent(TOOL_RESULT_NOT_JSON, reason),
        toolCallId: result.message.toolCallId ?? call.id,
        name: call.name,
        metadata: { isError: true, errorCode: TOOL_RESULT_NOT_JSON },
      },
    },
  };
}
