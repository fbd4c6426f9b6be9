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

function checkBranchTranscript(file: string): string {
  const transcript = JSON.parse(readFileSync(file, 'utf8')) as Transcript;
  const roles = transcript.messages.map((m) => m.role);
  expect(roles).toContain('tool');
  expect(roles.at(-1)).toBe('assistant');
  return JSON.stringify(transcript);
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
    expect(list.stdout).toMatch(/full-run\s+COMPLETED\s+13/);
    expect(list.stdout).toMatch(/\n {2}full-run\/compare@1\[0\]\s+COMPLETED/);
  });

  it('compares the cities in parallel branches, joins them in order, and writes the itinerary in a subworkflow', async () => {
    const { db, out } = paths('branches');
    const result = await run(['--db', db, '--out', out, '--answer', 'yes', '--thread-id', 'trip']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    const at = (pattern: RegExp) => lines.findIndex((l) => pattern.test(l));
    // A line when each branch starts, in branch order, and when it finishes.
    const started = ['Lisbon', 'Kyoto', 'Reykjavik'].map((city, i) =>
      at(new RegExp(`┌ compare\\[${i}\\] ${city} started`)),
    );
    expect(started.every((i) => i > 0)).toBe(true);
    expect([...started].sort((a, b) => a - b)).toEqual(started);
    for (const [i, city] of ['Lisbon', 'Kyoto', 'Reykjavik'].entries())
      expect(result.stdout).toMatch(new RegExp(`└ compare\\[${i}\\] ${city} COMPLETED`));
    // The branches' own events are prefixed with their branch.
    expect(result.stdout).toMatch(
      /│ compare\[1\] Kyoto → lookup_destination\(\{"query":"Kyoto"\}\)/,
    );
    // The JOIN's result: the verdicts in city order, whatever order the branches finished in.
    const joined = at(/joined 3 branches, in branch order/);
    expect(joined).toBeGreaterThan(Math.max(...started));
    expect(lines.slice(joined + 1, joined + 4).map((l) => l.trim().slice(0, 13))).toEqual([
      '1. Lisbon: 74',
      '2. Kyoto: 220',
      '3. Reykjavik:',
    ]);
    // Phase one read the comparison the JOIN merged into the conversation.
    expect(result.stdout).toContain('Best value of the 3 compared: Lisbon (740 EUR)');
    // The itinerary comes from the subworkflow's child thread.
    expect(result.stdout).toMatch(
      /┌ itinerary started \(itinerary-writer, thread trip\/itinerary@\d+\)/,
    );
    expect(result.stdout).toMatch(/│ itinerary → lookup_destination\(\{"query":"Lisbon"\}\)/);
    expect(result.stdout).toContain('Itinerary (written by the itinerary-writer subworkflow)');
    const itinerary = readFileSync(join(out, 'trip', 'itinerary.md'), 'utf8');
    expect(itinerary).toMatch(/^Itinerary for Ada in Lisbon \(20 °C average high, 7 rainy days\):/);
    expect(itinerary).toContain('Day 3: day trip to Sintra.');

    // The thread and its branch threads are in the SQLite store, linked to it.
    const store = new SqliteCheckpointStore({ filename: db });
    try {
      const ids = (await store.listThreads()).map((t) => t.threadId).sort();
      const sub = ids.find((id) => id.startsWith('trip/itinerary@'))!;
      expect(ids).toEqual([
        'trip',
        'trip/compare@1[0]',
        'trip/compare@1[1]',
        'trip/compare@1[2]',
        sub,
      ]);
      for (const [i, city] of ['Lisbon', 'Kyoto', 'Reykjavik'].entries()) {
        const branch = (await store.load(`trip/compare@1[${i}]`))!;
        expect(branch.state.status).toBe('COMPLETED');
        expect(branch.state.parent).toMatchObject({
          threadId: 'trip',
          branchPath: `compare[${i}]`,
        });
        expect(branch.state.variables.city).toBe(city);
      }
      const child = (await store.load(sub))!;
      expect(child.state.parent).toMatchObject({ threadId: 'trip', branchPath: 'itinerary' });
      expect(child.state.output).toBe(itinerary.trimEnd());
      const parent = (await store.load('trip'))!;
      expect(parent.state.variables.itinerary).toBe(itinerary.trimEnd());
      expect(parent.state.variables.comparison).toHaveLength(3);
    } finally {
      await store.close();
    }
    // Every branch's exchange is exported beside the thread's transcript.
    const branch = checkBranchTranscript(join(out, 'trip', 'branches', 'compare[2].json'));
    expect(branch).toContain('weather_forecast');
  });

  it('calls the MCP weather tool through a child process, and stops that process on exit', async () => {
    const { db, out } = paths('mcp');
    const result = await run(['--db', db, '--out', out, '--answer', 'no']);
    expect(result.code).toBe(0);
    const pid = Number(/running as child process pid (\d+)/.exec(result.stdout)?.[1]);
    expect(pid).toBeGreaterThan(0);
    expect(pid).not.toBe(process.pid);
    // Only the server knows these numbers: the answer went through the child process.
    expect(result.stdout).toMatch(
      /→ weather_forecast \[mcp:weather\]\(\{"city":"Reykjavik","month":"April"\}\)/,
    );
    expect(result.stdout).toContain('← weather_forecast: Reykjavik in April: 6 °C average high');
    expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
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
