import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { restoreTranscript } from '@skein/openai';
import { SqliteCheckpointStore } from '@skein/store-sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { embeddedEnv, finish, run, start } from './test-support/cli-process.js';
import { POLICY_TOOL_NAME } from './tools.js';

const work = mkdtempSync(join(tmpdir(), 'skein-example-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function paths(name: string) {
  return { db: join(work, `${name}.db`), out: join(work, `out-${name}`) };
}

interface Transcript {
  messages: {
    role: string;
    tool_calls?: { id: string; function: { name: string } }[];
    tool_call_id?: string;
  }[];
  tools: { function: { name: string } }[];
  tool_name_mapping: Record<string, string>;
}

function checkTranscript(file: string) {
  const transcript = JSON.parse(readFileSync(file, 'utf8')) as Transcript;
  const names = [
    ...transcript.tools.map((t) => t.function.name),
    ...transcript.messages.flatMap((m) => (m.tool_calls ?? []).map((c) => c.function.name)),
  ];
  for (const name of names) {
    expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(transcript.tool_name_mapping[name]).toBeDefined();
  }
  expect(Object.values(transcript.tool_name_mapping)).toContain(POLICY_TOOL_NAME);
  const encodedPolicy = Object.entries(transcript.tool_name_mapping).find(
    ([, original]) => original === POLICY_TOOL_NAME,
  )![0];
  expect(names).toContain(encodedPolicy);
  for (const message of transcript.messages) {
    for (const call of message.tool_calls ?? []) expect(call.id).toMatch(/^\S+$/);
    if (message.role === 'tool') expect(message.tool_call_id).toMatch(/^\S+$/);
  }
  const restored = restoreTranscript(transcript as never);
  expect(restored.tools.map((t) => t.name)).toContain(POLICY_TOOL_NAME);
  return transcript;
}

describe('skein-example', () => {
  it('runs the whole workflow with the embedded model and writes the transcript and the diagram', async () => {
    const { db, out } = paths('full');
    const result = await run([
      '--db',
      db,
      '--out',
      out,
      '--answer',
      'yes',
      '--thread-id',
      'full-run',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('COMPLETED');
    expect(result.stdout).toContain('confirmed for Ada');
    expect(result.stdout).toContain('dynamic tool added: currency_convert');
    expect(result.stdout).toMatch(/Quote for Ada: 799\.20 USD \(740 EUR\)/);
    const transcript = checkTranscript(join(out, 'full-run', 'transcript.json'));
    // Phase two still saw the tool description after the clear (the embedded model checks).
    expect(JSON.stringify(transcript)).not.toContain('cannot see a description');
    const diagram = readFileSync(join(out, 'full-run', 'workflow.mmd'), 'utf8');
    expect(diagram.startsWith('flowchart TD\n')).toBe(true);
    expect(diagram).toContain('n_reset[/"Clear the conversation (CONTEXT_PROCESSOR)"/]');
    const list = await run(['--db', db, '--list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/full-run\s+COMPLETED\s+10/);
  });

  it('survives being killed mid-run: --resume finishes the thread from its checkpoints', async () => {
    const { db, out } = paths('killed');
    const child = start([
      '--db',
      db,
      '--out',
      out,
      '--answer',
      'yes',
      '--thread-id',
      'killed-run',
      '--slow',
      '40',
    ]);
    const killed = await finish(child, (stdout) => {
      // Kill it while phase two is streaming, after phase one's checkpoints are on disk.
      if (stdout.includes('→ currency_convert') && !child.killed) child.kill('SIGKILL');
    });
    expect(killed.signal).toBe('SIGKILL');
    expect(killed.stdout).not.toContain('Summary');

    const store = new SqliteCheckpointStore({ filename: db });
    const before = (await store.load('killed-run'))!;
    await store.close();
    expect(before.state.status).toBe('RUNNING');
    expect(before.conversation.messages.length).toBeGreaterThan(5);

    const resumed = await run([
      '--db',
      db,
      '--out',
      out,
      '--resume',
      'killed-run',
      '--answer',
      'yes',
    ]);
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('resuming at quote');
    expect(resumed.stdout).toContain('confirmed for Ada');
    const reopened = new SqliteCheckpointStore({ filename: db });
    const after = (await reopened.load('killed-run'))!;
    await reopened.close();
    expect(after.state.status).toBe('COMPLETED');
    // Every message stored before the kill is still there, in place.
    expect(after.conversation.messages.slice(0, before.conversation.messages.length)).toEqual(
      before.conversation.messages,
    );
    checkTranscript(join(out, 'killed-run', 'transcript.json'));
  });

  it('pauses without an answer when not in a terminal, and resumes with one', async () => {
    const { db, out } = paths('paused');
    const first = await run([
      '--db',
      db,
      '--out',
      out,
      '--thread-id',
      'ask-later',
      '--tier',
      'standard',
    ]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Resume with: skein-example --resume ask-later --answer yes');
    expect(first.stdout).not.toContain('Gold perks');
    const second = await run(['--db', db, '--out', out, '--resume', 'ask-later', '--answer', 'no']);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('not booked');
  });

  it('runs a StableToolBench query through @skein/toolbench', async () => {
    const out = join(work, 'out-toolbench');
    const result = await run(['--toolbench', '--out', out]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('The Belém Tower is closed on Mondays');
    const answer = JSON.parse(readFileSync(join(out, 'toolbench-answer.json'), 'utf8'));
    expect(answer['skein-demo-1'].answer.final_answer).toContain('"return_type": "give_answer"');
  });

  it('bad input gives one clear line and a non-zero exit, never a stack trace', async () => {
    const cases: [string[], NodeJS.ProcessEnv | undefined, number, RegExp][] = [
      [['--bogus'], undefined, 2, /unknown option '--bogus'/],
      [['--resume'], undefined, 2, /argument missing/],
      [
        ['--db', join(work, 'none.db'), '--resume', 'nope'],
        undefined,
        1,
        /No stored thread with id "nope"/,
      ],
      [
        ['--db', join(work, 'unreachable.db'), '--out', join(work, 'o')],
        embeddedEnv({ OPENAI_BASE_URL: 'http://127.0.0.1:1/v1', OPENAI_API_KEY: 'x' }),
        1,
        /Connection error|connection failed/i,
      ],
      [['--tier', 'platinum'], undefined, 2, /Allowed choices are standard, gold/],
      [['--out', ''], undefined, 2, /argument '' is invalid\. A path must not be empty/],
      [['--slow', '1e10'], undefined, 2, /from 0 to 60000/],
      [['--db', '', '--list'], undefined, 2, /argument '' is invalid\. A path must not be empty/],
    ];
    for (const [args, env, code, message] of cases) {
      const result = await run(args, env);
      expect(result.code, args.join(' ')).toBe(code);
      const lines = result.stderr.trim().split('\n');
      expect(lines, args.join(' ')).toHaveLength(1);
      expect(lines[0], args.join(' ')).toMatch(message);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
    expect(existsSync(join(work, 'none.db'))).toBe(false);
  });
});
