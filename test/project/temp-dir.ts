import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

/** A scratch folder with the given files (relative path → contents), removed by `cleanup`. */
export async function makeTempDir(files: Record<string, string | Uint8Array> = {}): Promise<{
  dir: string;
  write: (file: string, contents: string | Uint8Array) => Promise<string>;
  cleanup: () => Promise<void>;
}> {
  const dir = await mkdtemp(path.join(tmpdir(), 'agentmark-test-'));
  const write = async (file: string, contents: string | Uint8Array) => {
    const full = path.join(dir, file);
    await mkdir(path.dirname(full), { recursive: true });
    await writeFile(full, contents);
    return full;
  };
  for (const [file, contents] of Object.entries(files)) await write(file, contents);
  return { dir, write, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
