// A resolver for eslint-plugin-boundaries (eslint-module-utils resolver interface v2): source
// files import each other by the compiled name (`./x.js`); this finds the `./x.ts` beside it.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

exports.interfaceVersion = 2;

/** Resolves a relative import to its `.ts` source; anything else is left to Node. */
exports.resolve = (source, file) => {
  if (!source.startsWith('.')) return { found: false };
  const target = path.resolve(path.dirname(file), source);
  for (const candidate of [target.replace(/\.js$/, '.ts'), target]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) {
      return { found: true, path: candidate };
    }
  }
  return { found: false };
};
