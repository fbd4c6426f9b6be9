// A separate process writing one thread, driven line by line on stdin so that several of them
// save at the same moment:
//   node --import tsx race-child.ts <connectionString> <schema> <threadId> <writer>
// `load`      reads the thread's latest checkpoint, answers `loaded <sequence>`
// `save <r>`  saves a checkpoint continuing what was loaded, with two messages naming writer and
//             round; answers `won <checkpointId>` or `conflict <code>`
// `exit`      closes the store and exits.
import { createInterface } from 'node:readline';
import { SkeinError } from '@skein/spec';
import { PostgresCheckpointStore } from '../postgres-checkpoint-store.js';
import { makeCheckpoint } from './make-checkpoint.js';

const [connectionString, schema, threadId, writer] = process.argv.slice(2);
if (!connectionString || !schema || !threadId || !writer) {
  process.stderr.write('usage: race-child.ts <connectionString> <schema> <threadId> <writer>\n');
  process.exit(2);
}
const store = new PostgresCheckpointStore({ connectionString, schema });
let head: { id: string; sequence: number; messageCount: number } | undefined;

async function handle(command: string, arg: string | undefined): Promise<string> {
  if (command === 'load') {
    const loaded = await store.load(threadId!);
    head = loaded && {
      id: loaded.checkpoint.id,
      sequence: loaded.checkpoint.sequence,
      messageCount: loaded.conversation.messages.length,
    };
    return `loaded ${head?.sequence ?? 0}`;
  }
  if (command === 'save') {
    const sequence = (head?.sequence ?? 0) + 1;
    const id = `${writer}:${arg}`;
    const checkpoint = makeCheckpoint(
      threadId!,
      sequence,
      { messages: head?.messageCount ?? 0, log: 0 },
      [
        { role: 'user', content: `${writer} asks in round ${arg}` },
        { role: 'assistant', content: `${writer} answers in round ${arg}` },
      ],
      { variables: { writer, round: Number(arg) } },
      { id, ...(head ? { parentId: head.id } : {}) },
    );
    try {
      await store.save(checkpoint);
      return `won ${id}`;
    } catch (error) {
      if (SkeinError.isInstance(error)) return `conflict ${error.code}`;
      throw error;
    }
  }
  throw new Error(`unknown command ${command}`);
}

const lines = createInterface({ input: process.stdin });
process.stdout.write('ready\n');
for await (const line of lines) {
  const [command, arg] = line.split(' ');
  if (command === 'exit') break;
  process.stdout.write(`${await handle(command!, arg)}\n`);
}
await store.close();
process.exit(0);
