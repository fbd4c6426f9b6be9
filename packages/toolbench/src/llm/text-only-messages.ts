import { contentText, type LLMMessage } from '@skein/spec';
import { ToolBenchError } from '../errors/toolbench-error.js';

/**
 * `messages` with each content as its text, or a `ToolBenchError` naming the first media part
 * (`messages[3].content[1]`, its type): a ToolLLaMA prompt is text, and dropping an image the
 * user sent would answer a question the user did not ask. Thrown before any request is made.
 */
export function textOnlyMessages(messages: readonly LLMMessage[]): LLMMessage<string>[] {
  return messages.map((message, i) => {
    const { content } = message;
    if (typeof content === 'string') return message as LLMMessage<string>;
    const at = content.findIndex((part) => part.type !== 'text');
    if (at >= 0) throw ToolBenchError.mediaPart(`messages[${i}].content[${at}]`, content[at]!.type);
    return { ...message, content: contentText(content) };
  });
}
