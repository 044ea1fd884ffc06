// Loaded into every Node.js process a test starts when STIMKIT_CPU_LOG is set
// (test/helpers/cpu-log.ts): one line with the process's arguments, written when it starts, so
// that a process killed with SIGKILL is counted too.
import { appendFileSync } from 'node:fs';

const log = process.env.STIMKIT_CPU_LOG;
if (log)
  appendFileSync(
    log,
    `${JSON.stringify({ child: process.pid, argv: process.argv.slice(1, 3) })}\n`,
  );
