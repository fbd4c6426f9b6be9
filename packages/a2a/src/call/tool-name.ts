/** What every provider accepts as a tool name (OpenAI's rule, the strictest common one). */
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * A tool name from an agent's display name: `Recipe Agent (beta)` → `recipe_agent_beta`.
 * Accents are stripped, every other run of characters outside the rule becomes one `_`, and the
 * result is cut to 64. A name with nothing usable left (`"助手"`) becomes `a2a_agent`.
 */
export function toolNameFromAgentName(agentName: string): string {
  const name = agentName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '_')
    .replace(/^[_-]+|[_-]+$/g, '')
    .slice(0, 64)
    .replace(/[_-]+$/, '');
  return name === '' ? 'a2a_agent' : name;
}
