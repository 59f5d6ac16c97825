import type { IncomingMessage, ServerResponse } from 'node:http';
import { isAgentmarkError } from '../errors/index.js';
import { sendJson } from '../view/view-routes.js';
import { checkRole, createToken } from './create-token.js';
import { readBody } from './read-body.js';
import type { TokenRecord, TokenStore } from './token-store.js';

/** A token as the API shows it: never its hash (and the token itself only in the answer that made it). */
function shown({ id, name, role, createdAt, revokedAt }: TokenRecord): Omit<TokenRecord, 'hash'> {
  return { id, name, role, createdAt, ...(revokedAt === undefined ? {} : { revokedAt }) };
}

/**
 * The admin's routes, what `agentmark tokens` does over HTTP:
 *
 *   GET    /api/tokens        { tokens: [{ id, name, role, createdAt, revokedAt? }] }, oldest first
 *   POST   /api/tokens        { name, role } → 201 { token, id, name, role, createdAt }: the token shown once
 *   DELETE /api/tokens/<id>   { revoked: { … } }: it stops working at once; 404 for no active token of that id
 */
export async function tokenRoute(tokens: TokenStore, req: IncomingMessage, res: ServerResponse, segments: readonly string[], now: () => Date): Promise<void> {
  const [, , id, ...rest] = segments;
  if (rest.length > 0) return sendJson(res, 404, { error: 'not found' });
  if (id === undefined && req.method === 'GET') return sendJson(res, 200, { tokens: (await tokens.list()).map(shown) });
  if (id === undefined && req.method === 'POST') {
    const body = await readBody(req, 16_384);
    let value: unknown;
    try {
      value = body.ok ? JSON.parse(body.text) : undefined;
    } catch {
      value = undefined;
    }
    const { name, role } = (typeof value === 'object' && value !== null ? value : {}) as { name?: unknown; role?: unknown };
    if (typeof name !== 'string' || typeof role !== 'string') return sendJson(res, 400, { error: 'the body is { "name": "<name>", "role": "viewer|reviewer|writer|admin" }' });
    try {
      const made = await createToken(tokens, name, checkRole(role), now());
      return sendJson(res, 201, { token: made.token, ...shown(made.record) });
    } catch (error) {
      if (!isAgentmarkError(error)) throw error;
      return sendJson(res, error.code === 'USAGE_TOKEN_EXISTS' ? 409 : 400, { error: error.message, code: error.code, ...(error.hint === undefined ? {} : { hint: error.hint }) });
    }
  }
  if (id !== undefined && req.method === 'DELETE') {
    const record = await tokens.byId(id);
    if (record === undefined || record.revokedAt !== undefined) return sendJson(res, 404, { error: 'no active token has that id' });
    await tokens.revoke(record.name, now().toISOString());
    const after = await tokens.byId(id);
    return sendJson(res, 200, { revoked: shown(after ?? record) });
  }
  return sendJson(res, 404, { error: 'not found' });
}
