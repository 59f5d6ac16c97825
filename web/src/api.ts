// The one import from src/: the API's types, shared with the server.
export * from '../../src/view/api-types.js';
