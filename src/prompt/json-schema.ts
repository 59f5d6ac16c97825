/** A JSON Schema object as written in frontmatter; validated by ajv, never interpreted here. */
export type JSONSchema7 = { [key: string]: unknown };
