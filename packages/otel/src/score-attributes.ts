// Attribute names of score spans (`recordScores`). The `gen_ai.evaluation.*` ones are those of
// the GenAI semantic conventions' `gen_ai.evaluation.result` event (development status).

export const SKEIN_SCORE_NAME = 'skein.score.name';
export const SKEIN_SCORE_VALUE = 'skein.score.value';
export const SKEIN_SCORE_REASON = 'skein.score.reason';
export const SKEIN_RUN_ID = 'skein.run.id';
export const SKEIN_ITEM_ID = 'skein.item.id';

export const GEN_AI_EVALUATION_RESULT = 'gen_ai.evaluation.result';
export const GEN_AI_EVALUATION_NAME = 'gen_ai.evaluation.name';
export const GEN_AI_EVALUATION_SCORE_VALUE = 'gen_ai.evaluation.score.value';
export const GEN_AI_EVALUATION_EXPLANATION = 'gen_ai.evaluation.explanation';
