import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import { BIN } from './run-cli.js';

export interface Position {
  line: number;
  character: number;
}
export interface Range {
  start: Position;
  end: Position;
}
export interface Diagnostic {
  range: Range;
  severity?: number;
  code?: string | number;
  source?: string;
  message: string;
  data?: unknown;
}
interface Published {
  uri: string;
  version?: number;
  diagnostics: Diagnostic[];
}

/**
 * `agentmark lsp --stdio` from the built CLI, driven over JSON-RPC as an editor drives it:
 * documents opened and changed in memory, diagnostics collected as they are published.
 */
export class LspClient {
  private readonly published: Published[] = [];
  private readonly waiters: Array<{ test: (p: Published) => boolean; resolve: (p: Published) => void }> = [];
  private readonly versions = new Map<string, number>();
  /** What the server asked the editor to open (`window/showDocument`). */
  readonly shown: Array<{ uri: string; external?: boolean }> = [];
  /** The file watchers the server registered (`workspace/didChangeWatchedFiles`), their glob patterns. */
  readonly watched: string[] = [];
  /** How many times the server asked for the code lenses again (`workspace/codeLens/refresh`). */
  lensRefreshes = 0;
  private readonly refreshWaiters: Array<{ count: number; resolve: () => void }> = [];
  stderr = '';

  private constructor(
    readonly root: string,
    readonly child: ChildProcess,
    readonly connection: MessageConnection,
  ) {
    connection.onNotification('textDocument/publishDiagnostics', (params: Published) => {
      this.published.push(params);
      for (const waiter of [...this.waiters]) {
        if (!waiter.test(params)) continue;
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(params);
      }
    });
    // The server asks for watched-file registration and configuration; an editor says yes.
    connection.onRequest('client/registerCapability', (params: { registrations: Array<{ method: string; registerOptions?: { watchers?: Array<{ globPattern: string }> } }> }) => {
      for (const registration of params.registrations) {
        if (registration.method === 'workspace/didChangeWatchedFiles') this.watched.push(...(registration.registerOptions?.watchers ?? []).map((w) => w.globPattern));
      }
      return null;
    });
    connection.onRequest('workspace/codeLens/refresh', () => {
      this.lensRefreshes++;
      for (const waiter of [...this.refreshWaiters]) {
        if (this.lensRefreshes < waiter.count) continue;
        this.refreshWaiters.splice(this.refreshWaiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      return null;
    });
    connection.onRequest('workspace/configuration', () => []);
    connection.onRequest('window/showDocument', (params: { uri: string; external?: boolean }) => {
      this.shown.push(params);
      return { success: true };
    });
    connection.onNotification('window/logMessage', (params: { message: string }) => {
      this.stderr += `${params.message}\n`;
    });
  }

  /** `capabilities.workspace` is merged over the default (dynamic watched-file registration), e.g. `{ codeLens: { refreshSupport: true } }`. */
  static async start(root: string, initializationOptions: Record<string, unknown> = { debounceMs: 0 }, workspace: Record<string, unknown> = {}): Promise<LspClient> {
    const child = spawn(process.execPath, [BIN, 'lsp', '--stdio'], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: process.env.PATH, HOME: process.env.HOME } });
    if (!child.stdout || !child.stdin) throw new Error('no stdio');
    const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    const client = new LspClient(root, child, connection);
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (client.stderr += chunk));
    connection.listen();
    await connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(root).href,
      capabilities: { workspace: { didChangeWatchedFiles: { dynamicRegistration: true }, ...workspace }, window: { showDocument: { support: true } } },
      initializationOptions,
    });
    await connection.sendNotification('initialized', {});
    return client;
  }

  /** Resolves once the server has asked for the code lenses again `count` times in all. */
  lensRefreshed(count: number): Promise<void> {
    if (this.lensRefreshes >= count) return Promise.resolve();
    return new Promise((resolve) => this.refreshWaiters.push({ count, resolve }));
  }

  /** Tells the server that files changed on disk, as an editor's watcher does (`workspace/didChangeWatchedFiles`; 1 created, 2 changed). */
  async filesChanged(relativePaths: string[], type: 1 | 2 = 2): Promise<void> {
    await this.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: relativePaths.map((path) => ({ uri: this.uri(path), type })) });
  }

  uri(relativePath: string): string {
    return pathToFileURL(join(this.root, relativePath)).href;
  }

  /** Opens a file with its text on disk (or `text`) and waits for its first diagnostics. */
  async open(relativePath: string, text?: string): Promise<Diagnostic[]> {
    const uri = this.uri(relativePath);
    const content = text ?? (await readFile(join(this.root, relativePath), 'utf8'));
    this.versions.set(uri, 1);
    const published = this.next(uri, 1);
    await this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: languageOf(relativePath), version: 1, text: content } });
    return (await published).diagnostics;
  }

  /** Replaces a buffer's whole text (unsaved) and waits for the diagnostics of that version. */
  async change(relativePath: string, text: string): Promise<Diagnostic[]> {
    const uri = this.uri(relativePath);
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    const published = this.next(uri, version);
    await this.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text }] });
    return (await published).diagnostics;
  }

  /** Writes `text` to the file (the buffer's text, as an editor saves it), sends didSave, and waits for the diagnostics published after it. */
  async save(relativePath: string, text: string): Promise<Diagnostic[]> {
    const uri = this.uri(relativePath);
    await writeFile(join(this.root, relativePath), text);
    const published = new Promise<Published>((resolve) => this.waiters.push({ test: (p) => p.uri === uri, resolve }));
    await this.connection.sendNotification('textDocument/didSave', { textDocument: { uri } });
    return (await published).diagnostics;
  }

  /** The next diagnostics published for `uri` at `version` or later. */
  next(uri: string, version?: number): Promise<Published> {
    return new Promise((resolve) => this.waiters.push({ test: (p) => p.uri === uri && (version === undefined || (p.version ?? 0) >= version), resolve }));
  }

  /** Diagnostics for `uri` that satisfy `test`, now or when they are published. */
  diagnosticsWhen(uri: string, test: (diagnostics: Diagnostic[]) => boolean): Promise<Diagnostic[]> {
    const last = [...this.published].reverse().find((p) => p.uri === uri);
    if (last && test(last.diagnostics)) return Promise.resolve(last.diagnostics);
    return new Promise((resolve) => this.waiters.push({ test: (p) => p.uri === uri && test(p.diagnostics), resolve: (p) => resolve(p.diagnostics) }));
  }

  request<T>(method: string, params: unknown): Promise<T> {
    return this.connection.sendRequest(method, params) as Promise<T>;
  }

  async stop(): Promise<number | null> {
    const exited = new Promise<number | null>((resolve) => this.child.once('exit', (code) => resolve(code)));
    await this.connection.sendRequest('shutdown');
    await this.connection.sendNotification('exit');
    const code = await exited;
    this.connection.dispose();
    return code;
  }
}

function languageOf(path: string): string {
  if (path.endsWith('.mdx')) return 'mdx';
  if (path.endsWith('.jsonl')) return 'jsonl';
  if (path.endsWith('.json')) return 'json';
  return 'typescript';
}
