/**
 * Ctrl-C while requests are out, the same for respondents and judges: the first SIGINT stops
 * sending (nothing new is claimed) and aborts what is in flight after a grace period, the
 * second at once. An aborted request comes back `interrupted` and is recorded so; the ledger
 * stays consistent and a rerun resumes.
 */

/** What a send loop reads to stop: set once Ctrl-C was pressed; `abort` cuts the requests in flight. */
export interface Interrupt {
  stopping: boolean;
  abort: AbortController;
}

/** Exit code of a command stopped with Ctrl-C (128 + SIGINT). */
export const EXIT_INTERRUPTED = 130;

/** Default wait for requests in flight after the first Ctrl-C (ms). */
const DEFAULT_GRACE_MS = 30_000;

/**
 * Watch SIGINT until the returned function is called: the first sets `stopping` and aborts the
 * requests in flight after `graceMs`, the second aborts them at once. `say` tells the user.
 */
export function watchSigint(
  state: Interrupt,
  graceMs = DEFAULT_GRACE_MS,
  say?: (line: string) => void,
  command = 'stimkit run',
): () => void {
  let presses = 0;
  const onSigint = () => {
    presses++;
    state.stopping = true;
    say?.(
      `\n${command}: stopping — no new requests; waiting up to ${Math.round(graceMs / 1000)} s for those in flight (Ctrl-C again to abort them)\n`,
    );
    if (presses > 1) state.abort.abort();
    else setTimeout(() => state.abort.abort(), graceMs).unref();
  };
  process.on('SIGINT', onSigint);
  return () => process.off('SIGINT', onSigint);
}
