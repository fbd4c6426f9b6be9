import type { CompleteRequest, CompleteResult } from '@modelcontextprotocol/sdk/types.js';
import { InvalidArgumentError } from '@skein/spec';
import type { Published } from './check-publications.js';
import { invalidParams, known } from './publication-errors.js';
import type { Completer } from './publications.js';

// What MCP allows in one answer.
const MAX_VALUES = 100;

function completerOf(
  published: Published,
  request: CompleteRequest['params'],
): Completer | undefined {
  const { ref, argument } = request;
  if (ref.type === 'ref/prompt') {
    const prompt = published.prompts.get(ref.name);
    if (prompt === undefined)
      throw invalidParams(
        `No prompt named ${JSON.stringify(ref.name)} (${known(published.prompts.keys())})`,
      );
    if (!(prompt.arguments ?? []).some((a) => a.name === argument.name))
      throw invalidParams(
        `Prompt ${JSON.stringify(ref.name)} takes no argument ${JSON.stringify(argument.name)}`,
      );
    return prompt.complete?.[argument.name];
  }
  const template = published.templates.find((t) => t.template.uriTemplate === ref.uri);
  if (template === undefined)
    throw invalidParams(
      `No resource template ${JSON.stringify(ref.uri)} (${known(published.templates.map((t) => t.template.uriTemplate))})`,
    );
  if (!template.parsed.variableNames.includes(argument.name))
    throw invalidParams(
      `Resource template ${JSON.stringify(ref.uri)} has no variable ${JSON.stringify(argument.name)}`,
    );
  return template.template.complete?.[argument.name];
}

/**
 * `completion/complete` for a published prompt's argument or template's variable: the app's
 * completer's values (the first 100; `total` and `hasMore` say how many there were), none when it
 * gave no completer for it. An unknown prompt, template, argument or variable is InvalidParams.
 */
export async function complete(
  published: Published,
  request: CompleteRequest['params'],
): Promise<CompleteResult> {
  const completer = completerOf(published, request);
  if (completer === undefined) return { completion: { values: [], hasMore: false } };
  const values = await completer(request.argument.value, request.context?.arguments ?? {});
  if (!Array.isArray(values) || values.some((v) => typeof v !== 'string'))
    throw new InvalidArgumentError(
      `complete.${request.argument.name}`,
      `The completer of ${JSON.stringify(request.argument.name)} must return an array of strings`,
    );
  return {
    completion: {
      values: values.slice(0, MAX_VALUES),
      total: values.length,
      hasMore: values.length > MAX_VALUES,
    },
  };
}
