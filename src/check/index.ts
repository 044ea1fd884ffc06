/** `stimkit check`: validate any stimkit data file by its format. */
export { checkFiles } from './check.js';
export { FORMATS } from './registry.js';
export { checkHuman, checkJson } from './summary.js';
