/** Helpers of the release tests: the fixture study's three models, simulated, and the release command. */
import { writeFile } from 'node:fs/promises';
import { stringify } from 'yaml';

/** Write it to `file`; returns `file`. */
export async function writeSimModels(file: string): Promise<string> {
  await writeFile(
    file,
    stringify({
      format: 'stimkit.models',
      version: 1,
      models: ['model-a', 'model-b', 'model-c'].map((name, i) => ({
        name,
        provider: 'sim',
        sim: { seed: i + 1 },
        origin: 'FR',
      })),
    }),
  );
  return file;
}

/** The arguments of `stimkit release … --json` for these inputs. */
export const releaseArgs = (o: {
  bundle: string;
  ledger: string;
  scores: string;
  meta: string;
  out: string;
}): string[] =>
  [
    ['release', '--bundle', o.bundle, '--ledger', o.ledger, '--scores', o.scores],
    ['--meta', o.meta, '--out', o.out, '--json'],
  ].flat();
