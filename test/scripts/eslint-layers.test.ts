/**
 * The lint's layer rules (eslint-layers.js) on small files: every kind of relative specifier that
 * names a higher layer or a sibling is reported, downward and same-folder ones are not, an
 * exception holds only where given, and a file outside every layer's folder is named.
 */
import path from 'node:path';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, it } from 'vitest';
import { layers } from '../../eslint-layers.js';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const LAYERS = [['core'], ['ingest'], ['stimuli', 'variants'], ['run'], ['cli'], ['commands']];
const options = [{ layers: LAYERS }];
/** A file of src/ by its path under src/ (the rules read the layer from it, against the cwd). */
const at = (file: string) => path.join(process.cwd(), 'src', file);

const tester = new RuleTester({ languageOptions: { parser: tseslint.parser } });

tester.run('layers/dependencies', layers.rules.dependencies, {
  valid: [
    // down the layers, within a folder (nested too), packages and node: builtins
    { filename: at('run/a.ts'), options, code: "import { x } from '../core/x.js';" },
    { filename: at('run/deep/a.ts'), options, code: "import { x } from '../../variants/x.js';" },
    { filename: at('variants/ops/a.ts'), options, code: "import { x } from '../entry.js';" },
    {
      filename: at('core/a.ts'),
      options,
      code: "import { z } from 'zod'; import fs from 'node:fs';",
    },
    {
      filename: at('run/a.ts'),
      options,
      code: "export * from '../ingest/x.js'; export { y } from '../core/y.js'; const m = import('./m.js');",
    },
    // the exception, where given
    {
      filename: at('cli/main.ts'),
      options: [{ layers: LAYERS, alsoAllow: { cli: ['commands'] } }],
      code: "import { all } from '../commands/index.js';",
    },
    // a file outside every layer's folder is no-unknown-files' to report
    { filename: at('nowhere/a.ts'), options, code: "import { x } from '../cli/x.js';" },
  ],
  invalid: [
    {
      filename: at('core/a.ts'),
      options,
      code: "import type { T } from '../run/t.js';",
      errors: [
        { messageId: 'upward', data: { from: 'core', to: 'run', fromLayer: '1', toLayer: '4' } },
      ],
    },
    {
      filename: at('ingest/deep/a.ts'),
      options,
      code: [
        "export * from '../../run/a.js';",
        "export { b } from '../../cli/b.js';",
        "const c = import('../../commands/c.js');",
        "type D = import('../../run/d.js').D;",
      ].join('\n'),
      errors: ['upward', 'upward', 'upward', 'upward'].map((messageId) => ({ messageId })),
    },
    {
      filename: at('variants/a.ts'),
      options,
      code: "import { p } from '../stimuli/p.js';",
      errors: [{ messageId: 'sibling', data: { from: 'variants', to: 'stimuli' } }],
    },
    {
      // the exception is cli's alone
      filename: at('run/a.ts'),
      options: [{ layers: LAYERS, alsoAllow: { cli: ['commands'] } }],
      code: "import { all } from '../commands/index.js';",
      errors: [{ messageId: 'upward' }],
    },
    {
      filename: at('core/a.ts'),
      options,
      code: "import { x } from '../nowhere/x.js'; import { y } from '../../package.json';",
      errors: [{ messageId: 'unknown' }, { messageId: 'unknown' }],
    },
  ],
});

tester.run('layers/no-unknown-files', layers.rules['no-unknown-files'], {
  valid: [
    { filename: at('run/deep/a.ts'), options, code: 'export const a = 1;' },
    // outside src/: not the rule's concern
    { filename: path.join(process.cwd(), 'test', 'a.ts'), options, code: 'export const a = 1;' },
  ],
  invalid: [
    {
      filename: at('nowhere/a.ts'),
      options,
      code: 'export const a = 1;',
      errors: [{ messageId: 'unknown', data: { file: 'src/nowhere/a.ts' } }],
    },
    {
      filename: at('a.ts'),
      options,
      code: 'export const a = 1;',
      errors: [{ messageId: 'unknown', data: { file: 'src/a.ts' } }],
    },
  ],
});
