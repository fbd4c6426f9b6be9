import { McpCallError } from '../errors/mcp-call-error.js';

/**
 * Refuses arguments over `limit` bytes of JSON before anything reads them: a workflow's variables
 * are stored with every checkpoint of its thread, and an answer becomes a stored message.
 */
export function checkArgumentSize(tool: string, args: unknown, limit: number): void {
  if (args === undefined) return;
  const size = Buffer.byteLength(JSON.stringify(args), 'utf8');
  if (size > limit) throw McpCallError.tooLarge(tool, size, limit);
}
