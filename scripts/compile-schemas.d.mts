// Types of compile-schemas.mjs, for the test that checks the generated files are up to date.

export interface SchemaTarget {
  /** The JSON schema, relative to the package root. */
  schema: string;
  /** The generated module, relative to the package root. */
  out: string;
  exportName: string;
  /** The ajv options the validator is compiled with. */
  options: Record<string, unknown>;
}

export interface GeneratedFile {
  /** Relative to the package root. */
  path: string;
  code: string;
}

export const TARGETS: readonly SchemaTarget[];

/** The generated files, by path relative to `root` (the package root by default); nothing is written. */
export function generateValidators(root?: string): GeneratedFile[];
