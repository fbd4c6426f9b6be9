import { SkeinError } from '@skein/spec';

/**
 * An API whose category is nowhere in the data. The virtual-API server files responses by
 * category, so guessing one would silently query the wrong tool; there is no default.
 */
export class MissingCategoryError extends SkeinError<'TOOLBENCH_MISSING_CATEGORY'> {
  static override readonly errorName = 'MissingCategoryError';
  readonly toolName: string;
  readonly apiName: string;

  constructor(toolName: string, apiName: string, where: string) {
    super(
      'TOOLBENCH_MISSING_CATEGORY',
      `No category for tool "${toolName}" (API "${apiName}", ${where}): give the entry a category_name or pass it in options.categories`,
      { details: { toolName, apiName, where } },
    );
    this.toolName = toolName;
    this.apiName = apiName;
  }
}
