import type { AgentCard } from '@a2a-js/sdk';

/**
 * What the model reads about the agent: the card's description, then one line per skill (name,
 * description, up to three examples), then how to answer an agent that asks a question.
 */
export function toolDescription(card: AgentCard): string {
  const lines = [card.description?.trim() || `The remote A2A agent "${card.name}".`];
  const skills = card.skills ?? [];
  if (skills.length > 0) {
    lines.push('', 'Skills:');
    for (const skill of skills) {
      const about = skill.description?.trim();
      const examples = (skill.examples ?? []).slice(0, 3).map((e) => `"${e}"`);
      lines.push(
        `- ${skill.name || skill.id}${about ? `: ${about}` : ''}${examples.length ? ` (e.g. ${examples.join(', ')})` : ''}`,
      );
    }
  }
  lines.push(
    '',
    'Send the request as `message`. When the agent asks for more input, call again with your answer and the `taskId` and `contextId` it gave.',
  );
  return lines.join('\n');
}
