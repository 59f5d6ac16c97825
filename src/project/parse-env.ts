import { ConfigError } from '../errors/index.js';

const KEY = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const HINT = 'write one KEY=value per line; quote a value that holds # or spans lines ("..." or \'...\'); # starts a comment';

/**
 * Parses a `.env` file the way dotenv reads one: `KEY=value` lines, an optional `export `,
 * `#` comments (inline after whitespace for unquoted values), single, double and backtick
 * quotes (which may span lines; `\n`, `\r`, `\t`, `\"` and `\\` are expanded inside double
 * quotes only). No `$VAR` expansion: a value is taken as written. Errors carry line:col but
 * never the line's text, since it may hold a secret.
 */
export function parseEnv(text: string, file: string): Map<string, string> {
  const entries = new Map<string, string>();
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index] ?? '';
    const lineNo = index + 1;
    const fail = (message: string, column: number) =>
      new ConfigError('CONFIG_ENV_SYNTAX', message, { location: { file, line: lineNo, column }, hint: HINT });
    const trimmed = raw.trimStart();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const indent = raw.length - trimmed.length;
    const statement = trimmed.replace(/^export\s+/, '');
    const statementStart = indent + (trimmed.length - statement.length);
    const equals = statement.indexOf('=');
    if (equals < 0) throw fail('expected KEY=value', statementStart + 1);
    const key = statement.slice(0, equals).trim();
    if (!KEY.test(key)) throw fail(`"${key.slice(0, 40)}" is not a variable name`, statementStart + 1);
    const afterEquals = statement.slice(equals + 1);
    const valueText = afterEquals.trimStart();
    const valueColumn = statementStart + equals + 1 + (afterEquals.length - valueText.length) + 1;
    const quote = valueText[0];
    if (quote === '"' || quote === "'" || quote === '`') {
      // The value runs to the matching quote, possibly on a later line.
      let body = valueText.slice(1);
      let end = closingQuote(body, quote);
      let lastLine = index;
      while (end < 0 && lastLine + 1 < lines.length) {
        lastLine++;
        body += `\n${lines[lastLine] ?? ''}`;
        end = closingQuote(body, quote);
      }
      if (end < 0) throw fail(`the value of ${key} opens a ${quote} quote that is never closed`, valueColumn);
      const rest = body.slice(end + 1).trim();
      if (rest !== '' && !rest.startsWith('#')) {
        throw new ConfigError('CONFIG_ENV_SYNTAX', `unexpected text after the closing quote of ${key}`, {
          location: { file, line: lastLine + 1 },
          hint: HINT,
        });
      }
      const inner = body.slice(0, end);
      entries.set(key, quote === '"' ? unescapeDouble(inner) : inner);
      index = lastLine;
      continue;
    }
    const comment = /\s#/.exec(valueText);
    entries.set(key, (comment ? valueText.slice(0, comment.index) : valueText).trim());
  }
  return entries;
}

/** Index of the first unescaped `quote` in `text`, or -1. */
function closingQuote(text: string, quote: string): number {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\' && quote === '"') {
      i++;
      continue;
    }
    if (text[i] === quote) return i;
  }
  return -1;
}

const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\' };

function unescapeDouble(text: string): string {
  return text.replace(/\\(.)/g, (whole, char: string) => ESCAPES[char] ?? whole);
}
