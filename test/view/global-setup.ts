/**
 * Unpacks the Chromium that @sparticuz/chromium ships (to /tmp/chromium) once, before the test
 * files start: two browser test files unpacking it at the same moment could launch a half-written
 * binary. Later runs find it unpacked and return at once.
 */
export default async function unpackChromium(): Promise<void> {
  const { default: chromium } = await import('@sparticuz/chromium');
  await chromium.executablePath();
}
