import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors/index.js';
import { loadProjectEnv, parseEnv } from '../../src/project/index.js';
import { tempProject } from '../helpers/temp-project.js';

function parseError(text: string): ConfigError {
  try {
    parseEnv(text, '/p/.env');
  } catch (error) {
    return error as ConfigError;
  }
  throw new Error('expected a parse error');
}

describe('parseEnv', () => {
  it('reads KEY=value lines, export, comments, quotes and multi-line values as dotenv does', () => {
    const text = [
      '# a comment',
      '',
      'PLAIN=value',
      'SPACED = padded value   ',
      'export EXPORTED=yes',
      'INLINE=before # a comment',
      'HASH=a#b',
      'EMPTY=',
      'DOUBLE="line\\nnext \\"q\\" # kept"',
      "SINGLE='no \\n expansion # kept'",
      'BACK=`tick`',
      'MULTI="first',
      'second"',
      'AFTER=1 ',
      'dotted.name-x=ok',
    ].join('\n');
    expect(Object.fromEntries(parseEnv(text, '/p/.env'))).toEqual({
      PLAIN: 'value',
      SPACED: 'padded value',
      EXPORTED: 'yes',
      INLINE: 'before',
      HASH: 'a#b',
      EMPTY: '',
      DOUBLE: 'line\nnext "q" # kept',
      SINGLE: 'no \\n expansion # kept',
      BACK: 'tick',
      MULTI: 'first\nsecond',
      AFTER: '1',
      'dotted.name-x': 'ok',
    });
  });

  it('takes the last of a repeated key and reads CRLF files', () => {
    expect(Object.fromEntries(parseEnv('A=1\r\nA=2\r\nB="x"\r\n', '/p/.env'))).toEqual({ A: '2', B: 'x' });
  });

  it('reports a bad line at its line:col without printing the line (it may hold a secret)', () => {
    const noEquals = parseError('A=1\n  sk-secret-value\n');
    expect(noEquals).toBeInstanceOf(ConfigError);
    expect(noEquals.code).toBe('CONFIG_ENV_SYNTAX');
    expect(noEquals.format()).toBe(
      '/p/.env:2:3: expected KEY=value\n  hint: write one KEY=value per line; quote a value that holds # or spans lines ("..." or \'...\'); # starts a comment',
    );
    expect(parseError('A=1\nB="sk-secret\n').message).toBe('the value of B opens a " quote that is never closed');
    expect(parseError('A=1\nB="sk-secret\n').location).toEqual({ file: '/p/.env', line: 2, column: 3 });
    expect(parseError('1BAD=x\n').message).toBe('"1BAD" is not a variable name');
    const trailing = parseError('K="v" sk-secret\n');
    expect(trailing.message).toBe('unexpected text after the closing quote of K');
    for (const error of [noEquals, trailing]) expect(error.format()).not.toContain('sk-secret');
  });
});

describe('loadProjectEnv', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
    cleanup = undefined;
  });

  it('loads .env then .env.local (which wins) and never overrides the real environment', async () => {
    const project = await tempProject({
      '.env': 'FROM_ENV=env\nBOTH=env\nREAL=env\n',
      '.env.local': 'BOTH=local\nLOCAL_ONLY=local\n',
    });
    cleanup = project.cleanup;
    const env: NodeJS.ProcessEnv = { REAL: 'real', EMPTY_REAL: '' };
    await writeFile(join(project.dir, '.env.local'), 'BOTH=local\nLOCAL_ONLY=local\nEMPTY_REAL=file\n');
    const set = await loadProjectEnv(project.dir, env);
    expect(env).toEqual({ REAL: 'real', EMPTY_REAL: '', FROM_ENV: 'env', BOTH: 'local', LOCAL_ONLY: 'local' });
    expect(set.sort()).toEqual(['BOTH', 'FROM_ENV', 'LOCAL_ONLY']);
  });

  it('does nothing without the files', async () => {
    const project = await tempProject({});
    cleanup = project.cleanup;
    const env: NodeJS.ProcessEnv = { A: '1' };
    expect(await loadProjectEnv(project.dir, env)).toEqual([]);
    expect(env).toEqual({ A: '1' });
  });
});
