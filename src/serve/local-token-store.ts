import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { UsageError } from '../errors/index.js';
import { writeFileAtomic } from '../store/atomic-write.js';
import { isRole } from './roles.js';
import type { TokenRecord, TokenStore } from './token-store.js';

/** The project's tokens without a database store: hashes only, in `.agentmark/tokens.json`. */
export function tokensFile(projectRoot: string): string {
  return join(projectRoot, '.agentmark', 'tokens.json');
}

function isRecord(value: unknown): value is TokenRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  return typeof r['id'] === 'string' && typeof r['name'] === 'string' && typeof r['role'] === 'string' && isRole(r['role']) && typeof r['hash'] === 'string' && typeof r['createdAt'] === 'string';
}

export class LocalTokenStore implements TokenStore {
  constructor(readonly file: string) {}

  async list(): Promise<TokenRecord[]> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const tokens = (parsed as { tokens?: unknown } | undefined)?.tokens;
    if (!Array.isArray(tokens) || !tokens.every(isRecord)) {
      throw new UsageError('USAGE_BAD_TOKENS_FILE', `${this.file} is not a tokens file agentmark wrote`, { hint: 'delete it and create the tokens again with `agentmark tokens create`' });
    }
    return tokens;
  }

  async add(record: TokenRecord): Promise<void> {
    const tokens = await this.list();
    if (tokens.some((t) => t.name === record.name && t.revokedAt === undefined)) throw tokenExists(record.name);
    await this.#write([...tokens, record]);
  }

  async byId(id: string): Promise<TokenRecord | undefined> {
    return (await this.list()).find((t) => t.id === id);
  }

  async revoke(name: string, at: string): Promise<boolean> {
    const tokens = await this.list();
    const found = tokens.find((t) => t.name === name && t.revokedAt === undefined);
    if (!found) return false;
    found.revokedAt = at;
    await this.#write(tokens);
    return true;
  }

  async close(): Promise<void> {}

  async #write(tokens: TokenRecord[]): Promise<void> {
    await mkdir(dirname(this.file), { recursive: true });
    await writeFileAtomic(this.file, `${JSON.stringify({ tokens }, null, 2)}\n`);
  }
}

export function tokenExists(name: string): UsageError {
  return new UsageError('USAGE_TOKEN_EXISTS', `a token named "${name}" exists`, { hint: `revoke it first (agentmark tokens revoke ${name}) or pick another --name` });
}
