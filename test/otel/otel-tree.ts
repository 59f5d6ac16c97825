import type { ReceivedSpan } from '../helpers/otlp-receiver.js';

/** Spans as an indented tree of names, children in row order (index, repeat), then by name. */
export function spanTree(spans: readonly ReceivedSpan[]): string {
  const children = new Map<string, ReceivedSpan[]>();
  for (const span of spans) children.set(span.parentSpanId, [...(children.get(span.parentSpanId) ?? []), span]);
  const order = (a: ReceivedSpan, b: ReceivedSpan): number =>
    Number(a.attributes['agentmark.row.index'] ?? 0) - Number(b.attributes['agentmark.row.index'] ?? 0) ||
    Number(a.attributes['agentmark.row.repeat'] ?? 0) - Number(b.attributes['agentmark.row.repeat'] ?? 0) ||
    a.name.localeCompare(b.name);
  const lines: string[] = [];
  const walk = (parent: string, depth: number): void => {
    for (const span of [...(children.get(parent) ?? [])].sort(order)) {
      const row = span.attributes['agentmark.row.index'] === undefined ? '' : ` #${String(span.attributes['agentmark.row.index'])}.${String(span.attributes['agentmark.row.repeat'])}`;
      const flags = [span.status.code === 2 ? 'error' : '', span.attributes['agentmark.cached'] === true ? 'cached' : '', span.attributes['agentmark.judge'] === true ? 'judge' : ''].filter(Boolean);
      const events = span.events.map((event) => `${event.name}(${String(event.attributes['gen_ai.evaluation.name'] ?? '')})`);
      lines.push(`${'  '.repeat(depth)}${span.name}${row}${flags.length ? ` [${flags.join(',')}]` : ''}${events.length ? ` ${events.join(' ')}` : ''}`);
      walk(span.spanId, depth + 1);
    }
  };
  walk('', 0);
  return lines.join('\n');
}

/** The spans with ids replaced by their place in the tree, for comparing two exports of one run. */
export function withoutIds(spans: readonly ReceivedSpan[]): unknown[] {
  const path = new Map<string, string>();
  const byId = new Map(spans.map((span) => [span.spanId, span]));
  const pathOf = (span: ReceivedSpan): string => {
    const known = path.get(span.spanId);
    if (known !== undefined) return known;
    const parent = byId.get(span.parentSpanId);
    const own = `${span.name}#${String(span.attributes['agentmark.row.index'] ?? '')}.${String(span.attributes['agentmark.row.repeat'] ?? '')}`;
    const full = parent ? `${pathOf(parent)}/${own}` : own;
    path.set(span.spanId, full);
    return full;
  };
  return spans
    .map((span) => {
      const { 'langfuse.experiment.item.root_observation_id': _root, ...attributes } = span.attributes;
      return { path: pathOf(span), kind: span.kind, startMs: span.startMs, endMs: span.endMs, attributes, events: span.events, status: span.status };
    })
    .sort((a, b) => a.path.localeCompare(b.path));
}
