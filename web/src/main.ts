import { html } from 'htm/preact';
import { render } from 'preact';
import { App } from './app.js';
import { httpSource } from './data/http-source.js';
import { inlineSource, readInlineData } from './data/inline-source.js';
import type { DataSource } from './data/source.js';
import './style.css';

/** A single-file report carries its data in #agentmark-data; the served app asks the API. */
async function start(): Promise<void> {
  const root = document.getElementById('app');
  if (!root) return;
  const inline = document.getElementById('agentmark-data');
  let source: DataSource;
  let home: string | undefined;
  if (inline) {
    const data = await readInlineData(inline);
    source = inlineSource(data);
    home = data.run.manifest.id;
  } else source = httpSource();
  render(html`<${App} source=${source} home=${home} />`, root);
}

void start();
