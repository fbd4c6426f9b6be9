import { UNNAMED_TOOL_PLACEHOLDER } from '../client/message-metadata.js';
import type { MessageExtras } from './transcript-types.js';

type Record_ = Record<string, unknown>;

function functionName(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const fn = (value as Record_).function;
  if (typeof fn !== 'object' || fn === null) return undefined;
  const name = (fn as Record_).name;
  return typeof name === 'string' ? name : undefined;
}

/**
 * Which name form an exported transcript uses: `encoded` when every tool name in it is a key of
 * its mapping, else `original`. Names alone cannot tell: a tool literally named like another
 * tool's encoding (`a_b_e32b6`, after `a.b` was sent so) is a key, mapped to `a.b`. But an
 * original-form transcript that holds such a name also holds the tool it was taken from, whose
 * name does not fit the rule and so is never a key. Reads loosely; shapes are checked later.
 */
export function transcriptNameForm(
  root: Record_,
  mapping: Record_,
  extras: Readonly<Record<string, MessageExtras>>,
): 'encoded' | 'original' {
  const names: string[] = [];
  for (const tool of Array.isArray(root.tools) ? root.tools : []) {
    const name = functionName(tool);
    if (name !== undefined) names.push(name);
  }
  const messages = Array.isArray(root.messages) ? root.messages : [];
  messages.forEach((message: unknown, i) => {
    const extra = extras[String(i)];
    // A tool message named '' is written with the placeholder, which no mapping lists.
    if (typeof extra?.name === 'string' && extra.name !== UNNAMED_TOOL_PLACEHOLDER) {
      names.push(extra.name);
    }
    const calls = (message as Record_ | null)?.tool_calls;
    if (!Array.isArray(calls)) return;
    calls.forEach((call: unknown, position) => {
      const name = functionName(call);
      if (name !== undefined && extra?.tool_calls?.[String(position)]?.unnamed !== true) {
        names.push(name);
      }
    });
  });
  return names.every((name) => Object.hasOwn(mapping, name)) ? 'encoded' : 'original';
}
