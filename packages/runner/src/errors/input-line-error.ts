import { SkeinError } from '@skein/spec';

/** A line of a JSONL input is not a JSON value the run can use; the run goes on without it. */
export class InputLineError extends SkeinError<'INPUT_LINE_MALFORMED'> {
  static override readonly errorName = 'InputLineError';
  readonly file: string;
  /** 1-based line number. */
  readonly line: number;

  constructor(file: string, line: number, problem: string) {
    super('INPUT_LINE_MALFORMED', `${file}:${line}: ${problem}`, { details: { file, line } });
    this.file = file;
    this.line = line;
  }
}
