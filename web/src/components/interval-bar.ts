import { html } from 'htm/preact';
import type { VNode } from 'preact';
import { percent } from '../format.js';

/** A rate in [0, 1] with its 95% interval drawn as a band on a 0–100% track. */
export function IntervalBar({ value, interval, label }: { value: number; interval?: [number, number]; label: string }): VNode {
  const [low, high] = interval ?? [value, value];
  const text = interval ? `${label}: ${percent(value)}, 95% interval ${percent(low)} to ${percent(high)}` : `${label}: ${percent(value)}`;
  return html`<svg class="interval-bar" viewBox="0 0 100 10" preserveAspectRatio="none" role="img" aria-label=${text}>
    <title>${text}</title>
    <rect class="track" x="0" y="3" width="100" height="4" rx="2"></rect>
    <rect class="band" x=${low * 100} y="1" width=${Math.max((high - low) * 100, 0.5)} height="8" rx="1"></rect>
    <rect class="point" x=${Math.min(value * 100, 99.2) - 0.4} y="0" width="1.6" height="10"></rect>
  </svg>`;
}
