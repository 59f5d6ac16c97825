import { useEffect, useRef } from 'preact/hooks';
import type { ReviewEval } from '../api.js';
import type { LabelValue } from './use-labelling.js';

export interface QueueKeyActions {
  next(): void;
  previous(): void;
  label(value: LabelValue): void;
  note(): void;
  undo(): void;
  back(): void;
  /** A key that means nothing for this eval (e.g. 7 on a pass/fail eval). */
  refused(message: string): void;
}

/**
 * What a digit means for an eval: 1 / 0 pass / fail on a boolean score; the number itself on a
 * numeric one (within its min and max); the n-th category (from 1) on a categorical one.
 */
export function digitValue(spec: ReviewEval, digit: number): { value: LabelValue } | { problem: string } {
  if (spec.kind === 'boolean') return digit === 1 ? { value: true } : digit === 0 ? { value: false } : { problem: `${spec.name} is pass/fail: 1 or 0` };
  if (spec.kind === 'categorical') {
    const category = spec.categories?.[digit - 1];
    return category !== undefined ? { value: category } : { problem: `${spec.name} has ${spec.categories?.length ?? 0} labels: keys 1 to ${spec.categories?.length ?? 0}` };
  }
  if ((spec.min !== undefined && digit < spec.min) || (spec.max !== undefined && digit > spec.max)) return { problem: `${spec.name} scores from ${spec.min ?? '-∞'} to ${spec.max ?? '∞'}` };
  return { value: digit };
}

function typing(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT' || target.isContentEditable);
}

/** The queue's keys: j / k move, a digit labels (1 / 0 pass / fail), n notes, u undoes, Esc goes back. */
export function useQueueKeys(spec: ReviewEval | undefined, actions: QueueKeyActions): void {
  const current = useRef({ spec, actions });
  current.current = { spec, actions };
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const { spec: s, actions: a } = current.current;
      if (event.key === 'Escape') {
        if (typing(event.target)) (event.target as HTMLElement).blur();
        else a.back();
        return;
      }
      if (typing(event.target)) return;
      if (/^[0-9]$/.test(event.key) && s) {
        event.preventDefault();
        const meant = digitValue(s, Number(event.key));
        if ('problem' in meant) a.refused(meant.problem);
        else a.label(meant.value);
        return;
      }
      const action = { j: a.next, k: a.previous, n: a.note, u: a.undo }[event.key];
      if (action) {
        event.preventDefault();
        action();
      }
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, []);
}
