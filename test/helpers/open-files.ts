/**
 * How many files this process has open (Linux's /proc/self/fd, where the suite runs): a test
 * compares it before and after a command that failed part-way, to show that what the command
 * opened it also closed, instead of leaving a file handle for the garbage collector (Node warns
 * when it closes one itself, and says a later version will throw).
 */
import { readdirSync } from 'node:fs';

export const openFiles = (): number => readdirSync('/proc/self/fd').length;
