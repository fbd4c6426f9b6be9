import { InvalidArgumentError, OPENAI_TOOL_NAME_RULE, ToolNameCodec } from '@skein/spec';

/** The tools every server offers besides its workflows. */
export const RESUME_TOOL = 'resume_thread';
export const GET_THREAD_TOOL = 'get_thread';
const CONTROL_TOOLS: readonly string[] = [RESUME_TOOL, GET_THREAD_TOOL];

/**
 * Tool name <-> workflow id. MCP allows longer names with dots, but clients hand the tools on to
 * models, and the strictest common provider rule is `^[a-zA-Z0-9_-]{1,64}$`: a workflow id that
 * fits is its own tool name; any other is encoded by the reversible codec (a readable prefix and
 * a short hash). Encodings depend only on the set of ids, so a restarted server names the same
 * workflows the same way.
 */
export class ToolNames {
  readonly #codec = new ToolNameCodec(OPENAI_TOOL_NAME_RULE);
  readonly #names: ReadonlyMap<string, string>;

  constructor(workflowIds: readonly string[]) {
    const encoded = this.#codec.encodeMany(workflowIds);
    const names = new Map<string, string>();
    for (const [i, id] of workflowIds.entries()) {
      const name = encoded[i]!;
      if (CONTROL_TOOLS.includes(name))
        throw new InvalidArgumentError(
          'workflows',
          `Workflow "${id}" would be offered as "${name}", the name of this server's own tool; register it under another id`,
        );
      names.set(id, name);
    }
    this.#names = names;
  }

  /** The tool name of a workflow this server offers. */
  nameOf(workflowId: string): string {
    return this.#names.get(workflowId)!;
  }

  /** The workflow id behind a tool name, or undefined when no offered workflow has this name. */
  workflowOf(toolName: string): string | undefined {
    const id = this.#codec.tryDecode(toolName);
    return id !== undefined && this.#names.get(id) === toolName ? id : undefined;
  }
}
