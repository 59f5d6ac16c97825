/** A response body that is JSON text already (the store's view index): sent as it is, not written again. */
export class JsonText {
  constructor(readonly text: string) {}
}
