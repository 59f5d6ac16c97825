export type { Project, ProjectFile, ScoreSchema } from './types.js';
export type { AgentmarkConfig, LoadedConfig, ModelPrice } from './config-types.js';
export { findProjectRoot, PROJECT_FILE } from './find-project-root.js';
export { loadProject } from './load-project.js';
export { loadConfig, findConfigFile, CONFIG_FILES } from './load-config.js';
export { defineConfig } from './define-config.js';
export { outsideScope, projectScope, realPath, type OutsideScope, type PathScope } from './path-scope.js';
export { loadClient, findClientFile, CLIENT_FILES, type LoadedClient } from './load-client.js';
export { migratedConfig, migrationNotes } from './client-migration.js';
