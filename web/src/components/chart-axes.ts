import { html } from 'htm/preact';
import type { VNode } from 'preact';

/** A chart's plot box inside its SVG viewBox (user units, drawn 1:1 with CSS pixels at full width). */
export interface PlotBox {
  width: number;
  height: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

export interface Tick {
  /** Position along the axis, in viewBox units. */
  at: number;
  text: string;
  anchor?: 'start' | 'middle' | 'end';
}

/** The two axes of a plot box, their ticks and their titles, shared by the charts. */
export function Axes({ box, x, y, xTitle, yTitle }: { box: PlotBox; x: Tick[]; y: Tick[]; xTitle: string; yTitle: string }): VNode {
  return html`<g class="axes">
    ${y.map((t) => html`<line class="grid" x1=${box.left} x2=${box.right} y1=${t.at} y2=${t.at}></line>
      <text class="tick" x=${box.left - 4} y=${t.at + 3.5} text-anchor="end">${t.text}</text>`)}
    <line class="axis x-axis" x1=${box.left} x2=${box.right} y1=${box.bottom} y2=${box.bottom}></line>
    <line class="axis y-axis" x1=${box.left} x2=${box.left} y1=${box.top} y2=${box.bottom}></line>
    ${x.map((t) => html`<text class="tick" x=${t.at} y=${box.bottom + 12} text-anchor=${t.anchor ?? 'middle'}>${t.text}</text>`)}
    <text class="axis-title x-title" x=${(box.left + box.right) / 2} y=${box.height - 3} text-anchor="middle">${xTitle}</text>
    <text class="axis-title y-title" transform=${`translate(10 ${(box.top + box.bottom) / 2}) rotate(-90)`} text-anchor="middle">${yTitle}</text>
  </g>`;
}
