import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { UsageError } from '../errors/index.js';
import { RunAccumulator } from '../experiment/run-summary.js';
import { resolveRunRef } from '../history/index.js';
import { BlobStore, createRunId, ResultsHash, storeReadError, storeWriteError, RunHandle, RunStore, ViewIndexWriter, type GitInfo, type RunManifest, type StoredRun } from '../store/index.js';
import { checkShards, type ShardRun } from './check-shards.js';
import { ChunkedWriter } from './chunked-writer.js';
import { mergeRowsInOrder } from './merge-rows.js';

export interface MergeShardsOptions {
  /** The project whose `.agentmark/runs/` gets the merged run and where references resolve. */
  projectRoot: string;
  /** Folder that path references and `output` are relative to. @default projectRoot */
  cwd?: string;
  /** Write the merged run to this folder (created; must be empty) instead of a new folder in the run store. */
  output?: string;
  /** Merge even when shards are missing; the manifest's `merged.missing` lists them. @default false */
  allowPartial?: boolean;
  now?: () => number;
  random?: () => number;
}

export interface MergedRun {
  dir: string;
  manifest: RunManifest;
}

/**
 * Builds one run from the shards of a sharded run: the rows in dataset order in a new results
 * file, and the summary (statistics, intervals, flaky rows, gates) computed by the same
 * accumulator a run uses, fed in dataset order, so it equals the summary of the run made in
 * one process (whose rows finished in dataset order). Reads each shard as a stream; nothing is
 * written until the shards are known to belong together. The run is written under a hidden name
 * and renamed to its own only once complete: a merge killed half-way leaves no run that `runs`
 * lists or that says to `--resume` it (resuming a merge would call the model for every row the
 * shards had answered); one that fails removes what it wrote. The shards themselves are only read.
 */
export async function mergeShards(refs: string[], options: MergeShardsOptions): Promise<MergedRun> {
  const context = { projectRoot: options.projectRoot, cwd: options.cwd ?? options.projectRoot };
  const runs: StoredRun[] = [];
  for (const ref of refs) runs.push(await resolveRunRef(ref, context));
  const checked = checkShards(runs, { allowPartial: options.allowPartial ?? false });
  const first = checked.shards[0] as ShardRun;
  const now = options.now ?? Date.now;
  const base = first.run.manifest;
  const git = sameGit(checked.shards);
  const manifest: RunManifest = {
    id: createRunId({ now, random: options.random ?? Math.random }),
    prompt: base.prompt,
    ...(base.dataset ? { dataset: base.dataset } : {}),
    model: base.model,
    settings: base.settings,
    options: base.options,
    ...(git ? { git } : {}),
    // The sharded run's span: from the first shard's start to the last one's end.
    startedAt: earliest(checked.shards.map((entry) => entry.run.manifest.startedAt)),
    status: 'running',
    // Every shard ran the same prompt (checked): its stored files come along.
    ...(base.provenance ? { provenance: base.provenance } : {}),
  };
  if (base.provenance) {
    const hashes = base.provenance.files.map((file) => file.hash);
    const blobs = new BlobStore(options.projectRoot);
    for (const entry of checked.shards) await blobs.copyFrom(BlobStore.ofRunDir(entry.run.dir), hashes);
  }
  const output = await stagedOutput(manifest, options, context.cwd);
  const { handle } = output;
  try {
    const ranges = new Map(Object.entries(first.shard.scoreRanges ?? {}));
    const accumulator = new RunAccumulator(first.shard.evals, Number(base.options.repeat ?? 1), ranges, first.shard.ungated ?? [], first.shard.schemas ?? {});
    const counts = new Map<number, number>();
    // The merged run records what it holds, like any run (see RunManifest.integrity), hashed a
    // chunk at a time as it is written.
    const hash = new ResultsHash();
    const results = await ChunkedWriter.open(handle.resultsPath, hash);
    // And, like any run, the viewer's index of its rows (written after the handle's, which has none).
    const index = new ViewIndexWriter(handle.dir);
    let bytes = 0;
    try {
      await mergeRowsInOrder(checked.shards, counts, (row, line, from, length) => {
        // The stored line when it is the runner's own JSON of the row (a shard written by a run
        // always is; checked by its integrity record): copied as it is, never written again.
        let writing: Promise<void> | undefined;
        let written = length;
        if (runnerShaped(line, from, length)) writing = results.write(line, from, length);
        else {
          const text = Buffer.from(`${JSON.stringify(row)}\n`, 'utf8');
          written = text.length;
          writing = results.write(text, 0, written);
        }
        index.add(row, bytes, written);
        bytes += written;
        accumulator.add(row);
        return writing;
      });
    } catch (error) {
      index.abandon();
      throw error;
    } finally {
      await results.close();
    }
    index.finish({ bytes, ...hash.value() });
    const summary = accumulator.finish({
      evalNames: first.shard.evals,
      ...(typeof base.options.threshold === 'number' ? { threshold: base.options.threshold } : {}),
      ...(first.shard.scoreThresholds ? { scoreThresholds: first.shard.scoreThresholds } : {}),
      ...(first.shard.judgeMinAgreement ? { judgeMinAgreement: first.shard.judgeMinAgreement } : {}),
      ...(first.shard.runLimits ? { runLimits: first.shard.runLimits } : {}),
    });
    const done = await handle.updateManifest({
      // A merge of some shards only is not the run: `latest` must never pick it.
      status: checked.missing.length > 0 ? 'partial' : 'completed',
      integrity: hash.value(),
      endedAt: latest(checked.shards.map((entry) => entry.run.manifest.endedAt ?? entry.run.manifest.startedAt)),
      summary,
      merged: {
        count: checked.count,
        shards: checked.shards.map((entry) => ({ index: entry.shard.index, id: entry.run.manifest.id, rows: counts.get(entry.shard.index) ?? 0 })),
        missing: checked.missing,
      },
    });
    await handle.close();
    await output.publish();
    return { dir: output.dir, manifest: done };
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(handle.dir, { recursive: true, force: true });
    // A shard that could not be read is named as such, not as the merged file failing a write.
    const failed = error instanceof Error ? (error as NodeJS.ErrnoException).path : undefined;
    if (failed !== undefined && !resolve(failed).startsWith(handle.dir)) throw storeReadError(error, failed);
    throw storeWriteError(error, handle.resultsPath);
  }
}

