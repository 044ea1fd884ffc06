/**
 * `npm run stimuli`: rewrite the stimulus files derived from others (the JSON Schemas in
 * manifests/schema/ and the zh-Hant drafts) where they differ. Tests fail while one is stale.
 */
import path from 'node:path';
import { emitError, processIo } from '../src/cli/output.js';
import { writeIfChanged } from '../src/core/fsio.js';
import { derivedStimulusFiles } from '../src/stimuli/generate.js';

try {
  for (const { file, text } of await derivedStimulusFiles()) {
    const written = await writeIfChanged(file, text);
    process.stderr.write(
      `${written ? 'wrote' : 'unchanged'} ${path.relative(process.cwd(), file)}\n`,
    );
  }
} catch (err) {
  process.exitCode = emitError(processIo, false, err);
}
