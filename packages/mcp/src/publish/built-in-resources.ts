import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type {
  CompleteRequest,
  CompleteResult,
  ReadResourceResult,
  ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';

/**
 * Resources the server serves itself beside the app's publications (its threads), for one
 * connection. Every URI it `claims` is its own: read, subscribed to and completed here, never by a
 * publication. `auth` is the request's verified token, if any: who asks.
 */
interface BuiltInResources {
  readonly templates: readonly ResourceTemplate[];
  claims(uri: string): boolean;
  read(uri: string, auth: AuthInfo | undefined): Promise<ReadResourceResult>;
  subscribe(uri: string, auth: AuthInfo | undefined): Promise<void>;
  unsubscribe(uri: string): void;
  /** `completion/complete` for a variable of one of `templates`. */
  complete(request: CompleteRequest['params'], auth: AuthInfo | undefined): Promise<CompleteResult>;
  /** Stops its subscriptions (the connection closed). */
  close(): void;
}

/** Makes a connection's built-in resources, given what tells its client a resource changed. */
export type BuiltInResourcesFactory = (updated: (uri: string) => void) => BuiltInResources;
