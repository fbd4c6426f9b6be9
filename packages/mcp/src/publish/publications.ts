import type { ContentPart } from '@skein/spec';

/** What a resource reads as: one content part, or several (each an entry of `contents`). */
export type ResourceBody = ContentPart | readonly ContentPart[];

/**
 * Values a client may mean by what it typed so far (`value`), best first: answers
 * `completion/complete`. `context` holds the other arguments or variables the client already
 * filled in.
 */
export type Completer = (
  value: string,
  context: Readonly<Record<string, string>>,
) => readonly string[] | Promise<readonly string[]>;

/** A resource the app publishes at a fixed URI. */
export interface McpResource {
  readonly uri: string;
  /** A short name clients list it by. */
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** The media type of what it reads as, when all of it has one. */
  readonly mimeType?: string;
  /** What it holds now: text parts are sent as `text`, media parts as `blob` (or `text` for a textual file). */
  read(): ResourceBody | Promise<ResourceBody>;
  /**
   * Calls `changed` each time the resource changes, until the returned function is called: a
   * client subscribed to it is sent `notifications/resources/updated`. Without it a subscription
   * is accepted and never told anything (the resource does not change).
   */
  watch?(changed: () => void): () => void;
}

/** Resources the app publishes under a URI template (RFC 6570 level 1–3, as `{id}`). */
export interface McpResourceTemplate {
  readonly uriTemplate: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  /** The resource at `uri`, whose template variables are `variables`. */
  read(
    variables: Readonly<Record<string, string>>,
    uri: string,
  ): ResourceBody | Promise<ResourceBody>;
  /** Completions for the template's variables, by variable name. */
  readonly complete?: Readonly<Record<string, Completer>>;
}

/** One argument of a prompt: always a string, as MCP has it. */
export interface McpPromptArgument {
  readonly name: string;
  readonly description?: string;
  readonly required?: boolean;
}

/** One message of a rendered prompt: a content part from the user or the assistant. */
export interface McpPromptMessage {
  readonly role: 'user' | 'assistant';
  readonly content: ContentPart;
}

/** A prompt the app publishes: its arguments, and the messages it renders to. */
export interface McpPrompt {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments?: readonly McpPromptArgument[];
  /** The messages for `args` (every required argument is there; unknown ones are refused first). */
  get(
    args: Readonly<Record<string, string>>,
  ): readonly McpPromptMessage[] | Promise<readonly McpPromptMessage[]>;
  /** Completions for the prompt's arguments, by argument name. */
  readonly complete?: Readonly<Record<string, Completer>>;
}

/**
 * What an app publishes beside its workflows: resources, resource templates and prompts. The
 * server offers `resources/*`, `prompts/*` and `completion/complete` only when it has some.
 */
export interface McpPublications {
  readonly resources?: readonly McpResource[];
  readonly resourceTemplates?: readonly McpResourceTemplate[];
  readonly prompts?: readonly McpPrompt[];
}
