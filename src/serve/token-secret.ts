import { createHash, randomBytes, scrypt, timingSafeEqual, type BinaryLike, type ScryptOptions } from 'node:crypto';

/** The prefix of every token, so a leaked one is recognisable (secret scanners, logs). */
const PREFIX = 'amk';
/** scrypt's cost: N = 2^14, r = 8 (about 16 MB and tens of milliseconds a check). */
const SCRYPT: ScryptOptions = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_BYTES = 32;

/** A new token: `amk_<id>_<secret>`; the id finds the stored hash, the secret is checked against it. */
export function newToken(): { id: string; token: string } {
  const id = randomBytes(8).toString('hex');
  return { id, token: `${PREFIX}_${id}_${randomBytes(32).toString('base64url')}` };
}

/** The id a token names, or undefined when it is not shaped like one of ours. */
export function tokenId(token: string): string | undefined {
  const match = /^amk_([0-9a-f]{16})_[A-Za-z0-9_-]{43}$/.exec(token);
  return match?.[1];
}

function scryptKey(secret: BinaryLike, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(secret, salt, KEY_BYTES, SCRYPT, (error, key) => (error ? reject(error) : resolve(key))));
}

/** What is stored for a token: `scrypt$<salt>$<key>` (base64url); the token itself never is. */
export async function hashToken(token: string): Promise<string> {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('base64url')}$${(await scryptKey(token, salt)).toString('base64url')}`;
}

export async function tokenMatches(token: string, stored: string): Promise<boolean> {
  const [kind, salt, key] = stored.split('$');
  if (kind !== 'scrypt' || salt === undefined || key === undefined) return false;
  const expected = Buffer.from(key, 'base64url');
  const given = await scryptKey(token, Buffer.from(salt, 'base64url'));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A fast fingerprint of a token already checked with scrypt, so each request need not pay scrypt again. */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
