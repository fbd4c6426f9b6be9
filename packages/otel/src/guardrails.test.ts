import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { type Guardrail, InMemoryCheckpointStore, SkeinEngine, WorkflowBuilder } from '@skein/core';
import { contentText } from '@skein/spec';
import { ScriptedLLMClient, type ScriptedStep } from '@skein/testkit';
import { describe, expect, it } from 'vitest';
import { instrumentSkein } from './index.js';
import { startTracing } from './test-support/tracing.js';

const noSecrets: Guardrail = {
  stages: ['output'],
  check: (subject) =>
    subject.stage === 'output' && contentText(subject.message.content).includes('SECRET')
      ? { action: 'trip', reason: 'the answer holds a secret' }
      : { action: 'pass' },
};

const pii: Guardrail = {
  stages: ['tool-result'],
  check: (subject) =>
    subject.stage === 'tool-result' && contentText(subject.result.content).includes('@')
      ? { action: 'redact', content: '[redacted]' }
      : { action: 'pass' },
};

const chargeLimit: Guardrail = {
  stages: ['tool-call'],
  check: (subject) =>
    subject.stage === 'tool-call' && (subject.call.arguments as { amount: number }).amount > 800
      ? { action: 'refuse', reason: 'over 800' }
      : { action: 'pass' },
};

function guardedEngine(script: ScriptedStep[]): SkeinEngine {
  const engine = new SkeinEngine({
    llm: new ScriptedLLMClient(script),
    store: new InMemoryCheckpointStore(),
    guardrails: { noSecrets, pii, chargeLimit },
  });
  engine.registerTool({
    name: 'lookup',
    description: 'Finds a customer',
    parameters: { type: 'object', properties: {} },
    execute: () => 'Ada, ada@example.com',
  });
  engine.registerTool({
    name: 'charge',
    description: 'Charges an amount',
    parameters: { type: 'object', properties: { amount: { type: 'number' } } },
    execute: () => 'charged',
  });
  engine.registerWorkflow({
    ...new WorkflowBuilder('support', '1')
      .start('start')
      .llm('agent', { prompt: 'Help the customer.', tools: ['lookup', 'charge'] })
      .end('end')
      .chain('start', 'agent', 'end')
      .build(),
    guardrails: { output: ['noSecrets'], toolCall: ['chargeLimit'], toolResult: ['pii'] },
  });
  return engine;
}

const guardrailEvents = (span: ReadableSpan) =>
  span.events.filter((e) => e.name === 'skein.guardrail').map((e) => e.attributes);

describe('guardrails', () => {
  it('marks a tripped thread with the guardrail, its reason as the error, and the verdict on the node', async () => {
    const tracing = startTracing();
    const engine = guardedEngine([{ content: 'The SECRET is 42.' }]);
    instrumentSkein(engine, { tracer: tracing.tracer });
    const { result } = await engine.run('support');
    expect(result.status).toBe('FAILED');
    const thread = tracing.span('invoke_workflow support');
    expect(thread.attributes).toMatchObject({
      'skein.thread.status': 'FAILED',
      'skein.guardrail.tripped': 'noSecrets',
      'skein.guardrail.stage': 'output',
      'skein.guardrail.reason': 'the answer holds a secret',
      'error.type': 'GUARDRAIL_TRIPPED',
    });
    expect(thread.status.code).toBe(SpanStatusCode.ERROR);
    expect(thread.status.message).toContain('the answer holds a secret');
    const node = tracing.span('invoke_agent agent');
    expect(node.status.code).toBe(SpanStatusCode.ERROR);
    expect(node.attributes['error.type']).toBe('GUARDRAIL_TRIPPED');
    expect(guardrailEvents(node)).toEqual([
      {
        'skein.guardrail.name': 'noSecrets',
        'skein.guardrail.stage': 'output',
        'skein.guardrail.action': 'trip',
        'skein.guardrail.reason': 'the answer holds a secret',
      },
    ]);
  });

  it('records a refusal and a redaction on the node; the thread goes on and is no trip', async () => {
    const tracing = startTracing();
    const engine = guardedEngine([
      {
        toolCalls: [
          { id: 'call_lookup', name: 'lookup' },
          { id: 'call_charge', name: 'charge', arguments: { amount: 900 } },
        ],
      },
      { content: 'Done.' },
    ]);
    instrumentSkein(engine, { tracer: tracing.tracer });
    const { result } = await engine.run('support');
    expect(result.status).toBe('COMPLETED');
    const node = tracing.span('invoke_agent agent');
    expect(guardrailEvents(node)).toEqual([
      {
        'skein.guardrail.name': 'chargeLimit',
        'skein.guardrail.stage': 'tool-call',
        'skein.guardrail.action': 'refuse',
        'skein.guardrail.reason': 'over 800',
        'gen_ai.tool.call.id': 'call_charge',
        'gen_ai.tool.name': 'charge',
      },
      {
        'skein.guardrail.name': 'pii',
        'skein.guardrail.stage': 'tool-result',
        'skein.guardrail.action': 'redact',
        'gen_ai.tool.call.id': 'call_lookup',
        'gen_ai.tool.name': 'lookup',
      },
    ]);
    // The refused call never ran: an error span of no duration, as a rejected approval's.
    const refused = tracing.span('execute_tool charge');
    expect(refused.attributes['error.type']).toBe('TOOL_REFUSED');
    const thread = tracing.span('invoke_workflow support');
    expect(thread.status.code).toBe(SpanStatusCode.OK);
    expect(thread.attributes['skein.guardrail.tripped']).toBeUndefined();
  });

  it('bounds a long reason as every recorded string', async () => {
    const tracing = startTracing();
    const long: Guardrail = {
      stages: ['output'],
      check: () => ({ action: 'trip', reason: 'x'.repeat(10_000) }),
    };
    const engine = guardedEngine([{ content: 'fine' }]);
    engine.guardrails.register('noSecrets', long, { replace: true });
    instrumentSkein(engine, { tracer: tracing.tracer, maxAttributeLength: 100 });
    await engine.run('support');
    const reason = String(
      tracing.span('invoke_workflow support').attributes['skein.guardrail.reason'],
    );
    expect(reason).toMatch(/^x+…\[truncated \d+ chars\]$/);
    expect(reason.length).toBeLessThanOrEqual(100);
    const event = guardrailEvents(tracing.span('invoke_agent agent'))[0]!;
    expect(String(event['skein.guardrail.reason']).length).toBeLessThanOrEqual(100);
  });
});
