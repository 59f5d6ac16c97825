/**
 * Generates the bench project (bench/project.ts) for measuring from outside the harness:
 * `node .bench-dist/make-project.js <rows>` prints the project's folder; the prompt is
 * `prompts/bench.prompt.mdx`. The caller removes the folder.
 */
import { createBenchProject } from './project.js';

const rows = Number(process.argv[2]);
if (!Number.isInteger(rows) || rows < 1) {
  process.stderr.write(`make-project: give the number of dataset rows, got ${process.argv[2]}\n`);
  process.exit(2);
}
const project = await createBenchProject(rows);
process.stdout.write(`${project.dir}\n`);
