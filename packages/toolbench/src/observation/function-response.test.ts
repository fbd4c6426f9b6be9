import { describe, expect, it } from 'vitest';
import { type AnswerFile, FIXTURES, readFixture } from '../testing/fixtures.js';
import { formatFunctionResponse, truncateObservation } from './function-response.js';

describe('formatFunctionResponse', () => {
  it('writes the bare JSON string with Python separators, non-ASCII as it is (ensure_ascii=False)', () => {
    // python3 -c 'import json; print(json.dumps({"error": "", "response": "{\'id\': \'ACT\', \'name\': \'ACT - Agence Calédonienne\'}"}, ensure_ascii=False))'
    expect(
      formatFunctionResponse({
        error: '',
        response: "{'id': 'ACT', 'name': 'ACT - Agence Calédonienne'}",
      }),
    ).toBe(`{"error": "", "response": "{'id': 'ACT', 'name': 'ACT - Agence Calédonienne'}"}`);
    // Quotes, backslashes and control characters are still escaped; DEL is not (Python's rule).
    expect(formatFunctionResponse({ error: 'é"\\', response: '北京\n\t\x01\x7f😀' })).toBe(
      '{"error": "é\\"\\\\", "response": "北京\\n\\t\\u0001\x7f😀"}',
    );
    expect(formatFunctionResponse({ error: 'Timeout error...', response: '' })).toBe(
      '{"error": "Timeout error...", "response": ""}',
    );
    expect(formatFunctionResponse({ error: '', response: [{ a: 1 }, { b: [true, null] }] })).toBe(
      '{"error": "", "response": [{"a": 1}, {"b": [true, null]}]}',
    );
  });

  it('escapes non-ASCII as \\uXXXX with ensureAscii, as the recorded runs do', () => {
    expect(
      formatFunctionResponse(
        { error: '', response: "{'name': 'ACT - Agence Calédonienne', 'city': '北京😀'}" },
        { ensureAscii: true },
      ),
    ).toBe(
      `{"error": "", "response": "{'name': 'ACT - Agence Cal\\u00e9donienne', 'city': '\\u5317\\u4eac\\ud83d\\ude00'}"}`,
    );
  });

  it('cuts a Chinese observation at 1024 characters of the unescaped text', () => {
    const response = '天气'.repeat(600);
    // python3 -c 'import json; o = json.dumps({"error": "", "response": "天气" * 600}, ensure_ascii=False); print(len(o[:1024] + "..."))'
    // 1027; the prefix is the 27 characters before the string, then 997 characters of it.
    const cut = formatFunctionResponse({ error: '', response }, { maxLength: 1024 });
    expect(cut).toBe(`{"error": "", "response": "${'天气'.repeat(498)}天...`);
    expect(cut).toHaveLength(1027);
    // Escaped, the same cut keeps only 166 characters of the text (6 per escape), and ends
    // inside an escape: python3 -c '… json.dumps(…)[:1024][-8:]' gives 29\u6c14\ .
    const escaped = formatFunctionResponse(
      { error: '', response },
      { maxLength: 1024, ensureAscii: true },
    );
    expect(escaped).toHaveLength(1027);
    expect(escaped.endsWith('\\u5929\\u6c14\\...')).toBe(true);
  });

  it('counts characters as Python does: an emoji is one', () => {
    // python3 -c 'import json; o = json.dumps({"error": "", "response": "😀" * 2000}, ensure_ascii=False); print(o[:1024] == o[:27] + "😀" * 997)'
    // True
    const cut = formatFunctionResponse(
      { error: '', response: '😀'.repeat(2000) },
      { maxLength: 1024 },
    );
    expect(cut).toBe(`{"error": "", "response": "${'😀'.repeat(997)}...`);
    expect(truncateObservation('😀'.repeat(4), 4)).toBe('😀'.repeat(4));
    expect(truncateObservation('😀'.repeat(5), 4)).toBe(`${'😀'.repeat(4)}...`);
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
      { maxLength: 1024, ensureAscii: true },
    );
    expect(rebuilt.slice(0, prefix.length + k)).toBe(truncated.slice(0, prefix.length + k));
    expect(rebuilt).toHaveLength(1027);
    expect(rebuilt.endsWith('...')).toBe(true);
  });
});
