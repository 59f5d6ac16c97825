import { UsageError } from '../../errors/index.js';
import type { CliIO } from '../io.js';

export async function run(_argv: string[], _io: CliIO): Promise<number> {
  throw new UsageError('USAGE_NOT_YET', 'import promptfoo is not built yet');
}
