import { useEffect, useState } from 'preact/hooks';

/** The width under which pages stack their tables into cards (as style.css's media queries). */
export const NARROW = '(max-width: 40rem)';

/** Whether the window is narrow (a phone), following it as it is resized. */
export function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => matchMedia(NARROW).matches);
  useEffect(() => {
    const query = matchMedia(NARROW);
    const follow = (): void => setNarrow(query.matches);
    query.addEventListener('change', follow);
    follow();
    return () => query.removeEventListener('change', follow);
  }, []);
  return narrow;
}
