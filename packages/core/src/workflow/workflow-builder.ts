import type {
  ContextProcessorOperation,
  EdgeDefinition,
  JoinNode,
  LLMNodeConfig,
  MapNode,
  NodeDefinition,
  ParallelNode,
  SleepNode,
  SubworkflowNode,
  ToolNodeConfig,
  TriggerDefinition,
  UserInteractionNode,
  VariableNodeConfig,
  WaitForEventNode,
  WorkflowDefinition,
} from './types.js';

interface NodeExtras {
  readonly name?: string;
  readonly description?: string;
}

/**
 * A small typed builder for workflows written in code. It only assembles the plain definition;
 * `build()` returns it and validation happens where it is registered.
 *
 * ```ts
 * const def = new WorkflowBuilder('support', '1.0.0')
 *   .initialTools(['calculator'])
 *   .start('start').llm('answer', { prompt: '{{ input }}' }).end('end')
 *   .chain('start', 'answer', 'end')
 *   .build();
 * ```
 */
export class WorkflowBuilder {
  readonly #id: string;
  readonly #version: string;
  readonly #nodes: NodeDefinition[] = [];
  readonly #edges: EdgeDefinition[] = [];
  readonly #triggers: TriggerDefinition[] = [];
  #initialTools: string[] = [];
  #variables: WorkflowDefinition['variables'];
  #meta: { name?: string; description?: string } = {};

  constructor(id: string, version = '1.0.0') {
    this.#id = id;
    this.#version = version;
  }

  describe(meta: { name?: string; description?: string }): this {
    this.#meta = meta;
    return this;
  }

  initialTools(names: readonly string[]): this {
    this.#initialTools = [...names];
    return this;
  }

  variables(variables: NonNullable<WorkflowDefinition['variables']>): this {
    this.#variables = variables;
    return this;
  }

  start(id = 'start', extras: NodeExtras = {}): this {
    return this.node({ id, type: 'START', ...extras });
  }

  end(id = 'end', config: { output?: string } = {}, extras: NodeExtras = {}): this {
    return this.node({ id, type: 'END', config, ...extras });
  }

  llm(id: string, config: LLMNodeConfig = {}, extras: NodeExtras = {}): this {
    return this.node({ id, type: 'LLM', config, ...extras });
  }

  tool(id: string, config: ToolNodeConfig, extras: NodeExtras = {}): this {
    return this.node({ id, type: 'TOOL', config, ...extras });
  }

  route(id: string, extras: NodeExtras = {}): this {
    return this.node({ id, type: 'ROUTE', ...extras });
  }

  contextProcessor(
    id: string,
    operations: readonly ContextProcessorOperation[],
    extras: NodeExtras = {},
  ): this {
    return this.node({ id, type: 'CONTEXT_PROCESSOR', config: { operations }, ...extras });
  }

  variable(id: string, config: VariableNodeConfig, extras: NodeExtras = {}): this {
    return this.node({ id, type: 'VARIABLE', config, ...extras });
  }

  userInteraction(
    id: string,
    config: NonNullable<UserInteractionNode['config']> = {},
    extras: NodeExtras = {},
  ): this {
    return this.node({ id, type: 'USER_INTERACTION', config, ...extras });
  }

  /** Waits `{ duration }` ms or `{ until }` an ISO time; the thread is WAITING meanwhile. */
  sleep(id: string, config: SleepNode['config'], extras: NodeExtras = {}): this {
    return this.node({ id, type: 'SLEEP', config, ...extras });
  }

  /** Waits for `engine.signal(config.event, payload)` (or the thread's webhook). */
  waitForEvent(id: string, config: WaitForEventNode['config'], extras: NodeExtras = {}): this {
    return this.node({ id, type: 'WAIT_FOR_EVENT', config, ...extras });
  }

  /** Branches started together; each runs from its `start` node until it reaches `join`. */
  parallel(id: string, config: ParallelNode['config'], extras: NodeExtras = {}): this {
    return this.node({ id, type: 'PARALLEL', config, ...extras });
  }

  /** One branch per item of `config.items`, each from `config.start` until `config.join`. */
  map(id: string, config: MapNode['config'], extras: NodeExtras = {}): this {
    return this.node({ id, type: 'MAP', config, ...extras });
  }

  join(id: string, config: NonNullable<JoinNode['config']> = {}, extras: NodeExtras = {}): this {
    return this.node({ id, type: 'JOIN', config, ...extras });
  }

  /** Runs `config.workflow` as a child thread. */
  subworkflow(id: string, config: SubworkflowNode['config'], extras: NodeExtras = {}): this {
    return this.node({ id, type: 'SUBWORKFLOW', config, ...extras });
  }

  node(node: NodeDefinition): this {
    this.#nodes.push(node);
    return this;
  }

  /**
   * An edge; `when` makes it conditional (its `condition`), `default` marks the one taken when no
   * condition holds, as in the workflow's JSON.
   */
  edge(
    from: string,
    to: string,
    options: { when?: string; default?: boolean; label?: string; id?: string } = {},
  ): this {
    this.#edges.push({
      from,
      to,
      ...(options.id ? { id: options.id } : {}),
      ...(options.when !== undefined ? { condition: options.when } : {}),
      ...(options.default ? { default: true } : {}),
      ...(options.label ? { label: options.label } : {}),
    });
    return this;
  }

  /** Unconditional edges between consecutive nodes: `chain('a', 'b', 'c')` is a -> b -> c. */
  chain(...ids: string[]): this {
    for (let i = 1; i < ids.length; i++) this.edge(ids[i - 1]!, ids[i]!);
    return this;
  }

  trigger(trigger: TriggerDefinition): this {
    this.#triggers.push(trigger);
    return this;
  }

  build(): WorkflowDefinition {
    return {
      id: this.#id,
      version: this.#version,
      ...this.#meta,
      nodes: [...this.#nodes],
      edges: [...this.#edges],
      ...(this.#initialTools.length ? { initialTools: [...this.#initialTools] } : {}),
      ...(this.#variables ? { variables: this.#variables } : {}),
      ...(this.#triggers.length ? { triggers: [...this.#triggers] } : {}),
    };
  }
}
