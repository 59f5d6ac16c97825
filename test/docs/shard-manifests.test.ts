import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseShardSpec } from '../../src/shard/index.js';
import { REPO_ROOT } from '../helpers/temp-project.js';

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string }; fieldRef?: { fieldPath: string } };
}

interface IndexedJob {
  kind: string;
  spec: {
    completionMode: string;
    completions: number;
    parallelism: number;
    template: { spec: { restartPolicy: string; containers: Array<{ env: EnvVar[]; command: string[]; args: string[] }> } };
  };
}

interface Workflow {
  env: Record<string, string>;
  jobs: Record<string, { needs?: string; strategy?: { 'fail-fast': boolean; matrix: { shard: number[] } }; steps: Array<{ uses?: string; run?: string }> }>;
}

const read = async (name: string): Promise<unknown> => parse(await readFile(join(REPO_ROOT, 'docs', name), 'utf8'));

describe('docs/agentmark-shards-k8s.yml (an Indexed Job writing its shards into the store)', () => {
  it('runs shard JOB_COMPLETION_INDEX+1 of N in each pod: the N pods run shards 1/N to N/N, with the store URL from a Secret', async () => {
    const job = (await read('agentmark-shards-k8s.yml')) as IndexedJob;
    expect(job.kind).toBe('Job');
    expect(job.spec.completionMode).toBe('Indexed');
    const [container] = job.spec.template.spec.containers;
    const env = new Map((container?.env ?? []).map((v) => [v.name, v]));
    const n = Number(env.get('N')?.value);
    expect([job.spec.completions, job.spec.parallelism]).toEqual([n, n]);
    expect(env.get('AGENTMARK_STORE_URL')?.valueFrom?.secretKeyRef).toEqual({ name: 'agentmark-store', key: 'AGENTMARK_STORE_URL' });
    expect(env.get('AGENTMARK_SHARD_GROUP')?.value).toBe('k8s-$(JOB_UID)');
    expect(env.get('JOB_UID')?.valueFrom?.fieldRef?.fieldPath).toBe("metadata.labels['batch.kubernetes.io/controller-uid']");
    expect(container?.command).toEqual(['/bin/sh', '-c']);
    const script = container?.args[0] as string;
    expect(script).toContain('--shard $((JOB_COMPLETION_INDEX+1))/$N');
    // The pod's own shell line, with `echo` for the CLI: what each index would run.
    const echoed = script.replace('npx agentmark', 'echo agentmark').replace('> /dev/null', '');
    const shards = Array.from({ length: n }, (_, index) => {
      const out = execFileSync('/bin/sh', ['-c', echoed], { env: { PATH: process.env.PATH, N: String(n), JOB_COMPLETION_INDEX: String(index), PROMPT: 'p.prompt.mdx' }, encoding: 'utf8' });
      return parseShardSpec(/--shard (\S+)/.exec(out)?.[1] as string);
    });
    expect(shards).toEqual(Array.from({ length: n }, (_, i) => ({ index: i + 1, count: n })));
  });
});

describe('docs/agentmark-shards-store.yml (a GitHub Actions matrix through the store)', () => {
  it('one shard a matrix entry, one group per workflow run, the merge from the store: no artifact carries runs between jobs', async () => {
    const workflow = (await read('agentmark-shards-store.yml')) as Workflow;
    expect(workflow.env.AGENTMARK_STORE_URL).toBe('${{ secrets.AGENTMARK_STORE_URL }}');
    expect(workflow.env.AGENTMARK_SHARD_GROUP).toContain('${{ github.run_id }}');
    const { shard, gate } = workflow.jobs;
    expect(shard?.strategy?.matrix.shard).toEqual(Array.from({ length: Number(workflow.env.SHARDS) }, (_, i) => i + 1));
    expect(shard?.strategy?.['fail-fast']).toBe(false);
    expect(shard?.steps.some((step) => step.uses?.startsWith('actions/upload-artifact') === true)).toBe(false);
    expect(gate?.needs).toBe('shard');
    expect(gate?.steps.some((step) => step.uses?.startsWith('actions/download-artifact') === true)).toBe(false);
    expect(shard?.steps.find((step) => step.run?.includes('run-experiment'))?.run).toContain('--shard ${{ matrix.shard }}/$SHARDS');
    expect(gate?.steps.find((step) => step.run?.includes('merge'))?.run).toContain('npx agentmark merge --store "$AGENTMARK_SHARD_GROUP"');
  });
});
