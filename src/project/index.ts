export type { Project, ProjectFile, ScoreSchema } from './types.js';
export type { AgentmarkConfig, LoadedConfig, ModelPrice } from './config-types.js';
export { findProjectRoot, PROJECT_FILE } from './find-project-root.js';
export { loadProject } from './load-project.js';
export { loadConfig, findConfigFile, CONFIG_FILES } from './load-config.js';
export { defineConfig } from './define-config.js';
export { outsideScope, projectScope, realPath, type OutsideScope, type PathScope } from './path-scope.js';
export { loadProjectEnv, ENV_FILES } from './load-env.js';
export { parseEnv } from './parse-env.js';
