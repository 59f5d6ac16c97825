import { expect, test } from 'vitest';
import { DependencyGraph } from '../../src/watch/index.js';

test('maps files to the experiments that read them, replacing an entry on every load', () => {
  const graph = new DependencyGraph();
  graph.set('a', ['a.mdx', 'shared.mdx', 'a.jsonl']);
  graph.set('b', ['b.mdx', 'shared.mdx']);
  expect([...graph.dependents('shared.mdx')].sort()).toEqual(['a', 'b']);
  expect([...graph.dependents('a.jsonl')]).toEqual(['a']);

  // a's next load no longer imports the shared component and reads another dataset.
  graph.set('a', ['a.mdx', 'other.jsonl']);
  expect([...graph.dependents('shared.mdx')]).toEqual(['b']);
  expect([...graph.dependents('a.jsonl')]).toEqual([]);
  expect(graph.files().sort()).toEqual(['a.mdx', 'b.mdx', 'other.jsonl', 'shared.mdx']);

  graph.extend('b', ['broken.mdx']);
  expect([...graph.filesOf('b')].sort()).toEqual(['b.mdx', 'broken.mdx', 'shared.mdx']);
  graph.remove('b');
  expect(graph.files().sort()).toEqual(['a.mdx', 'other.jsonl']);
});
