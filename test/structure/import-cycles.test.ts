import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/temp-project.js';

/**
 * Relative imports of every source file, type-only and dynamic ones included: a cycle of types
 * is still two files that cannot be understood (or moved) one without the other.
 */
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

export function importGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(join(root, 'src'))) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(IMPORT)].map((match) => {
      const specifier = (match[1] ?? match[2]) as string;
      return relative(root, resolve(dirname(file), specifier).replace(/\.js$/, '.ts'));
    });
    graph.set(relative(root, file), [...new Set(targets)]);
  }
  return graph;
}

/** Strongly connected components with more than one file (Tarjan), each sorted. */
export function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('import structure', () => {
  it('finds a cycle when there is one (the check can fail)', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(cycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });

  it('reads every import form', () => {
    const graph = importGraph(REPO_ROOT);
    // A static, a type-only, a re-export and a dynamic import, each known to be in the tree.
    expect(graph.get('src/batch/batch-pass.ts')).toContain('src/batch/batch-rows-context.ts');
    expect(graph.get('src/store/run-store.ts')).toContain('src/store/opened-run.ts');
    expect(graph.get('src/batch/index.ts')).toContain('src/batch/run-batch.ts');
    expect(graph.get('src/experiment/dispatch-rows.ts')).toContain('src/batch/index.ts');
  });

  it('has no import cycle between source files', () => {
    expect(cycles(importGraph(REPO_ROOT))).toEqual([]);
  });
});
