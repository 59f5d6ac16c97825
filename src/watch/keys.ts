export type KeyAction = 'rerun-all' | 'rerun-failed' | 'quit' | 'interrupt';

const KEYS: Record<string, KeyAction> = { r: 'rerun-all', f: 'rerun-failed', q: 'quit', '\u0003': 'interrupt' };

/**
 * Reads the session's keys. On a terminal, stdin goes into raw mode so one key press acts at
 * once (and Ctrl-C arrives as a byte, not a signal). When stdin is a pipe, whole lines are
 * read (`q` then Enter), which is also how tests drive a session. Returns the function that
 * puts stdin back as it was, so the process can exit.
 */
export function listenForKeys(stdin: NodeJS.ReadStream | undefined, onKey: (action: KeyAction) => void): () => void {
  if (!stdin) return () => {};
  const raw = stdin.isTTY === true && typeof stdin.setRawMode === 'function';
  let buffered = '';
  const onData = (chunk: string | Buffer): void => {
    const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    if (raw) {
      for (const char of text) {
        const action = KEYS[char.toLowerCase()];
        if (action) onKey(action);
      }
      return;
    }
    buffered += text;
    const lines = buffered.split(/\r?\n/);
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      const action = KEYS[line.trim().toLowerCase()];
      if (action && action !== 'interrupt') onKey(action);
    }
  };
  if (raw) stdin.setRawMode(true);
  stdin.on('data', onData);
  stdin.resume();
  return () => {
    stdin.off('data', onData);
    if (raw) stdin.setRawMode(false);
    // A paused stdin holds no active handle, so the process can exit once the session ends.
    stdin.pause();
  };
}
