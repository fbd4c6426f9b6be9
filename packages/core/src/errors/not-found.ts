import { NotFoundError } from '@skein/spec';

/** The codes of the `NotFoundError`s core throws (the class is `@skein/spec`'s). */
export type CoreNotFoundCode = 'TOOL_NOT_FOUND' | 'WORKFLOW_NOT_FOUND';

/**
 * A tool name that no registry entry answers to. `where` is where the name was looked up, e.g.
 * `node "agent"`; both are in `details` (`toolName`, `where`).
 */
export function toolNotFound(toolName: string, where: string): NotFoundError<'TOOL_NOT_FOUND'> {
  return new NotFoundError('TOOL_NOT_FOUND', `Tool "${toolName}" is not registered (${where})`, {
    details: { toolName, where },
  });
}

/**
 * A workflow id (and version) not registered; `details`: `workflowId`, `version`, `known`, and
 * `upgradeTo` when a stored thread of that version can be upgraded to a registered one.
 */
export function workflowNotFound(
  workflowId: string,
  version: string | undefined,
  known: readonly string[],
  upgrade?: { readonly threadId: string; readonly toVersion: string },
): NotFoundError<'WORKFLOW_NOT_FOUND'> {
  const hint = upgrade
    ? `; its migrations lead to version "${upgrade.toVersion}": engine.upgrade("${upgrade.threadId}", "${upgrade.toVersion}")`
    : '';
  return new NotFoundError(
    'WORKFLOW_NOT_FOUND',
    `Workflow "${workflowId}"${version ? ` version "${version}"` : ''} is not registered${known.length ? ` (registered: ${known.join(', ')})` : ''}${hint}`,
    {
      details: {
        workflowId,
        version,
        known,
        ...(upgrade ? { threadId: upgrade.threadId, upgradeTo: upgrade.toVersion } : {}),
      },
    },
  );
}
