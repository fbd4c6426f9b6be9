function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Why `value` cannot be used as an agent card, or undefined when it can. The SDK takes any JSON
 * as a card and fails later, far from the cause (`No compatible transport found`, or a crash
 * reading `undefined`); checked here, the error names the field. Only what the call side reads
 * is checked: a name, and at least one interface with a URL and a protocol binding.
 */
export function agentCardProblem(value: unknown): string | undefined {
  if (!isRecord(value))
    return `it is ${Array.isArray(value) ? 'an array' : typeof value}, not an object`;
  if (typeof value.name !== 'string' || value.name.trim() === '')
    return '`name` must be a non-empty string';
  if (value.description !== undefined && typeof value.description !== 'string')
    return '`description` must be a string';
  const interfaces = value.supportedInterfaces;
  if (!Array.isArray(interfaces) || interfaces.length === 0)
    return '`supportedInterfaces` must list at least one interface';
  for (const [index, entry] of interfaces.entries()) {
    if (!isRecord(entry)) return `\`supportedInterfaces[${index}]\` must be an object`;
    if (typeof entry.url !== 'string' || entry.url === '')
      return `\`supportedInterfaces[${index}].url\` must be a non-empty string`;
    if (typeof entry.protocolBinding !== 'string' || entry.protocolBinding === '')
      return `\`supportedInterfaces[${index}].protocolBinding\` must be a non-empty string`;
  }
  if (value.skills !== undefined && !Array.isArray(value.skills))
    return '`skills` must be an array';
  return undefined;
}
