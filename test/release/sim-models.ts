/** The models file of the release tests: the fixture study's three models, simulated. */
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
