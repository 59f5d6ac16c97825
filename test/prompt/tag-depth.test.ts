import { describe, expect, it } from 'vitest';
import { tagsTooDeepAt } from '../../src/prompt/tag-depth.js';

const nest = (depth: number, open = '<If condition={true}>', close = '</If>'): string => `${open.repeat(depth)}x${close.repeat(depth)}`;

describe('tagsTooDeepAt', () => {
  it('returns the offset of the first tag past the limit, or undefined within it', () => {
    expect(tagsTooDeepAt(nest(3), 3)).toBeUndefined();
    expect(tagsTooDeepAt(nest(4), 3)).toBe(3 * '<If condition={true}>'.length);
    expect(tagsTooDeepAt(nest(4, '<>', '</>'), 3)).toBe(6);
  });

  it('counts siblings, self-closing tags and closed tags as no deeper', () => {
    expect(tagsTooDeepAt('<a>1</a><b>2</b><c>3</c><d/><Card title="x" />'.repeat(100), 1)).toBeUndefined();
  });

  it('reads `>` inside attribute values as part of the tag', () => {
    expect(tagsTooDeepAt('<If condition={props.a > 1 && props.b > "x>"}><b title="a>b">y</b></If>', 2)).toBeUndefined();
    expect(tagsTooDeepAt('<If condition={props.a > 1}><b title="a>b"><i>y</i></b></If>', 2)).toBe(43);
  });

  it('ignores tags in fenced and inline code', () => {
    const code = `\`\`\`html\n${'<div>'.repeat(50)}\n\`\`\`\nand \`${'<span>'.repeat(50)}\` inline\n`;
    expect(tagsTooDeepAt(code, 2)).toBeUndefined();
    expect(tagsTooDeepAt(`${code}<a><b><c>x</c></b></a>`, 2)).toBe(code.length + 6);
  });

  // How long the scan takes is measured by the bench (`npm run bench -- --only bounds`).
  it('finds the first tag past the limit in 50,000 nested tags', () => {
    expect(tagsTooDeepAt(nest(50_000), 256)).toBe(256 * '<If condition={true}>'.length);
  });
});
