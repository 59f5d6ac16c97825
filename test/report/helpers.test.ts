import { describe, expect, test } from 'vitest';
import {
  csvEscape,
  formatCost,
  formatDuration,
  formatEvalCell,
  formatPercent,
  renderTable,
  truncate,
  xmlEscape,
} from '../../src/report/index.js';

describe('truncate', () => {
  test('cuts to max characters ending in …', () => {
    expect(truncate('abcdefghij', 5)).toBe('abcd…');
    expect(truncate('abcde', 5)).toBe('abcde');
    expect(truncate('abcdef', 0)).toBe('abcdef');
  });
  test('never splits a surrogate pair', () => {
    expect(truncate('😀😀😀😀', 3)).toBe('😀😀…');
    expect(truncate('😀😀😀', 3)).toBe('😀😀😀');
  });
});

describe('csvEscape', () => {
  test('plain values stay as they are', () => expect(csvEscape('plain text')).toBe('plain text'));
  test('comma, quote and newline are quoted, quotes doubled', () => {
    expect(csvEscape('a,b')).toBe('"a,b"');
    expect(csvEscape('say "hi"')).toBe('"say ""hi"""');
    expect(csvEscape('line1\nline2')).toBe('"line1\nline2"');
    expect(csvEscape('cr\rhere')).toBe('"cr\rhere"');
    expect(csvEscape('')).toBe('');
  });
});

describe('xmlEscape', () => {
  test('escapes the five special characters', () => {
    expect(xmlEscape(`<a href="x">Tom & 'Jerry'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;Tom &amp; &apos;Jerry&apos;&lt;/a&gt;',
    );
  });
  test('drops control characters XML cannot hold, keeps tab and newlines', () => {
    expect(xmlEscape('a\u0000b\u001bc\td\ne')).toBe('abc\td\ne');
  });
});

describe('formatters', () => {
  test('formatDuration', () => {
    expect(formatDuration(0)).toBe('0ms');
    expect(formatDuration(849.6)).toBe('850ms');
    expect(formatDuration(1234)).toBe('1.2s');
    expect(formatDuration(125_000)).toBe('2m 05s');
    expect(formatDuration(3_720_000)).toBe('1h 02m');
    expect(formatDuration(Number.NaN)).toBe('n/a');
  });
  test('formatCost', () => {
    expect(formatCost(0.0123)).toBe('$0.0123');
    expect(formatCost(0)).toBe('$0.0000');
    expect(formatCost(0.00001)).toBe('<$0.0001');
    expect(formatCost(12.5)).toBe('$12.5000');
    expect(formatCost(undefined)).toBe('n/a');
  });
  test('formatPercent', () => {
    expect(formatPercent(2 / 3)).toBe('66.7%');
    expect(formatPercent(1, 0)).toBe('100%');
    expect(formatPercent(undefined)).toBe('n/a');
  });
  test('formatEvalCell', () => {
    expect(formatEvalCell({ score: 0.9, passed: true, reason: 'good' })).toBe('PASS (0.90 - good)');
    expect(formatEvalCell({ score: 0, passed: false, reason: 'bad' })).toBe('FAIL (0.00 - bad)');
    expect(formatEvalCell({ passed: false })).toBe('FAIL');
    expect(formatEvalCell({ score: 1, passed: true })).toBe('PASS (1.00)');
    expect(formatEvalCell({ score: 7, label: 'high', reason: 'z' })).toBe('score: 7, label: high, reason: z');
    expect(formatEvalCell({ label: 'formal' })).toBe('label: formal');
    expect(formatEvalCell({ error: 'scorer threw' })).toBe('ERROR: scorer threw');
    expect(formatEvalCell(undefined)).toBe('-');
  });
  test('renderTable sizes columns to the widest cell', () => {
    expect(renderTable(['a', 'bb'], [['xyz', '😀']])).toBe(
      `┌─────┬────┐
│ a   │ bb │
├─────┼────┤
│ xyz │ 😀  │
└─────┴────┘`,
    );
  });
});
