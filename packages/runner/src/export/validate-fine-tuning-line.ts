import { checkUserParts, MAX_IMAGES_PER_LINE } from './validate-user-parts.js';

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkName(name: unknown, where: string, problems: string[]): void {
  if (typeof name !== 'string' || !NAME.test(name))
    problems.push(`${where}: tool name ${JSON.stringify(name)} is not 1 to 64 of [a-zA-Z0-9_-]`);
}

function checkTools(tools: unknown, problems: string[]): Set<string> {
  const names = new Set<string>();
  if (tools === undefined) return names;
  if (!Array.isArray(tools)) {
    problems.push('tools: must be an array');
    return names;
  }
  tools.forEach((tool, i) => {
    const fn = isObject(tool) ? tool.function : undefined;
    if (!isObject(tool) || tool.type !== 'function' || !isObject(fn)) {
      problems.push(`tools[${i}]: must be { type: "function", function: { name, … } }`);
      return;
    }
    checkName(fn.name, `tools[${i}]`, problems);
    if (fn.parameters !== undefined && !isObject(fn.parameters))
      problems.push(`tools[${i}].function.parameters: must be a JSON Schema object`);
    if (typeof fn.name === 'string') names.add(fn.name);
  });
  return names;
}

function checkToolCalls(
  calls: unknown,
  where: string,
  tools: Set<string>,
  open: Set<string>,
  problems: string[],
): void {
  if (!Array.isArray(calls) || calls.length === 0) {
    problems.push(`${where}.tool_calls: must be a non-empty array`);
    return;
  }
  calls.forEach((call, j) => {
    const at = `${where}.tool_calls[${j}]`;
    const fn = isObject(call) ? call.function : undefined;
    if (
      !isObject(call) ||
      typeof call.id !== 'string' ||
      call.type !== 'function' ||
      !isObject(fn)
    ) {
      problems.push(`${at}: must be { id, type: "function", function: { name, arguments } }`);
      return;
    }
    checkName(fn.name, at, problems);
    if (typeof fn.name === 'string' && !tools.has(fn.name))
      problems.push(`${at}: calls "${fn.name}", which is not in tools`);
    if (typeof fn.arguments !== 'string')
      problems.push(`${at}.function.arguments: must be a string`);
    else
      try {
        JSON.parse(fn.arguments);
      } catch {
        problems.push(`${at}.function.arguments: is not JSON`);
      }
    open.add(call.id);
  });
}

/**
 * Problems of one OpenAI chat fine-tuning line (`{ messages, tools? }`), empty when it is valid:
 * known roles, string contents (an assistant's may be null when it calls tools; a user's may be
 * `text` and `image_url` parts: http(s) or JPEG, PNG or WEBP data: URLs, at most 10 MB each and
 * 64 per line), tool calls with an id, `type: "function"`, a name and JSON arguments, each tool
 * message answering an earlier call, every called name offered in `tools`, names of at most 64
 * of `[a-zA-Z0-9_-]`, and at least one assistant message to learn from.
 */
export function validateFineTuningLine(line: unknown): string[] {
  const problems: string[] = [];
  if (!isObject(line)) return ['the line must be a JSON object'];
  for (const key of Object.keys(line))
    if (key !== 'messages' && key !== 'tools' && key !== 'parallel_tool_calls')
      problems.push(`unknown key "${key}"`);
  const tools = checkTools(line.tools, problems);
  if (!Array.isArray(line.messages) || line.messages.length === 0)
    return [...problems, 'messages: must be a non-empty array'];
  const open = new Set<string>();
  let assistants = 0;
  let images = 0;
  line.messages.forEach((message, i) => {
    const where = `messages[${i}]`;
    if (!isObject(message) || typeof message.role !== 'string' || !ROLES.has(message.role)) {
      problems.push(`${where}: role must be one of system, user, assistant, tool`);
      return;
    }
    const hasCalls = message.tool_calls !== undefined;
    if (message.role === 'user' && Array.isArray(message.content))
      images += checkUserParts(message.content, where, problems);
    const contentOk =
      typeof message.content === 'string' ||
      (message.role === 'user' && Array.isArray(message.content)) ||
      (message.role === 'assistant' &&
        hasCalls &&
        (message.content === null || message.content === undefined));
    if (!contentOk) problems.push(`${where}.content: must be a string`);
    if (message.role === 'assistant') {
      assistants++;
      if (hasCalls) checkToolCalls(message.tool_calls, where, tools, open, problems);
    } else if (hasCalls) problems.push(`${where}: only assistant messages carry tool_calls`);
    if (message.role === 'tool') {
      const id = message.tool_call_id;
      if (typeof id !== 'string' || !open.has(id))
        problems.push(`${where}.tool_call_id: answers no earlier tool call`);
    }
  });
  if (assistants === 0) problems.push('messages: no assistant message to learn from');
  if (images > MAX_IMAGES_PER_LINE)
    problems.push(`messages: ${images} images, more than ${MAX_IMAGES_PER_LINE} in one line`);
  return problems;
}
