// A thin client: everything it shows comes from `agentmark lsp`, the project's own installed
// package, so the editor always checks exactly what that version's `validate` checks.
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client;

/** The workspace's installed CLI (node_modules/.bin/agentmark), else npx, which finds it the same way. */
function serverCommand(folder) {
  const bin = join(folder, 'node_modules', '.bin', process.platform === 'win32' ? 'agentmark.cmd' : 'agentmark');
  return existsSync(bin) ? { command: bin, args: ['lsp', '--stdio'] } : { command: 'npx', args: ['--no-install', 'agentmark', 'lsp', '--stdio'] };
}

function inTerminal(name, command) {
  const terminal = vscode.window.createTerminal({ name });
  terminal.show();
  terminal.sendText(command);
}

function relativePath(uri) {
  return JSON.stringify(vscode.workspace.asRelativePath(vscode.Uri.parse(uri), false));
}

async function start(context) {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!folder) return;
  const { command, args } = serverCommand(folder);
  client = new LanguageClient(
    'agentmark',
    'agentmark-eval',
    { command, args, transport: TransportKind.stdio, options: { cwd: folder, shell: process.platform === 'win32' } },
    {
      documentSelector: [
        { scheme: 'file', language: 'agentmark-prompt' },
        { scheme: 'file', pattern: '**/agentmark.json' },
        { scheme: 'file', pattern: '**/*.jsonl' },
        { scheme: 'file', pattern: '**/agentmark.config.*' },
        { scheme: 'file', pattern: '**/*.mdx' },
      ],
    },
  );
  await client.start();
  context.subscriptions.push(client);
}

async function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand('agentmark.runExperiment', (uri) => inTerminal('agentmark run-experiment', `npx agentmark run-experiment ${relativePath(uri ?? vscode.window.activeTextEditor?.document.uri.toString())}`)),
    vscode.commands.registerCommand('agentmark.renderRow', (uri, row = 0) => inTerminal('agentmark render', `npx agentmark render ${relativePath(uri ?? vscode.window.activeTextEditor?.document.uri.toString())} --row ${Number(row)}`)),
    // agentmark.openLastRun is the server's own command (executeCommandProvider): the language
    // client registers it, and the server starts the viewer and asks the editor to open the run's page.
    vscode.commands.registerCommand('agentmark.restartServer', async () => {
      await client?.stop();
      await start(context);
    }),
  );
  await start(context);
}

function deactivate() {
  return client?.stop();
}

module.exports = { activate, deactivate };
