function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Where two JSON values first differ (`$.a[2].b`), or undefined when they are equal. Key order
 * never matters; array order does. A path is more useful in a reason than a bare "not equal".
 */
export function firstDifference(actual: unknown, expected: unknown, path = '$'): string | undefined {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return path;
    for (let i = 0; i < expected.length; i++) {
      const diff = firstDifference(actual[i], expected[i], `${path}[${i}]`);
      if (diff !== undefined) return diff;
    }
    return undefined;
  }
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) return path;
    const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
    for (const key of keys) {
      if (!(key in actual) || !(key in expected)) return `${path}.${key}`;
      const diff = firstDifference(actual[key], expected[key], `${path}.${key}`);
      if (diff !== undefined) return diff;
    }
    return undefined;
  }
  return Object.is(actual, expected) || actual === expected ? undefined : path;
}

export function deepEqual(actual: unknown, expected: unknown): boolean {
  return firstDifference(actual, expected) === undefined;
}

export { isPlainObject };
