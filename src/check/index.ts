/** `stimkit check`: validate any stimkit data file by its format. */
export { checkFiles, type CheckResult, type FileCheck } from './check.js';
export { FORMATS, formatCheck, type FormatCheck } from './registry.js';
export { checkHuman, checkJson } from './summary.js';
