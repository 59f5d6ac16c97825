import { html } from 'htm/preact';
import type { VNode } from 'preact';
import type { Interval } from '../api.js';
import { pointsInterval, signedPoints } from '../compare-format.js';

/**
 * A difference head − base and its interval on a scale symmetric around zero (`scale` is the
 * largest |value| shown, shared by every eval on the page so bars compare). Left of the zero
 * line is worse.
 */
export function DifferenceBar({ estimate, interval, scale, label }: { estimate: number; interval: Interval | undefined; scale: number; label: string }): VNode {
  const x = (d: number): number => 50 + (Math.max(-scale, Math.min(scale, d)) / scale) * 48;
  const [low, high] = interval ?? [estimate, estimate];
  const text = `${label}: ${signedPoints(estimate)} points, 95% interval ${pointsInterval(interval)}`;
  const tone = high < 0 ? 'worse' : low > 0 ? 'better' : 'unclear';
  return html`<svg class=${`difference-bar ${tone}`} viewBox="0 0 100 10" preserveAspectRatio="none" role="img" aria-label=${text}>
    <title>${text}</title>
    <rect class="track" x="0" y="4" width="100" height="2"></rect>
    <rect class="band" x=${x(low)} y="1.5" width=${Math.max(x(high) - x(low), 0.5)} height="7" rx="1"></rect>
    <rect class="zero" x="49.8" y="0" width="0.4" height="10"></rect>
    <rect class="point" x=${x(estimate) - 0.6} y="0" width="1.2" height="10"></rect>
  </svg>`;
}
