import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CompleteRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { BuiltInResourcesFactory } from './built-in-resources.js';
import type { Published } from './check-publications.js';
import { complete } from './complete.js';
import { getPrompt } from './get-prompt.js';
import { readResource } from './read-resource.js';
import { Subscriptions } from './subscriptions.js';

function described<T extends { title?: string; description?: string; mimeType?: string }>(item: T) {
  return {
    ...(item.title === undefined ? {} : { title: item.title }),
    ...(item.description === undefined ? {} : { description: item.description }),
    ...(item.mimeType === undefined ? {} : { mimeType: item.mimeType }),
  };
}

/**
 * Serves what the app published on one connection's `server`: resources (list, read, templates,
 * subscriptions), prompts and completions, each declared as a capability only when there is
 * something to serve; with the server's `builtIn` resources beside them, which answer every URI
 * they claim. Must run before the server connects. Returns what stops its subscriptions (also
 * stopped when the connection closes).
 */
export function servePublications(
  server: Server,
  published: Published,
  builtIn?: BuiltInResourcesFactory,
): () => void {
  const hasResources =
    published.resources.size > 0 || published.templates.length > 0 || builtIn !== undefined;
  const hasPrompts = published.prompts.size > 0;
  if (!hasResources && !hasPrompts) return () => undefined;
  server.registerCapabilities({
    ...(hasResources ? { resources: { subscribe: true, listChanged: false } } : {}),
    ...(hasPrompts ? { prompts: { listChanged: false } } : {}),
    completions: {},
  });
  const updated = (uri: string) => {
    // A client that went away is not told; its subscriptions end with the connection.
    server.sendResourceUpdated({ uri }).catch(() => undefined);
  };
  const subscriptions = new Subscriptions(published, updated);
  const own = builtIn?.(updated);
  const stop = () => {
    subscriptions.close();
    own?.close();
  };
  const closed = server.onclose;
  server.onclose = () => {
    closed?.();
    stop();
  };
  if (hasResources) {
    server.setRequestHandler(ListResourcesRequestSchema, () => ({
      resources: [...published.resources.values()].map((r) => ({
        uri: r.uri,
        name: r.name,
        ...described(r),
      })),
    }));
    server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
      resourceTemplates: [
        ...published.templates.map(({ template }) => ({
          uriTemplate: template.uriTemplate,
          name: template.name,
          ...described(template),
        })),
        ...(own?.templates ?? []),
      ],
    }));
    server.setRequestHandler(ReadResourceRequestSchema, ({ params: { uri } }, extra) =>
      own?.claims(uri) ? own.read(uri, extra.authInfo) : readResource(published, uri),
    );
    server.setRequestHandler(SubscribeRequestSchema, async ({ params: { uri } }, extra) => {
      if (own?.claims(uri)) await own.subscribe(uri, extra.authInfo);
      else subscriptions.subscribe(uri);
      return {};
    });
    server.setRequestHandler(UnsubscribeRequestSchema, ({ params: { uri } }) => {
      if (own?.claims(uri)) own.unsubscribe(uri);
      else subscriptions.unsubscribe(uri);
      return {};
    });
  }
  if (hasPrompts) {
    server.setRequestHandler(ListPromptsRequestSchema, () => ({
      prompts: [...published.prompts.values()].map((p) => ({
        name: p.name,
        ...described(p),
        ...(p.arguments === undefined
          ? {}
          : {
              arguments: p.arguments.map((a) => ({
                name: a.name,
                ...(a.description === undefined ? {} : { description: a.description }),
                ...(a.required === undefined ? {} : { required: a.required }),
              })),
            }),
      })),
    }));
    server.setRequestHandler(GetPromptRequestSchema, (request) =>
      getPrompt(published, request.params.name, request.params.arguments),
    );
  }
  server.setRequestHandler(CompleteRequestSchema, ({ params }, extra) => {
    const { ref } = params;
    return ref.type === 'ref/resource' && own?.templates.some((t) => t.uriTemplate === ref.uri)
      ? own.complete(params, extra.authInfo)
      : complete(published, params);
  });
  return stop;
}
