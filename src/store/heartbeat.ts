/**
 * A `running` run in the team store whose writer has not been heard from for this long (no batch
 * of rows, no heartbeat) is read as `abandoned`: its process was killed (`kill -9`, a machine that
 * died) or has lost the database for that long. It is shown so, and never picked as a baseline;
 * `run-experiment --resume <run>` where it ran, or `runs push` of the finished local run, makes
 * it live again and completes it. The clock is the database's (both the heartbeat and the look
 * at it), so machines whose clocks disagree agree on it.
 */
export const ABANDONED_AFTER_MS = 120_000;

/**
 * How often a streaming writer refreshes its run's heartbeat when it has no rows to send (each
 * batch of rows refreshes it too): eight beats are missed before the run is read as abandoned.
 */
export const HEARTBEAT_EVERY_MS = 15_000;
