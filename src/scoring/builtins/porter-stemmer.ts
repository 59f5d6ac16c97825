/**
 * The Porter stemmer as NLTK 3.8's `PorterStemmer()` runs it (its default NLTK_EXTENSIONS mode:
 * the irregular-forms pool, words of two letters or fewer kept, and its changes to steps 1a, 1b,
 * 1c and 2), so `meteor` with `stem` matches the stems NLTK's meteor_score matches. Input is
 * expected lower-case (the tokenizer lowers it).
 */

const POOL: Record<string, string> = {
  sky: 'sky', skies: 'sky', dying: 'die', lying: 'lie', tying: 'tie', news: 'news', innings: 'inning', inning: 'inning',
  outings: 'outing', outing: 'outing', cannings: 'canning', canning: 'canning', howe: 'howe', proceed: 'proceed',
  exceed: 'exceed', succeed: 'succeed',
};

type Condition = ((stem: string) => boolean) | null;
type Rule = [suffix: string, replacement: string, condition: Condition];

function isConsonant(word: string, i: number): boolean {
  const c = word[i] as string;
  if ('aeiou'.includes(c)) return false;
  if (c === 'y') return i === 0 ? true : !isConsonant(word, i - 1);
  return true;
}

/** m in [C](VC)^m[V]: how many vowel-consonant transitions the stem has. */
function measure(stem: string): number {
  let count = 0;
  for (let i = 1; i < stem.length; i++) if (!isConsonant(stem, i - 1) && isConsonant(stem, i)) count++;
  return count;
}

const positive = (stem: string): boolean => measure(stem) > 0;
const above1 = (stem: string): boolean => measure(stem) > 1;

function containsVowel(stem: string): boolean {
  for (let i = 0; i < stem.length; i++) if (!isConsonant(stem, i)) return true;
  return false;
}

function endsDoubleConsonant(word: string): boolean {
  return word.length >= 2 && word[word.length - 1] === word[word.length - 2] && isConsonant(word, word.length - 1);
}

function endsCvc(word: string): boolean {
  const n = word.length;
  return (
    (n >= 3 && isConsonant(word, n - 3) && !isConsonant(word, n - 2) && isConsonant(word, n - 1) && !'wxy'.includes(word[n - 1] as string)) ||
    (n === 2 && !isConsonant(word, 0) && isConsonant(word, 1))
  );
}

/** The first rule whose suffix the word ends with decides: applied if its condition holds, else the word is kept. */
function applyRules(word: string, rules: Rule[]): string {
  for (const [suffix, replacement, condition] of rules) {
    if (suffix === '*d' && endsDoubleConsonant(word)) {
      const stem = word.slice(0, -2);
      return condition === null || condition(stem) ? stem + replacement : word;
    }
    if (word.endsWith(suffix)) {
      const stem = suffix === '' ? word : word.slice(0, -suffix.length);
      return condition === null || condition(stem) ? stem + replacement : word;
    }
  }
  return word;
}

function step1a(word: string): string {
  if (word.endsWith('ies') && word.length === 4) return `${word.slice(0, -3)}ie`;
  return applyRules(word, [['sses', 'ss', null], ['ies', 'i', null], ['ss', 'ss', null], ['s', '', null]]);
}

function step1b(word: string): string {
  if (word.endsWith('ied')) return word.length === 4 ? `${word.slice(0, -3)}ie` : `${word.slice(0, -3)}i`;
  if (word.endsWith('eed')) {
    const stem = word.slice(0, -3);
    return measure(stem) > 0 ? `${stem}ee` : word;
  }
  let intermediate: string | undefined;
  for (const suffix of ['ed', 'ing']) {
    if (word.endsWith(suffix)) {
      const stem = word.slice(0, -suffix.length);
      if (containsVowel(stem)) {
        intermediate = stem;
        break;
      }
    }
  }
  if (intermediate === undefined) return word;
  const last = intermediate[intermediate.length - 1] as string;
  return applyRules(intermediate, [
    ['at', 'ate', null],
    ['bl', 'ble', null],
    ['iz', 'ize', null],
    ['*d', last, () => !'lsz'.includes(last)],
    ['', 'e', (stem) => measure(stem) === 1 && endsCvc(stem)],
  ]);
}

function step1c(word: string): string {
  return applyRules(word, [['y', 'i', (stem) => stem.length > 1 && isConsonant(stem, stem.length - 1)]]);
}

function step2(word: string): string {
  if (word.endsWith('alli') && positive(word.slice(0, -4))) return step2(`${word.slice(0, -4)}al`);
  const rules: Rule[] = [
    ['ational', 'ate', positive], ['tional', 'tion', positive], ['enci', 'ence', positive], ['anci', 'ance', positive],
    ['izer', 'ize', positive], ['bli', 'ble', positive], ['alli', 'al', positive], ['entli', 'ent', positive],
    ['eli', 'e', positive], ['ousli', 'ous', positive], ['ization', 'ize', positive], ['ation', 'ate', positive],
    ['ator', 'ate', positive], ['alism', 'al', positive], ['iveness', 'ive', positive], ['fulness', 'ful', positive],
    ['ousness', 'ous', positive], ['aliti', 'al', positive], ['iviti', 'ive', positive], ['biliti', 'ble', positive],
    ['fulli', 'ful', positive], ['logi', 'log', () => positive(word.slice(0, -3))],
  ];
  return applyRules(word, rules);
}

function step3(word: string): string {
  return applyRules(word, [
    ['icate', 'ic', positive], ['ative', '', positive], ['alize', 'al', positive], ['iciti', 'ic', positive],
    ['ical', 'ic', positive], ['ful', '', positive], ['ness', '', positive],
  ]);
}

function step4(word: string): string {
  return applyRules(word, [
    ['al', '', above1], ['ance', '', above1], ['ence', '', above1], ['er', '', above1], ['ic', '', above1],
    ['able', '', above1], ['ible', '', above1], ['ant', '', above1], ['ement', '', above1], ['ment', '', above1],
    ['ent', '', above1], ['ion', '', (stem) => measure(stem) > 1 && 'st'.includes(stem[stem.length - 1] ?? '-')],
    ['ou', '', above1], ['ism', '', above1], ['ate', '', above1], ['iti', '', above1], ['ous', '', above1],
    ['ive', '', above1], ['ize', '', above1],
  ]);
}

function step5a(word: string): string {
  if (!word.endsWith('e')) return word;
  const stem = word.slice(0, -1);
  const m = measure(stem);
  return m > 1 || (m === 1 && !endsCvc(stem)) ? stem : word;
}

function step5b(word: string): string {
  return applyRules(word, [['ll', 'l', () => measure(word.slice(0, -1)) > 1]]);
}

export function porterStem(word: string): string {
  const pooled = POOL[word];
  if (pooled !== undefined && Object.hasOwn(POOL, word)) return pooled;
  if (word.length <= 2) return word;
  return step5b(step5a(step4(step3(step2(step1c(step1b(step1a(word))))))));
}
