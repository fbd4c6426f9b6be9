import { describe, expect, it } from 'vitest';
import { TOOL_NAME, toolNameFromAgentName } from './tool-name.js';

describe('toolNameFromAgentName', () => {
  it.each([
    ['Weather Agent', 'weather_agent'],
    ['Recipe Agent (beta)', 'recipe_agent_beta'],
    ['Café Crème', 'cafe_creme'],
    ['  --already_ok-name--  ', 'already_ok-name'],
    ['助手', 'a2a_agent'],
    ['', 'a2a_agent'],
  ])('%j → %j', (name, expected) => {
    expect(toolNameFromAgentName(name)).toBe(expected);
  });

  it('cuts a long name to 64 and never ends it on a separator', () => {
    const name = toolNameFromAgentName(`${'a'.repeat(63)} b c`);
    expect(name).toBe('a'.repeat(63));
    expect(toolNameFromAgentName('x'.repeat(100))).toHaveLength(64);
    expect(TOOL_NAME.test(name)).toBe(true);
  });
});
