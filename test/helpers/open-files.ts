/**
 * The file handles this process holds on one file (Linux's /proc/self/fd, where the suite runs): a
 * test reads it after a command that failed part-way, to show that the file the command opened it
 * also closed, instead of leaving the handle for the garbage collector (Node warns when it closes
 * one itself, and says a later version will throw). Only handles on that file count: the process's
 * other descriptors come and go with whatever else it is doing (sockets, pipes, a previous test
 * file's servers closing), which made a count of all of them fail on a busy machine.
 */
import { readdirSync, readlinkSync, realpathSync } from 'node:fs';

export function openHandlesTo(file: string): number {
  const target = realpathSync(file);
  let n = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) === target) n++;
    } catch {
      // closed between the listing and the read
    }
  }
  return n;
}
