import { SkeinError } from '@skein/spec';

/** No outgoing edge of a node holds. */
export class NoRouteError extends SkeinError<'NO_ROUTE'> {
  static override readonly errorName = 'NoRouteError';
  readonly nodeId: string;

  constructor(nodeId: string) {
    super('NO_ROUTE', `No outgoing edge of node "${nodeId}" matches and it has no default edge`, {
      details: { nodeId },
    });
    this.nodeId = nodeId;
  }
}
