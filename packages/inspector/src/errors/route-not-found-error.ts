import { SkeinError } from '@skein/spec';

/** A path under /api that no endpoint has. Answered 404. */
export class RouteNotFoundError extends SkeinError<'ROUTE_NOT_FOUND'> {
  static override readonly errorName = 'RouteNotFoundError';
  readonly path: string;

  constructor(path: string) {
    super('ROUTE_NOT_FOUND', `No endpoint at ${path}`, { details: { path } });
    this.path = path;
  }
}
