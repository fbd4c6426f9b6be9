import { TextParts } from './text-parts.js';

/**
 * One tool call being assembled, fragment by fragment: plain mutable fields, all set in the
 * constructor.
 */
export class ToolCallState {
  /** Position in the choice's calls, in order of first appearance. */
  readonly position: number;
  /** The provider's `index`, or -1 when the call was opened by a fragment without one. */
  readonly index: number;
  id = '';
  name = '';
  type = '';
  readonly arguments = new TextParts();
  /** The serialisation of the last non-string `arguments` value, to drop identical repeats. */
  objectArguments: string | undefined = undefined;
  /** Why non-string `arguments` could not be serialised (nested too deep), if so. */
  argumentsProblem: string | undefined = undefined;
  extraContent: unknown = undefined;

  constructor(position: number, index: number) {
    this.position = position;
    this.index = index;
  }
}
