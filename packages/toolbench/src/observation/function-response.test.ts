import { describe, expect, it } from 'vitest';
import { type AnswerFile, FIXTURES, readFixture } from '../testing/fixtures.js';
import { formatFunctionResponse, truncateObservation } from './function-response.js';

describe('formatFunctionResponse', () => {
  it('writes the bare JSON string with Python separators and escaping', () => {
    expect(
      formatFunctionResponse({
        error: '',
        response: "{'id': 'ACT', 'name': 'ACT - Agence Calédonienne'}",
      }),
    ).toBe(`{"error": "", "response": "{'id': 'ACT', 'name': 'ACT - Agence Cal\\u00e9donienne'}"}`);
    expect(formatFunctionResponse({ error: 'Timeout error...', response: '' })).toBe(
      '{"error": "Timeout error...", "response": ""}',
    );
    expect(formatFunctionResponse({ error: '', response: [{ a: 1 }, { b: [true, null] }] })).toBe(
      '{"error": "", "response": [{"a": 1}, {"b": [true, null]}]}',
    );
  });

  it('cuts to maxLength and appends ... only when longer', () => {
    const text = formatFunctionResponse({ error: '', response: 'x'.repeat(50) }, { maxLength: 20 });
    expect(text).toBe('{"error": "", "respo...');
    expect(formatFunctionResponse({ error: '', response: 'x' }, { maxLength: 100 })).toBe(
      '{"error": "", "response": "x"}',
    );
    expect(truncateObservation('abcd', 4)).toBe('abcd');
  });

  it('reproduces the truncated observation recorded in the ToolBench trajectory', () => {
    const messages = readFixture<AnswerFile>(FIXTURES.tb10).answer_generation.train_messages.at(
      -1,
    )!;
    const truncated =
      messages.find((m) => m.role === 'function' && m.content?.endsWith('...'))?.content ?? '';
    expect(truncated).toHaveLength(1024 + 3);
    // It is json.dumps of {"error", "response"} cut at 1024: decode the longest readable prefix of
    // its response string, write it again with a longer tail, and compare what both share.
    const prefix = '{"error": "", "response": "';
    const body = truncated.slice(prefix.length, 1024);
    let k = body.length;
    let decoded: string | undefined;
    while (decoded === undefined && k > 0) {
      try {
        decoded = JSON.parse(`"${body.slice(0, k)}"`) as string;
      } catch {
        k--;
      }
    }
    expect(k).toBeGreaterThan(900);
    const rebuilt = formatFunctionResponse(
      { error: '', response: `${decoded}${'z'.repeat(2000)}` },
      { maxLength: 1024 },
    );
    expect(rebuilt.slice(0, prefix.length + k)).toBe(truncated.slice(0, prefix.length + k));
    expect(rebuilt).toHaveLength(1027);
    expect(rebuilt.endsWith('...')).toBe(true);
  });
});
