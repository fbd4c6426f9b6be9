import type { Tool } from './tool.js';

/**
 * The same tool under another name. Functions are called on the original, so tools that are class
 * instances (methods on a prototype, `this` inside) keep working.
 */
export function renameTool(tool: Tool<never>, name: string): Tool<never> {
  const { needsApproval, isEnabled } = tool;
  return {
    ...tool,
    name,
    execute: (args, context) => tool.execute(args, context),
    ...(typeof needsApproval === 'function'
      ? { needsApproval: (args, context) => needsApproval.call(tool, args, context) }
      : {}),
    ...(isEnabled ? { isEnabled: (context) => isEnabled.call(tool, context) } : {}),
  };
}
