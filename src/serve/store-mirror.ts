import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ANNOTATIONS_FILE } from '../review/annotations-file.js';
import { MANIFEST_FILE, RESULTS_FILE, type RunStorage } from '../store/index.js';
import { ResultsHash } from '../store/results-integrity.js';
import type { RunManifest } from '../store/types.js';

/** At most one look at the store's list of runs per this many milliseconds, however many pages ask. */
const LIST_EVERY_MS = 2000;

/**
 * The team store's completed runs as run folders the viewer reads (`.agentmark/serve-mirror/`),
 * so `serve` shows a database's runs through the same routes as a folder's. Each run is copied
 * once, from rows the store has checked against its integrity record; the copy gets the record of
 * the file as written (dataset order). Labels are the store's: copied before every review read,
 * and a label written through the viewer goes to the store before it is answered.
 */
export class StoreMirror {
  readonly runsDir: string;
  #listed = 0;
  #syncing: Promise<void> | undefined;

  constructor(private readonly storage: RunStorage, projectRoot: string, private readonly now: () => number = Date.now) {
    const key = createHash('sha256').update(storage.location).digest('hex').slice(0, 16);
    this.runsDir = join(projectRoot, '.agentmark', 'serve-mirror', key, 'runs');
  }

  /** Copies the completed runs not copied yet (or whose manifest changed in the store). */
  syncRuns(): Promise<void> {
    if (this.#syncing) return this.#syncing;
    if (this.#listed !== 0 && this.now() - this.#listed < LIST_EVERY_MS) return Promise.resolve();
    this.#syncing = this.#syncRuns().finally(() => {
      this.#listed = this.now();
      this.#syncing = undefined;
    });
    return this.#syncing;
  }

  async #syncRuns(): Promise<void> {
    await mkdir(this.runsDir, { recursive: true });
    for (const manifest of await this.storage.listRuns({ status: 'completed' })) {
      const copied = await readFile(join(this.runsDir, manifest.id, '.store-manifest.json'), 'utf8').catch(() => undefined);
      if (copied !== JSON.stringify(manifest)) await this.#copyRun(manifest);
    }
  }

  async #copyRun(manifest: RunManifest): Promise<void> {
    const temp = join(this.runsDir, `.${manifest.id}.copying`);
    await rm(temp, { recursive: true, force: true });
    await mkdir(temp, { recursive: true });
    const hash = new ResultsHash();
    const chunks: string[] = [];
    for await (const { text } of this.storage.readRows(manifest.id)) {
      hash.line(text.endsWith('\n') ? text.slice(0, -1) : text);
      chunks.push(text.endsWith('\n') ? text : `${text}\n`);
    }
    await writeFile(join(temp, RESULTS_FILE), chunks.join(''));
    await writeFile(join(temp, ANNOTATIONS_FILE), await this.#annotationsText(manifest.id));
    await writeFile(join(temp, MANIFEST_FILE), `${JSON.stringify({ ...manifest, integrity: hash.value() }, null, 2)}\n`);
    await writeFile(join(temp, '.store-manifest.json'), JSON.stringify(manifest));
    await rm(join(this.runsDir, manifest.id), { recursive: true, force: true });
    await rename(temp, join(this.runsDir, manifest.id));
  }

  async #annotationsText(id: string): Promise<string> {
    return (await this.storage.readAnnotations(id)).map((line) => `${JSON.stringify(line)}\n`).join('');
  }

  /** The copy's labels made the store's again; returns how many the store has. */
  async syncLabels(id: string): Promise<number> {
    const lines = await this.storage.readAnnotations(id);
    await writeFile(join(this.runsDir, id, ANNOTATIONS_FILE), lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    return lines.length;
  }

  /** Sends the store the labels the viewer appended to the copy after the first `known`. */
  async pushLabels(id: string, known: number): Promise<void> {
    const { readAnnotations } = await import('../review/annotations-file.js');
    const lines = await readAnnotations(join(this.runsDir, id));
    if (lines.length > known) await this.storage.appendAnnotations(id, lines.slice(known));
  }
}
