import { chatWorkflow, defineTool, type LLMClient, SkeinEngine } from '@skein/core';
import { jsonObject, serveLocal, threadEventStream } from '@skein/http';
import { SqliteCheckpointStore } from '@skein/store-sqlite';

/** What a message or an approval posts: `{ content, clear? }` or `{ approvals }`. */
type Posted = {
  readonly content: string;
  readonly clear?: boolean;
  readonly approvals: Record<string, boolean | { approved: boolean; reason?: string }>;
};

/**
 * A chat service: `POST /threads/:id/messages` continues the thread with a message (`clear` for
 * a new topic), `POST /threads/:id/approvals` answers the tool calls it waits for, exactly once.
 * Both answer with the turn's tokens and tool activity as Server-Sent Events. Threads are kept in
 * SQLite: after a restart the same thread goes on, and an interrupted turn is recovered.
 */
export async function startChatService(options: ChatOptions & { port?: number }) {
  const { engine, store } = await createChatEngine(options);
  const server = await serveLocal(
    async (req, res) => {
      const [threads, id, action] = req.path;
      if (req.method !== 'POST' || threads !== 'threads' || !id) return;
      const body = jsonObject(await req.json()) as Posted;
      const out = threadEventStream(res);
      if (action === 'messages') {
        const { onEvent } = out;
        out.end((await engine.send(id, body.content, { clear: body.clear, onEvent })).result);
      } else if (action === 'approvals') {
        const thread = await engine.loadThread(id);
        const input = { approvals: body.approvals };
        out.end(await (await engine.claimResume(thread, input, { onEvent: out.onEvent })).result);
      }
    },
    { port: options.port },
  );
  return { url: server.url, close: () => server.close().then(() => store.close()) };
}

/** The model, the SQLite file, and what booking a flight does (default: a confirmation). */
export type ChatOptions = { llm: LLMClient; filename: string; book?: (to: string) => string };

/** The chat's engine on its SQLite file: two tools (one needs approval) and the chat workflow. */
export async function createChatEngine(options: ChatOptions) {
  const store = new SqliteCheckpointStore({ filename: options.filename });
  const engine = new SkeinEngine({ llm: options.llm, store, owner: 'chat-service' });
  engine.registerTools([
    defineTool({
      name: 'weather',
      description: 'Current weather in a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      execute: ({ city }) => `Sunny and 21°C in ${city}`,
    }),
    defineTool({
      name: 'book_flight',
      description: 'Books a flight; a person approves it first',
      parameters: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] },
      needsApproval: () => true,
      execute: ({ to }) => options.book?.(to) ?? `Booked a flight to ${to}`,
    }),
  ]);
  const tools = ['weather', 'book_flight'];
  engine.registerWorkflow(chatWorkflow({ systemPrompt: 'Be brief.', initialTools: tools }));
  await engine.recover();

  return { engine, store };
}
