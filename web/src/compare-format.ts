// The CLI's compare report's own number formatting, shared so that the page and the terminal
// cannot drift apart (the browser test checks the page's text against these functions too).
// Pure functions with one type import: nothing of the CLI comes with them into the bundle.
export { formatP, pointsInterval, signedPoints, valueWithInterval } from '../../src/report/compare/format-numbers.js';
