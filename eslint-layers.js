// @ts-check
// The layers of src/ as two ESLint rules (eslint.config.js gives them the list of layers):
//
// - `layers/dependencies`: a file of src/<folder>/ imports from its own folder and from folders of
//   lower layers only, never from a higher layer or from a sibling folder of its own layer. Every
//   relative module specifier counts: `import` (types too), `export … from`, `import()` and
//   `import('…').T` in a type. Bare specifiers (packages, node:) are not layers.
// - `layers/no-unknown-files`: every file under src/ sits in the folder of a layer.
//
// Written here rather than with eslint-plugin-boundaries, which did the same with a general
// element and policy matcher: it took a quarter of the lint's rule time (5.9 of 23 s from a fresh
// clone), more than any type-checked rule. A specifier is resolved by path alone, as Node.js
// resolves a relative one: the first folder under src/ of the file it names is its layer.
import path from 'node:path';

/**
 * @typedef {{ layers: string[][], alsoAllow?: Record<string, string[]> }} Options
 * @typedef {import('eslint').Rule.RuleModule} RuleModule
 * @typedef {import('eslint').Rule.RuleContext} RuleContext
 */

/** The options' JSON schema, the same for both rules. */
const SCHEMA = [
  {
    type: 'object',
    properties: {
      layers: { type: 'array', items: { type: 'array', items: { type: 'string' } } },
      alsoAllow: {
        type: 'object',
        additionalProperties: { type: 'array', items: { type: 'string' } },
      },
    },
    required: ['layers'],
    additionalProperties: false,
  },
];

/**
 * The folder of src/ that `file` is in: its first path segment under src/, '' for a file directly
 * in src/, undefined outside src/.
 * @param {string} file
 * @param {string} src
 */
function folderOf(file, src) {
  const rel = path.relative(src, file);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  const parts = rel.split(path.sep);
  return parts.length > 1 ? parts[0] : '';
}

/**
 * The options, each folder's layer (its index in the list, bottom first) and the linted file's folder.
 * @param {RuleContext} context
 */
function setting(context) {
  const options = /** @type {Options} */ (context.options[0]);
  const rank = new Map(options.layers.flatMap((layer, i) => layer.map((f) => [f, i])));
  const src = path.join(context.cwd, 'src');
  return { options, rank, src, from: folderOf(context.filename, src) };
}

/** @type {RuleModule} */
const dependencies = {
  meta: {
    type: 'problem',
    docs: { description: 'imports point down the layers of src/ (docs/DESIGN.md, "Layers")' },
    schema: SCHEMA,
    messages: {
      upward:
        'src/{{from}} (layer {{fromLayer}}) imports src/{{to}} (layer {{toLayer}}), a higher layer: move the shared piece down to a layer both can import',
      sibling:
        'src/{{from}} imports src/{{to}}, a sibling in its own layer: move the shared piece down to a lower layer',
      unknown:
        'src/{{from}} imports "{{specifier}}", which is not in a folder of a layer of src/: import from a layer, or add the folder to the layers',
    },
  },
  create(context) {
    const { options, rank, src, from } = setting(context);
    const fromLayer = from === undefined ? undefined : rank.get(from);
    if (from === undefined || fromLayer === undefined) return {}; // no-unknown-files says so
    const also = options.alsoAllow?.[from] ?? [];
    /** @param {import('estree').Node | null | undefined} node */
    const check = (node) => {
      if (node?.type !== 'Literal' || typeof node.value !== 'string') return;
      const specifier = node.value;
      if (!specifier.startsWith('.')) return;
      const to = folderOf(path.resolve(path.dirname(context.filename), specifier), src);
      if (to === from) return;
      const toLayer = to === undefined ? undefined : rank.get(to);
      if (to === undefined || toLayer === undefined) {
        context.report({ node, messageId: 'unknown', data: { from, specifier } });
      } else if (toLayer >= fromLayer && !also.includes(to)) {
        const data = { from, to, fromLayer: String(fromLayer + 1), toLayer: String(toLayer + 1) };
        context.report({ node, messageId: toLayer === fromLayer ? 'sibling' : 'upward', data });
      }
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      // `import('../x.js').T` in a type (typescript-eslint's TSImportType: its `source`).
      /** @param {any} node */
      TSImportType: (node) => check(node.source),
    };
  },
};

/** @type {RuleModule} */
const noUnknownFiles = {
  meta: {
    type: 'problem',
    docs: { description: 'every file of src/ sits in the folder of a layer' },
    schema: SCHEMA,
    messages: {
      unknown:
        '{{file}} is not in a folder of a layer of src/: move it into one, or add its folder to the layers in eslint.config.js and docs/DESIGN.md',
    },
  },
  create(context) {
    const { rank, from } = setting(context);
    if (from === undefined || rank.has(from)) return {};
    const file = path.relative(context.cwd, context.filename).split(path.sep).join('/');
    return { Program: (node) => context.report({ node, messageId: 'unknown', data: { file } }) };
  },
};

/** The plugin: `plugins: { layers }`, rules `layers/dependencies` and `layers/no-unknown-files`. */
export const layers = {
  meta: { name: 'stimkit-layers' },
  rules: { dependencies, 'no-unknown-files': noUnknownFiles },
};
