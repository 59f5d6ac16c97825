import { useEffect, useRef } from 'preact/hooks';

export interface KeyActions {
  next?: () => void;
  previous?: () => void;
  open?: () => void;
  search?: () => void;
  back?: () => void;
}

function typing(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT' || target.isContentEditable);
}

/**
 * j / k move between rows, Enter opens, / searches, Esc goes back (or leaves the search box).
 * Keys typed into a field are the field's, except Esc.
 */
export function useKeys(actions: KeyActions): void {
  const current = useRef(actions);
  current.current = actions;
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const a = current.current;
      if (event.key === 'Escape') {
        if (typing(event.target)) (event.target as HTMLElement).blur();
        else a.back?.();
        return;
      }
      if (typing(event.target)) return;
      // Enter on a link or button is that control's own.
      if (event.key === 'Enter' && event.target instanceof HTMLElement && (event.target.tagName === 'A' || event.target.tagName === 'BUTTON')) return;
      const action = { j: a.next, k: a.previous, Enter: a.open, '/': a.search }[event.key];
      if (action) {
        event.preventDefault();
        action();
      }
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, []);
}
