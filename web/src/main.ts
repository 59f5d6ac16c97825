import { html } from 'htm/preact';
import { render } from 'preact';
import { App } from './app.js';
import { httpSource } from './data/http-source.js';
import { inlineSource, readInlineData } from './data/inline-source.js';
import type { DataSource } from './data/source.js';
import type { Route } from './router.js';
import './style.css';

/** A single-file report carries its data in #agentmark-data; the served app asks the API. */
async function start(): Promise<void> {
  const root = document.getElementById('app');
  if (!root) return;
  const inline = document.getElementById('agentmark-data');
  let source: DataSource;
  let home: Route | undefined;
  if (inline) {
    const data = await readInlineData(inline);
    source = inlineSource(data);
    // A report opens on its comparison, or on its one run.
    const first = data.reports[0]?.run.manifest.id;
    if (data.grid) home = { page: 'grid', ids: data.grid.runs.map((r) => r.id) };
    else if (data.compare) home = { page: 'compare', base: data.compare.base.id, head: data.compare.head.id };
    else if (first !== undefined) home = { page: 'run', id: first };
  } else source = httpSource();
  render(html`<${App} source=${source} home=${home} />`, root);
}

void start();
