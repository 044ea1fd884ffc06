/** Small helpers shared by the segmenters: input checks and a one-at-a-time queue. */
import { StimkitError } from '../../core/errors.js';

/** Throw `E_SEGMENT_INPUT` unless `rgb` is `width·height·3` bytes with positive integer sides. */
export function checkRgb(rgb: Uint8Array, width: number, height: number): void {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw StimkitError.fromProblem({
      code: 'E_SEGMENT_INPUT',
      message: 'image size must be positive integers',
      expected: 'width ≥ 1 and height ≥ 1, integers',
      got: `${width}×${height}`,
      fix: 'pass the A0 width and height',
    });
  }
  if (!(rgb instanceof Uint8Array) || rgb.length !== width * height * 3) {
    throw StimkitError.fromProblem({
      code: 'E_SEGMENT_INPUT',
      message: 'pixels must be 8-bit RGB, row-major, width·height·3 bytes',
      expected: `${width * height * 3} bytes`,
      got: rgb instanceof Uint8Array ? `${rgb.length} bytes` : typeof rgb,
      fix: 'pass A0 pixels without alpha',
    });
  }
}

/** Runs tasks one after another, so that one shared session never runs two inferences at once. */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  /** Run `task` after every task queued before it; a failure does not block later tasks. */
  run<T>(task: () => Promise<T> | T): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
