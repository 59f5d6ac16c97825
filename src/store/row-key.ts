/** The identity of one row × repeat, used to skip finished work on resume. */
export function rowKey(index: number, repeat: number): string {
  return `${index}:${repeat}`;
}
