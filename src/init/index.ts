export { initProject, type InitResult } from './init-project.js';
export { DATASET_PATH, OUTPUTS_PATH, PROMPT_PATH } from './scaffold-files.js';
export { CHAT_PROMPT_PATH } from './conversation-files.js';
