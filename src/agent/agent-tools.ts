import type { Tool } from 'ai';
import type { CallLog } from './call-log.js';

/** The config's tools `names` picks, each run recorded in `log` (args, result or error). */
export function recordedTools(tools: Record<string, Tool>, names: readonly string[], log: CallLog): Record<string, Tool> {
  const picked: Record<string, Tool> = {};
  for (const name of names) {
    const tool = tools[name];
    if (tool === undefined) continue;
    const execute = tool.execute;
    if (execute === undefined) {
      picked[name] = tool;
      continue;
    }
    picked[name] = {
      ...tool,
      execute: async (input: unknown, options: { toolCallId?: string }) => {
        try {
          const result: unknown = await (execute as (input: unknown, options: unknown) => unknown)(input, options);
          log.addToolRun(name, input, options?.toolCallId, { result });
          return result;
        } catch (error) {
          log.addToolRun(name, input, options?.toolCallId, { error: error instanceof Error ? error.message : String(error) });
          throw error;
        }
      },
    } as Tool;
  }
  return picked;
}
