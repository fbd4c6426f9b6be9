import { DefaultChatTransport, readUIMessageStream, type UIMessage } from 'ai';

/** The tests' user message. */
export const hello: UIMessage = {
  id: 'u1',
  role: 'user',
  parts: [{ type: 'text', text: 'hello' }],
};

/**
 * Sends `hello` to the chat `chatId` at `api` as `useChat` in a browser would (the ai package's
 * own transport, with the headers that sign the user in) and reads the streamed answer whole.
 */
export async function askAs(
  api: string,
  headers: Record<string, string>,
  chatId: string,
): Promise<UIMessage | undefined> {
  const transport = new DefaultChatTransport<UIMessage>({ api, headers });
  const stream = await transport.sendMessages({
    chatId,
    messages: [hello],
    trigger: 'submit-message',
    messageId: undefined,
    abortSignal: undefined,
  });
  let answer: UIMessage | undefined;
  for await (answer of readUIMessageStream({ stream }));
  return answer;
}
