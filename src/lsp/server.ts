import { dirname, sep } from 'node:path';
import {
  CodeLensRefreshRequest,
  createConnection,
  DidChangeWatchedFilesNotification,
  ProposedFeatures,
  TextDocumentSyncKind,
  type InitializeParams,
  type InitializeResult,
} from 'vscode-languageserver/node';
import { setSourceOverlay } from '../source-overlay.js';
import { Debouncer } from './debouncer.js';
import { fileKind } from './file-kind.js';
import { registerFeatures, featureCapabilities } from './features.js';
import { OpenDocuments, uriToPath, type DocumentSnapshot } from './open-documents.js';
import { ProjectState, type ChangeSource } from './project-state.js';
import { RunViewer, SERVER_COMMANDS } from './open-run.js';
import { DiagnosticsPublisher } from './publish-diagnostics.js';
import { RunStoreWatcher } from './run-store-watcher.js';
import { SerialQueue } from './serial-queue.js';
import type { ServerContext } from './server-context.js';

export interface ServerOptions {
  /** How long after the last edit of a file it is checked. @default 25 */
  debounceMs?: number;
}


/**
 * `agentmark lsp`: a language server over stdin/stdout. Resolves when the client sends `exit`.
 * The open buffers are installed as the loaders' source overlay, so every check reads the
 * unsaved text.
 */
export function startServer(input: NodeJS.ReadableStream, output: NodeJS.WritableStream, options: ServerOptions = {}): Promise<number> {
  const connection = createConnection(ProposedFeatures.all, input, output);
  const documents = new OpenDocuments();
  // A check reads the buffers as they were when it started (edits arriving during its reads of
  // the disk are left for the check they start); anything else reads them as they stand.
  let checking: DocumentSnapshot | undefined;
  setSourceOverlay({ text: (file) => (checking !== undefined ? checking.get(file)?.text : documents.text(file)) });
  const state = new ProjectState(documents);
  const queue = new SerialQueue((error) => connection.console.error(`agentmark lsp: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`));
  const publisher = new DiagnosticsPublisher(connection, state, documents);
  let debounceMs = options.debounceMs ?? 25;
  let debouncer = new Debouncer(debounceMs);
  let root: string | undefined;
  let loaded: Promise<unknown> | undefined;
  let watchFiles = false;
  let lensRefresh = false;
  let showDocument = false;

  const runWatcher = new RunStoreWatcher();
  const refreshLenses = (): void => void connection.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined);
  const load = (dir: string): Promise<unknown> =>
    (loaded ??= queue.run(async () => {
      await state.load(dir);
      // A client that watches no files for us still gets its lenses refreshed when a run ends.
      const projectRoot = state.project?.root;
      if (lensRefresh && !watchFiles && projectRoot !== undefined) await runWatcher.start(projectRoot, refreshLenses);
    }));
  const context: ServerContext = { connection, documents, state, queue, ready: async () => void (await (root !== undefined ? load(root) : loaded)) };

  const check = (path: string, source: ChangeSource = 'buffer'): Promise<unknown> =>
    queue.run(async () => {
      checking = documents.snapshot();
      try {
        await state.fileChanged(path, source);
        publisher.publish(path, checking);
      } finally {
        checking = undefined;
      }
    });
  const recheck = (path: string, source: ChangeSource = 'buffer'): void => debouncer.schedule(path, () => void check(path, source));

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const folder = params.workspaceFolders?.[0]?.uri ?? params.rootUri ?? undefined;
    if (folder) root = uriToPath(folder);
    const init = (params.initializationOptions ?? {}) as { debounceMs?: unknown };
    if (typeof init.debounceMs === 'number' && init.debounceMs >= 0) {
      debounceMs = init.debounceMs;
      debouncer = new Debouncer(debounceMs);
    }
    watchFiles = params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    lensRefresh = params.capabilities.workspace?.codeLens?.refreshSupport === true;
    showDocument = params.capabilities.window?.showDocument?.support === true;
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        ...featureCapabilities,
        executeCommandProvider: { commands: SERVER_COMMANDS },
      },
      serverInfo: { name: 'agentmark' },
    };
  });

  connection.onInitialized(() => {
    if (root !== undefined) void load(root);
    if (watchFiles) {
      void connection.client.register(DidChangeWatchedFilesNotification.type, {
        // A run's manifest is rewritten when it ends: the lenses' pass rates are read again then.
        watchers: [{ globPattern: '**/{agentmark.json,agentmark.config.*,*.prompt.mdx,*.mdx,*.jsonl}' }, { globPattern: '**/.agentmark/runs/*/manifest.json' }],
      });
    }
  });

  connection.onDidOpenTextDocument(({ textDocument }) => {
    const document = documents.open(textDocument.uri, textDocument.languageId, textDocument.version, textDocument.text);
    const path = uriToPath(document.uri);
    void load(root ?? dirname(path));
    // The first look at a file is at once: only edits wait for a pause in typing.
    void check(path);
  });

  connection.onDidChangeTextDocument(({ textDocument, contentChanges }) => {
    if (!documents.change(textDocument.uri, textDocument.version, contentChanges)) return;
    recheck(uriToPath(textDocument.uri));
  });

  connection.onDidSaveTextDocument(({ textDocument }) => {
    // The config's buffer is only parsed as it is edited (docs/editors.md says why): saved, it is
    // evaluated again and the prompts re-bound to its scorers.
    const path = uriToPath(textDocument.uri);
    if (fileKind(path) === 'config') recheck(path, 'disk');
  });

  connection.onDidCloseTextDocument(({ textDocument }) => {
    const path = uriToPath(textDocument.uri);
    documents.close(textDocument.uri);
    publisher.forget(path);
    void connection.sendDiagnostics({ uri: textDocument.uri, diagnostics: [] });
    // Closed without saving: the file on disk is what counts again.
    recheck(path);
  });

  connection.onDidChangeWatchedFiles(({ changes }) => {
    for (const change of changes) {
      const path = uriToPath(change.uri);
      if (path.endsWith(`${sep}manifest.json`) && path.includes(`${sep}.agentmark${sep}`)) {
        if (lensRefresh) refreshLenses();
      } else if (!documents.get(path) || fileKind(path) === 'config') recheck(path, 'disk');
    }
  });

  registerFeatures(context);
  const viewer = new RunViewer(context, () => showDocument);
  connection.onExecuteCommand((params) => viewer.execute(params));
  // For the bench: the heap after a full GC (when node runs with --expose-gc), to tell live data from slack.
  connection.onRequest('agentmark/memory', () => {
    (globalThis as { gc?: () => void }).gc?.();
    return process.memoryUsage();
  });

  return new Promise((resolve) => {
    let shutdown = false;
    connection.onShutdown(async () => {
      shutdown = true;
      debouncer.cancelAll();
      await viewer.close();
      await runWatcher.close();
    });
    connection.onExit(() => {
      setSourceOverlay(undefined);
      void runWatcher.close();
      resolve(shutdown ? 0 : 1);
    });
    connection.listen();
  });
}
