import { watch, type FSWatcher } from 'node:fs';
import type { ServerResponse } from 'node:http';
import type { RunEvent, RunsEvent } from './api-types.js';
import type { RunCatalog } from './run-catalog.js';
import { runResponse } from './run-catalog.js';

/** Catches a change fs.watch missed (network file systems, editors that replace folders). */
const POLL_MS = 1000;
/** Rows finishing together become one event. */
const DEBOUNCE_MS = 15;
/** Keeps proxies and browsers from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;

export function openEventStream(res: ServerResponse, headers: Record<string, string>): void {
  res.writeHead(200, { ...headers, 'content-type': 'text/event-stream; charset=utf-8', connection: 'keep-alive' });
  res.write(': connected\n\n');
}

function send(res: ServerResponse, event: RunEvent | RunsEvent): void {
  res.write(`data: ${JSON.stringify(event)}\n\n`);
}

/**
 * Follows one run folder for the clients watching it: when results.jsonl grows, each client
 * gets the rows it does not have yet as index entries; when the manifest changes (the run
 * ended) or rows arrived, the run (with its live summary) goes out again.
 */
class RunFollower {
  /** Each client and how many rows it has. */
  readonly clients = new Map<ServerResponse, number>();
  #watcher: FSWatcher | undefined;
  #timers: NodeJS.Timeout[] = [];
  #pending: NodeJS.Timeout | undefined;
  #lastManifest = '';
  #checking = Promise.resolve();

  constructor(private readonly catalog: RunCatalog, private readonly id: string, dir: string) {
    try {
      this.#watcher = watch(dir, () => this.schedule());
      this.#watcher.on('error', () => undefined);
    } catch {
      // The poll below still follows the run.
    }
    this.#timers.push(setInterval(() => this.schedule(), POLL_MS));
    this.#timers.push(setInterval(() => this.#broadcastRaw(': heartbeat\n\n'), HEARTBEAT_MS));
  }

  schedule(): void {
    if (this.#pending) return;
    this.#pending = setTimeout(() => {
      this.#pending = undefined;
      this.#checking = this.#checking.then(() => this.#check()).catch(() => undefined);
    }, DEBOUNCE_MS);
  }

  async #check(): Promise<void> {
    const manifest = await this.catalog.manifest(this.id);
    if (!manifest) return;
    const index = await this.catalog.index(this.id, manifest);
    const total = index.count;
    let grew = false;
    for (const [client, has] of this.clients) {
      if (total <= has) continue;
      send(client, { type: 'rows', from: has, evalNames: index.evalNames, entries: index.entriesFrom(has) });
      this.clients.set(client, total);
      grew = true;
    }
    const text = JSON.stringify(manifest);
    if (text !== this.#lastManifest || grew) {
      this.#lastManifest = text;
      const event: RunEvent = { type: 'run', run: runResponse(manifest, index) };
      for (const client of this.clients.keys()) send(client, event);
    }
  }

  #broadcastRaw(text: string): void {
    for (const client of this.clients.keys()) client.write(text);
  }

  close(): void {
    this.#watcher?.close();
    for (const timer of this.#timers) clearInterval(timer);
    if (this.#pending) clearTimeout(this.#pending);
    for (const client of this.clients.keys()) client.end();
  }
}

/** Every live stream of one server, so closing the server ends them all. */
export class LiveEvents {
  readonly #runs = new Map<string, RunFollower>();
  readonly #listClients = new Set<ServerResponse>();
  #listTimer: NodeJS.Timeout | undefined;
  #lastIds = '';

  constructor(private readonly catalog: RunCatalog) {}

  /** Runs followed now (each holds a file watcher and timers); 0 once every client has gone. */
  get followerCount(): number {
    return this.#runs.size;
  }

  /**
   * `since`: rows the client already has (its index length); anything after is sent at once, so a
   * row written between the client's index fetch and this subscription is never missed.
   */
  followRun(id: string, res: ServerResponse, since: number): void {
    // 'close' has fired already: nobody would ever remove this client.
    if (res.destroyed) return;
    let follower = this.#runs.get(id);
    if (!follower) {
      follower = new RunFollower(this.catalog, id, this.catalog.store.runDir(id));
      this.#runs.set(id, follower);
    }
    const running = follower;
    running.clients.set(res, since);
    running.schedule();
    res.on('close', () => {
      running.clients.delete(res);
      if (running.clients.size === 0) {
        running.close();
        this.#runs.delete(id);
      }
    });
  }

  followList(res: ServerResponse): void {
    if (res.destroyed) return;
    this.#listClients.add(res);
    this.#listTimer ??= setInterval(() => void this.#checkList(), POLL_MS);
    // A run that appeared between the page's own listing and this subscription would otherwise
    // be taken as the starting state and never announced: tell the new client to list again once.
    void this.#checkList().then(() => send(res, { type: 'runs' }), () => undefined);
    res.on('close', () => {
      this.#listClients.delete(res);
      if (this.#listClients.size === 0 && this.#listTimer) {
        clearInterval(this.#listTimer);
        this.#listTimer = undefined;
      }
    });
  }

  async #checkList(): Promise<void> {
    const list = await this.catalog.list();
    const key = JSON.stringify(list.map((run) => [run.id, run.status]));
    if (this.#lastIds !== '' && key !== this.#lastIds) for (const client of this.#listClients) send(client, { type: 'runs' });
    this.#lastIds = key;
  }

  close(): void {
    for (const follower of this.#runs.values()) follower.close();
    this.#runs.clear();
    for (const client of this.#listClients) client.end();
    if (this.#listTimer) clearInterval(this.#listTimer);
  }
}
