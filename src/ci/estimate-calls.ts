import { listRows } from '../experiment/index.js';
import { requestFromRendered, ResponseCache } from '../model/index.js';
import type { LoadedConfig } from '../project/index.js';
import type { Project } from '../project/types.js';
import type { LoadedPrompt } from '../prompt/types.js';

/**
 * How many of a prompt's rows the response cache cannot answer: each row is rendered and its
 * request's key looked up, as the run will (replay folder first, then the cache), without
 * calling anything. LLM-judge calls are not counted, nor the rows of a prompt a config agent
 * runs, nor a conversation prompt's (their calls are only known by running them: a conversation
 * asks its simulator and its prompt turn after turn, each request holding the turns before). A row that cannot be rendered counts as none:
 * it will error, not call.
 */
export async function estimateLiveCalls(project: Project, config: LoadedConfig, prompt: LoadedPrompt, cacheDir: string, cacheMode: 'use' | 'off' | 'only'): Promise<number> {
  if (cacheMode === 'only') return 0;
  const listing = await listRows({ project, config, promptPath: prompt.path, prompt });
  if (prompt.testSettings.agent !== undefined || prompt.testSettings.conversation !== undefined) return 0;
  if (cacheMode === 'off') return listing.rows.length;
  const cache = new ResponseCache(cacheDir, () => {}, project.replayDir);
  let live = 0;
  try {
    for (const row of listing.rows) {
      let key: string;
      try {
        key = cache.key(requestFromRendered(prompt.render(row.input)), 0);
      } catch {
        continue;
      }
      if ((await cache.get(key)) === undefined) live += 1;
    }
  } finally {
    await cache.close();
  }
  return live;
}
