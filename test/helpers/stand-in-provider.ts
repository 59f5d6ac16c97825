import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Writes a stand-in for an AI SDK provider package into `<dir>/node_modules/<packageName>`: the
 * same shape as the real ones (an ESM entry behind `exports`, a `create…` factory taking
 * settings with `fetch`, and a default instance), whose LanguageModelV3 posts the prompt to the
 * loopback OpenAI server's chat endpoint through the `fetch` it was given. No real provider
 * package is installed by the tests.
 */
export async function writeStandInProvider(dir: string, packageName: string, factory: string, instance: string): Promise<void> {
  const folder = join(dir, 'node_modules', ...packageName.split('/'));
  await mkdir(join(folder, 'dist'), { recursive: true });
  await writeFile(
    join(folder, 'package.json'),
    JSON.stringify({
      name: packageName,
      version: '3.0.0',
      exports: { '.': { types: './dist/index.d.ts', import: './dist/index.mjs', require: './dist/index.cjs' } },
    }),
  );
  // The CommonJS entry is broken on purpose: the registry must load the ESM one.
  await writeFile(join(folder, 'dist', 'index.cjs'), "throw new Error('the CommonJS entry was loaded');\n");
  await writeFile(
    join(folder, 'dist', 'index.mjs'),
    `export function ${factory}(settings = {}) {
  const fetchImpl = settings.fetch ?? globalThis.fetch;
  const baseURL = settings.baseURL ?? process.env.STAND_IN_BASE_URL;
  return (modelId) => ({
    specificationVersion: 'v3',
    provider: ${JSON.stringify(packageName)},
    modelId,
    supportedUrls: {},
    async doGenerate(options) {
      const messages = options.prompt.map((m) => ({
        role: m.role,
        content: typeof m.content === 'string' ? m.content : m.content.filter((p) => p.type === 'text').map((p) => p.text).join(''),
      }));
      const response = await fetchImpl(baseURL + '/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer ' + (process.env.STAND_IN_API_KEY ?? '') },
        body: JSON.stringify({ model: ${JSON.stringify(packageName)} + ':' + modelId, messages }),
        signal: options.abortSignal,
      });
      const json = await response.json();
      return {
        content: [{ type: 'text', text: json.choices[0].message.content }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: json.usage?.prompt_tokens, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: json.usage?.completion_tokens, text: undefined, reasoning: undefined },
        },
        warnings: [],
      };
    },
    async doStream() {
      throw new Error('streaming is not part of the stand-in');
    },
  });
}
export const ${instance} = ${factory}();
`,
  );
}
