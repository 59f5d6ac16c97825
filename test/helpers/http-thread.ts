import { afterAll, beforeAll, expect } from 'vitest';
import { sendingFromThread, useHttpThread } from '../../src/model/index.js';

/**
 * In the calling `describe`: requests go out from the HTTP worker thread when `threaded`, from
 * the main thread otherwise (checked, so a missing worker bundle cannot pass for the thread).
 */
export function sendRequestsFromThread(threaded: boolean): void {
  let release: (() => void) | undefined;
  beforeAll(() => {
    if (threaded) release = useHttpThread();
    expect(sendingFromThread()).toBe(threaded);
  });
  afterAll(() => release?.());
}
