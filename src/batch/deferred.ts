/** Thrown out of a call whose request went into a request file instead: its row waits for the job's answer. */
export class Deferred extends Error {}
