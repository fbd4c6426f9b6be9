// A workflow module for `skein run` whose factory throws, as one whose API key is missing does.
import type { DatasetWorkflowModule } from '../run/dataset-workflow.js';

const workflow: DatasetWorkflowModule = () => {
  throw new Error('OPENAI_API_KEY is not set');
};
export default workflow;
