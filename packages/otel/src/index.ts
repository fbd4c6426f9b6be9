export { InvalidOtelOptionError } from './errors/invalid-otel-option-error.js';
export {
  type InstrumentableEngine,
  type InstrumentSkeinOptions,
  instrumentSkein,
  type SkeinInstrumentation,
} from './instrument-skein.js';
export {
  type RecordScoresOptions,
  recordScores,
  type ScoreRecord,
} from './record-scores.js';
