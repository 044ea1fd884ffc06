/**
 * Progress of a run: on a TTY a live line per model (cli-progress): done, failed, in flight,
 * rate, ETA, tokens; otherwise a plain line per model every `intervalMs`.
 */
import type * as CliProgress from 'cli-progress';
import { lazyRequire } from '../core/lazy.js';
import { sum, type ModelStats } from './model-stats.js';

/** cli-progress, loaded when a bar is drawn (on a terminal): a pipe or a log never needs it. */
const cliProgress = lazyRequire<typeof CliProgress>('cli-progress');

/** Something that shows progress until stopped. */
export interface Progress {
  stop: () => void;
}

function fields(s: ModelStats) {
  const secs = (performance.now() - s.startedMs) / 1000;
  const rate = secs > 0 ? (s.done + sum(s.failed)) / secs : 0;
  const left = s.pending - s.done - sum(s.failed);
  const eta = rate > 0 ? Math.round(left / rate) : null;
  return {
    rate: rate.toFixed(1),
    eta: eta === null ? '?' : `${eta}s`,
    failed: sum(s.failed),
    inflight: s.inFlight,
    tokens: s.tokens.prompt + s.tokens.completion,
  };
}

/** A plain line for one model. */
export function progressLine(s: ModelStats): string {
  const f = fields(s);
  return `${s.model}: ${s.done + f.failed}/${s.pending} (done ${s.done}, failed ${f.failed}, in flight ${f.inflight}, ${f.rate}/s, ETA ${f.eta}, ${f.tokens} tokens)${s.stopped ? ' STOPPED' : ''}`;
}

/** Start showing progress for `stats` on `stream` (stderr). */
export function startProgress(
  stats: ModelStats[],
  write: (line: string) => void,
  tty: boolean,
  intervalMs = 10_000,
): Progress {
  if (stats.length === 0) return { stop: () => undefined };
  if (tty) {
    const { MultiBar, Presets } = cliProgress();
    const bars = new MultiBar(
      {
        format:
          '{model} {bar} {value}/{total} failed {failed} in flight {inflight} {rate}/s ETA {eta} {tokens} tok',
        barsize: 16,
        hideCursor: true,
        clearOnComplete: false,
        stream: process.stderr,
        fps: 5,
      },
      Presets.shades_classic,
    );
    const width = Math.max(...stats.map((s) => s.model.length));
    const rows = stats.map((s) =>
      bars.create(s.pending, 0, { model: s.model.padEnd(width), ...fields(s) }),
    );
    const tick = setInterval(
      () => stats.forEach((s, i) => rows[i]!.update(s.done + sum(s.failed), fields(s))),
      200,
    );
    return {
      stop: () => {
        clearInterval(tick);
        stats.forEach((s, i) => rows[i]!.update(s.done + sum(s.failed), fields(s)));
        bars.stop();
      },
    };
  }
  const tick = setInterval(
    () => stats.forEach((s) => write(`stimkit run: ${progressLine(s)}\n`)),
    intervalMs,
  );
  tick.unref();
  return { stop: () => clearInterval(tick) };
}
