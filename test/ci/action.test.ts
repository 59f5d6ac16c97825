import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ciOptions } from '../../src/cli/commands/ci.js';
import { REPO_ROOT } from '../helpers/temp-project.js';

interface Step {
  name?: string;
  uses?: string;
  if?: string;
  run?: string;
  with?: Record<string, string>;
}

describe('action.yml (the composite GitHub Action)', () => {
  it('installs, restores the cache, runs agentmark ci --comment with flags ci has, saves the cache even on failure, then exits with ci\'s code', async () => {
    const { parse } = await import('yaml');
    const action = parse(await readFile(join(REPO_ROOT, 'action.yml'), 'utf8')) as { runs: { using: string; steps: Step[] }; inputs: Record<string, { default?: string }> };
    expect(action.runs.using).toBe('composite');
    const steps = action.runs.steps;
    expect(steps.map((s) => s.uses ?? s.name)).toEqual(['actions/setup-node@v4', 'Install agentmark-eval', 'actions/cache/restore@v4', 'agentmark ci', 'actions/cache/save@v4', 'Verdict']);
    const restore = steps[2] as Step;
    const save = steps[4] as Step;
    expect(restore.with?.path).toBe('${{ inputs.cache-dir }}');
    expect(save.with?.path).toBe(restore.with?.path);
    expect(save.with?.key).toBe(restore.with?.key);
    expect(save.if).toBe('always()');
    expect(action.inputs['cache-dir']?.default).toBe('.agentmark/cache');
    const script = (steps[3] as Step).run ?? '';
    expect(script).toContain('npx agentmark ci $PROMPTS "${flags[@]}" $ARGS');
    const flags = [...script.matchAll(/flags\+?=\((--[a-z-]+)/g)].map((m) => (m[1] as string).slice(2));
    expect(flags).toEqual(['cache-dir', 'base', 'max-cost', 'comment', 'cache-only']);
    for (const flag of flags) expect(Object.keys(ciOptions)).toContain(flag);
    expect((steps[5] as Step).run).toBe('exit "${CODE:-2}"');
  });
});
