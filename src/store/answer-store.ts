/**
 * The shared response cache's storage (`cache: "store"`): entries by key, each written once. An
 * entry is the JSON text the local cache writes as a line; the key's first hex digit is its
 * segment, loaded whole on first use as the local cache reads a segment file.
 */
export interface AnswerStore {
  /** Every entry of one segment (keys starting with `digit`), key to entry text. */
  segment(digit: string): Promise<Map<string, string>>;
  /** One entry, or undefined. */
  get(key: string): Promise<string | undefined>;
  /** Stores an entry; a key already stored keeps its first entry (two writers: one row). */
  put(key: string, entry: string): Promise<void>;
  close(): Promise<void>;
}
