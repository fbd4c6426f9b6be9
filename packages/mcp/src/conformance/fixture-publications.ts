// What the MCP conformance suite's resource, prompt and completion scenarios read, published
// through `McpServerOptions.publish` as any app would: the URIs and prompt names are the ones the
// suite calls, and nothing in @skein/mcp knows them.
import type { McpPublications } from '../publish/publications.js';
import { PIXEL_PNG } from './fixture-workflows.js';

/** The conformance fixture's publications; `changeWatched` changes the watched resource. */
export function conformancePublications(): McpPublications & { changeWatched(text: string): void } {
  let watched = 'The watched resource, as first published.';
  const watchers = new Set<() => void>();
  return {
    changeWatched(text: string) {
      watched = text;
      for (const changed of watchers) changed();
    },
    resources: [
      {
        uri: 'test://static-text',
        name: 'static-text',
        description: 'A text resource that never changes',
        mimeType: 'text/plain',
        read: () => ({ type: 'text', text: 'This is the content of the static text resource.' }),
      },
      {
        uri: 'test://static-binary',
        name: 'static-binary',
        description: 'A one-pixel PNG',
        mimeType: 'image/png',
        read: () => ({ type: 'image', mediaType: 'image/png', data: PIXEL_PNG }),
      },
      {
        uri: 'test://watched-resource',
        name: 'watched-resource',
        description: 'A text resource that subscribers hear about when it changes',
        mimeType: 'text/plain',
        read: () => ({ type: 'text', text: watched }),
        watch(changed) {
          watchers.add(changed);
          return () => watchers.delete(changed);
        },
      },
    ],
    resourceTemplates: [
      {
        uriTemplate: 'test://template/{id}/data',
        name: 'template-data',
        description: 'JSON data for an id',
        mimeType: 'application/json',
        read: ({ id }) => ({
          type: 'text',
          text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
        }),
        complete: { id: (value) => ['123', '456', '789'].filter((id) => id.startsWith(value)) },
      },
    ],
    prompts: [
      {
        name: 'test_simple_prompt',
        description: 'A prompt with no arguments',
        get: () => [
          { role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } },
        ],
      },
      {
        name: 'test_prompt_with_arguments',
        description: 'A prompt with two arguments',
        arguments: [
          { name: 'arg1', description: 'First test argument', required: true },
          { name: 'arg2', description: 'Second test argument', required: true },
        ],
        get: ({ arg1, arg2 }) => [
          {
            role: 'user',
            content: {
              type: 'text',
              text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`,
            },
          },
        ],
        complete: {
          arg1: (value) => ['paris', 'park', 'party'].filter((v) => v.startsWith(value)),
        },
      },
      {
        name: 'test_prompt_with_embedded_resource',
        description: 'A prompt that embeds a resource',
        arguments: [
          { name: 'resourceUri', description: 'URI of the resource to embed', required: true },
        ],
        get: ({ resourceUri }) => [
          {
            role: 'user',
            content: {
              type: 'file',
              mediaType: 'text/plain',
              // A file name that is a URI is the embedded resource's URI (see the README).
              filename: resourceUri!,
              data: Buffer.from('Embedded resource content for testing.').toString('base64'),
            },
          },
          {
            role: 'user',
            content: { type: 'text', text: 'Please process the embedded resource above.' },
          },
        ],
      },
      {
        name: 'test_prompt_with_image',
        description: 'A prompt with an image',
        get: () => [
          { role: 'user', content: { type: 'image', mediaType: 'image/png', data: PIXEL_PNG } },
          { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
        ],
      },
    ],
  };
}