const HEAD = Buffer.from('{"index":');
const CLOSE = 0x7d;
const NEWLINE = 0x0a;

/**
 * A line as the runner writes a row: its JSON object from `{"index":` and one `\n` after it.
 * Compared byte by byte: `Buffer.compare` is a call into C++ that cost more than the nine bytes.
 */
function runnerShaped(line: Buffer, from: number, length: number): boolean {
  if (length <= HEAD.length + 1 || line[from + length - 1] !== NEWLINE || line[from + length - 2] !== CLOSE) return false;
  for (let i = 0; i < HEAD.length; i += 1) if (line[from + i] !== HEAD[i]) return false;
  return true;
}

interface StagedOutput {
  /** The merged run's handle, in its hidden folder. */
  handle: RunHandle;
  /** Where the run is once published. */
  dir: string;
  /** Renames the hidden folder to `dir`, in one step. */
  publish: () => Promise<void>;
}

/**
 * The merged run's folder under a name no reader takes for a run: `.merging-<id>` beside where it
 * goes (run ids never start with a dot). In the run store it has no lock: nobody else knows it.
 */
async function stagedOutput(manifest: RunManifest, options: MergeShardsOptions, cwd: string): Promise<StagedOutput> {
  let dir: string;
  if (options.output === undefined) {
    dir = new RunStore(options.projectRoot).runDir(manifest.id);
  } else {
    dir = resolve(cwd, options.output);
    const inside = await readdir(dir).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    });
    if (inside.length > 0) {
      throw new UsageError('USAGE_OUTPUT_NOT_EMPTY', `-o ${options.output}: the folder is not empty (${inside.slice(0, 3).join(', ')}${inside.length > 3 ? ', …' : ''})`, {
        hint: 'give a new or empty folder for the merged run',
      });
    }
  }
  const staging = join(dirname(dir), `.merging-${basename(dir)}-${manifest.id}`);
  await mkdir(staging, { recursive: true }).catch((error: unknown) => {
    throw storeWriteError(error, staging);
  });
  const handle = new RunHandle(staging, manifest);
  await handle.updateManifest({});
  return {
    handle,
    dir,
    // An empty folder given with -o is replaced (rename(2) takes an empty directory's place).
    publish: () => rename(staging, dir),
  };
}

/** The commit, when every shard ran at the same one (a CI matrix does); else none is claimed. */
function sameGit(shards: ShardRun[]): GitInfo | undefined {
  const gits = shards.map((entry) => entry.run.manifest.git);
  const first = gits[0];
  if (!first || gits.some((git) => git?.commit !== first.commit)) return undefined;
  return { commit: first.commit, dirty: gits.some((git) => git?.dirty === true) };
}

function earliest(times: string[]): string {
  return times.reduce((a, b) => (Date.parse(b) < Date.parse(a) ? b : a));
}

function latest(times: string[]): string {
  return times.reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a));
}
