export { startTeamServer, type TeamServer, type TeamServerOptions } from './team-server.js';
export { LocalTokenStore, tokensFile } from './local-token-store.js';
export { ROLES, isRole, can, type Role, type Right } from './roles.js';
export { newToken, hashToken } from './token-secret.js';
export type { TokenRecord, TokenStore } from './token-store.js';
