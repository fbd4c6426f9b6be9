import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import { InvalidArgumentError } from '@skein/spec';
import type {
  Completer,
  McpPrompt,
  McpPublications,
  McpResource,
  McpResourceTemplate,
} from './publications.js';

/** A resource template with its parsed template. */
interface PublishedTemplate {
  readonly template: McpResourceTemplate;
  readonly parsed: UriTemplate;
}

/** What an app publishes, checked and looked up by URI or name. */
export interface Published {
  readonly resources: ReadonlyMap<string, McpResource>;
  readonly templates: readonly PublishedTemplate[];
  readonly prompts: ReadonlyMap<string, McpPrompt>;
}

// A scheme and a colon: what MCP asks of a resource's URI.
const URI = /^[a-z][a-z0-9+.-]*:\S*$/i;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function list<T>(value: unknown, where: string): readonly T[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new InvalidArgumentError(where, `${where} must be an array`);
  return value as T[];
}

function text(value: unknown, where: string): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw new InvalidArgumentError(where, `${where} must be a non-empty string`);
  return value;
}

function optionalText(item: Record<string, unknown>, keys: readonly string[], where: string): void {
  for (const key of keys)
    if (item[key] !== undefined && typeof item[key] !== 'string')
      throw new InvalidArgumentError(`${where}.${key}`, `${where}.${key} must be a string`);
}

function fn(value: unknown, where: string, optional = false): void {
  if (optional && value === undefined) return;
  if (typeof value !== 'function')
    throw new InvalidArgumentError(where, `${where} must be a function`);
}

function completers(value: unknown, names: readonly string[], where: string): void {
  if (value === undefined) return;
  if (!isRecord(value)) throw new InvalidArgumentError(where, `${where} must be an object`);
  for (const [name, complete] of Object.entries(value)) {
    if (!names.includes(name))
      throw new InvalidArgumentError(
        `${where}.${name}`,
        `${where}.${name} completes no such argument (it has ${names.map((n) => JSON.stringify(n)).join(', ') || 'none'})`,
      );
    fn(complete as Completer, `${where}.${name}`);
  }
}

// A URI under a prefix the server keeps for its own resources would never be reached.
function unreserved(uri: string, reserved: readonly string[], where: string): void {
  const prefix = reserved.find((p) => uri.slice(0, p.length).toLowerCase() === p);
  if (prefix !== undefined)
    throw new InvalidArgumentError(
      where,
      `${where} ${JSON.stringify(uri)} is under ${prefix}, which the server keeps for its own resources`,
    );
}

function item(value: unknown, where: string): Record<string, unknown> {
  if (!isRecord(value)) throw new InvalidArgumentError(where, `${where} must be an object`);
  optionalText(value, ['title', 'description', 'mimeType'], where);
  return value;
}

function checkResource(value: unknown, where: string, reserved: readonly string[]): McpResource {
  const resource = item(value, where);
  const uri = text(resource.uri, `${where}.uri`);
  if (!URI.test(uri))
    throw new InvalidArgumentError(
      `${where}.uri`,
      `${where}.uri must be a URI (scheme:…), got ${JSON.stringify(uri)}`,
    );
  unreserved(uri, reserved, `${where}.uri`);
  text(resource.name, `${where}.name`);
  fn(resource.read, `${where}.read`);
  fn(resource.watch, `${where}.watch`, true);
  return value as McpResource;
}

function checkTemplate(
  value: unknown,
  where: string,
  reserved: readonly string[],
): PublishedTemplate {
  const template = item(value, where);
  const source = text(template.uriTemplate, `${where}.uriTemplate`);
  unreserved(source, reserved, `${where}.uriTemplate`);
  let parsed: UriTemplate;
  try {
    parsed = new UriTemplate(source);
  } catch (error) {
    throw new InvalidArgumentError(
      `${where}.uriTemplate`,
      `${where}.uriTemplate is not a URI template: ${(error as Error).message}`,
    );
  }
  if (parsed.variableNames.length === 0)
    throw new InvalidArgumentError(
      `${where}.uriTemplate`,
      `${where}.uriTemplate has no {variable}: publish it as a resource`,
    );
  text(template.name, `${where}.name`);
  fn(template.read, `${where}.read`);
  completers(template.complete, parsed.variableNames, `${where}.complete`);
  return { template: value as McpResourceTemplate, parsed };
}

function checkPrompt(value: unknown, where: string): McpPrompt {
  const prompt = item(value, where);
  text(prompt.name, `${where}.name`);
  fn(prompt.get, `${where}.get`);
  const names: string[] = [];
  list<unknown>(prompt.arguments, `${where}.arguments`).forEach((argument, i) => {
    const at = `${where}.arguments[${i}]`;
    const arg = item(argument, at);
    const name = text(arg.name, `${at}.name`);
    if (names.includes(name))
      throw new InvalidArgumentError(
        `${at}.name`,
        `${at}.name ${JSON.stringify(name)} is there twice`,
      );
    if (arg.required !== undefined && typeof arg.required !== 'boolean')
      throw new InvalidArgumentError(`${at}.required`, `${at}.required must be a boolean`);
    names.push(name);
  });
  completers(prompt.complete, names, `${where}.complete`);
  return value as McpPrompt;
}

/**
 * `publish` checked (InvalidArgumentError naming the first wrong field), by URI and by name. No
 * resource or template may be under a `reserved` prefix (lowercase): the server's own resources.
 */
export function checkPublications(
  publish: McpPublications | undefined,
  reserved: readonly string[],
): Published {
  if (publish !== undefined && !isRecord(publish))
    throw new InvalidArgumentError(
      'publish',
      'publish must be an object { resources, resourceTemplates, prompts }',
    );
  const resources = new Map<string, McpResource>();
  list<unknown>(publish?.resources, 'publish.resources').forEach((value, i) => {
    const resource = checkResource(value, `publish.resources[${i}]`, reserved);
    if (resources.has(resource.uri))
      throw new InvalidArgumentError(
        `publish.resources[${i}].uri`,
        `publish.resources[${i}].uri ${JSON.stringify(resource.uri)} is published twice`,
      );
    resources.set(resource.uri, resource);
  });
  const templates = list<unknown>(publish?.resourceTemplates, 'publish.resourceTemplates').map(
    (value, i) => checkTemplate(value, `publish.resourceTemplates[${i}]`, reserved),
  );
  const prompts = new Map<string, McpPrompt>();
  list<unknown>(publish?.prompts, 'publish.prompts').forEach((value, i) => {
    const prompt = checkPrompt(value, `publish.prompts[${i}]`);
    if (prompts.has(prompt.name))
      throw new InvalidArgumentError(
        `publish.prompts[${i}].name`,
        `publish.prompts[${i}].name ${JSON.stringify(prompt.name)} is published twice`,
      );
    prompts.set(prompt.name, prompt);
  });
  return { resources, templates, prompts };
}
