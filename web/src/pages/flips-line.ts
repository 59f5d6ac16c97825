import { html } from 'htm/preact';
import type { VNode } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { RunResponse } from '../api.js';
import type { DataSource } from '../data/source.js';
import { href } from '../router.js';

/**
 * How many rows flipped since the previous run of this prompt, each way, with links onwards. htm
 * drops whitespace that holds a line break, so the spaces between the parts are written out.
 */
export function FlipsLine({ flips, previous, id, onShow }: { flips: ReadonlyMap<number, 'pass' | 'fail'>; previous: string; id: string; onShow: () => void }): VNode {
  let toFail = 0;
  for (const to of flips.values()) if (to === 'fail') toFail++;
  return html`<p class="flips" data-testid="flips" aria-live="polite">
    <b><span data-testid="flip-count">${flips.size}</span> row${flips.size === 1 ? '' : 's'} flipped</b> since the previous run of this prompt
    (<a href=${href.run(previous)}>${previous}</a>): <span class="flip-fail" data-testid="to-fail">${toFail}</span> pass → fail,${' '}
    <span class="flip-pass" data-testid="to-pass">${flips.size - toFail}</span> fail → pass.${' '}
    ${flips.size > 0 ? html`<button type="button" onClick=${onShow}>show them</button>` : null}${' '}
    <a href=${href.compare(previous, id)}>compare the two runs</a>
  </p>`;
}

/**
 * The newest run of the same prompt and model started after this one, if any, followed live:
 * when a watch reruns while this page is open, the page points at the rerun.
 */
export function useNewerRun(source: DataSource, run: RunResponse | undefined): string | undefined {
  const [newer, setNewer] = useState<string | undefined>();
  const manifest = run?.manifest;
  useEffect(() => {
    if (!manifest || !source.followRuns) return;
    const check = (): void =>
      void source.listRuns().then((runs) => {
        const found = runs.find((r) => r.id > manifest.id && r.promptPath === manifest.prompt.path && r.model === manifest.model);
        setNewer(found?.id);
      }, () => undefined);
    check();
    return source.followRuns(check);
  }, [manifest?.id]);
  return newer;
}
