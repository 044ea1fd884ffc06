/**
 * Progress of a long run, on stderr: a cli-progress bar on a terminal, otherwise a line every
 * 10 % of the entries (and at least every 30 s), so logs of batch jobs stay short.
 */
import type * as CliProgress from 'cli-progress';
import { lazyRequire } from '../core/lazy.js';

/** cli-progress, loaded when a bar is drawn (on a terminal): a pipe or a log never needs it. */
const cliProgress = lazyRequire<typeof CliProgress>('cli-progress');

/** One finished entry. */
interface ProgressEvent {
  done: number;
  total: number;
  entry: string;
  status: 'ok' | 'failed' | 'skipped';
}

/** A progress sink: `start` with the number of entries, `update` per finished entry, `stop` at the end. */
export interface Progress {
  start(total: number): void;
  update(event: ProgressEvent): void;
  stop(): void;
}

/** Progress on `stream` (a TTY gets a bar), or periodic lines through `write`. */
export function createProgress(
  label: string,
  write: (text: string) => void,
  stream?: NodeJS.WriteStream,
): Progress {
  if (stream?.isTTY) {
    const { SingleBar, Presets } = cliProgress();
    const bar = new SingleBar(
      {
        stream,
        format: `${label} [{bar}] {value}/{total} entries | {entry}`,
        hideCursor: true,
        clearOnComplete: true,
      },
      Presets.shades_classic,
    );
    let started = false;
    return {
      start: (total) => {
        bar.start(total, 0, { entry: '' });
        started = true;
      },
      update: (e) => {
        if (!started) bar.start(e.total, 0, { entry: '' });
        started = true;
        bar.update(e.done, { entry: `${e.entry} ${e.status}` });
      },
      stop: () => {
        if (started) bar.stop();
      },
    };
  }
  let lastTenth = 0;
  let lastTime = Date.now();
  let failed = 0;
  return {
    start: (total) => {
      if (total > 0) write(`${label}: ${total} entries to do\n`);
    },
    update: (e) => {
      if (e.status === 'failed') failed++;
      const tenth = Math.floor((10 * e.done) / e.total);
      const now = Date.now();
      if (tenth > lastTenth || now - lastTime > 30_000 || e.done === e.total) {
        lastTenth = tenth;
        lastTime = now;
        write(`${label}: ${e.done}/${e.total} entries${failed ? ` (${failed} failed)` : ''}\n`);
      }
    },
    stop: () => undefined,
  };
}
