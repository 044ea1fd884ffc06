/**
 * Who a ledger writer is, and whether it provably still runs. A writer is recorded with its pid,
 * host name, boot id (/proc/sys/kernel/random/boot_id), PID namespace (the /proc/self/ns/pid link,
 * e.g. `pid:[4026531836]`) and start time (field 22 of /proc/<pid>/stat, clock ticks after boot).
 *
 * A writer is **dead** only when that is proven: same host, same boot and same PID namespace as
 * this process, and its pid no longer exists, is a zombie, or started at another time (the pid
 * was reused). It is **alive** when its pid runs with the recorded start time (a stopped process,
 * Ctrl-Z, is alive). Everything else is **unknown** (another host, another boot, another PID
 * namespace such as a container, an unreadable /proc, a row written before these columns): it is
 * treated as alive. The age of a heartbeat never decides.
 */
import { readFileSync, readlinkSync } from 'node:fs';
import os from 'node:os';

/** The identity of a writer process, as the lock and writers tables record it. */
export interface WriterIdentity {
  pid: number;
  host: string;
  boot_id: string | null;
  pid_ns: string | null;
  start_time: string | null;
}

/** Whether a recorded writer still runs, and why it was judged so (for messages). */
export interface OwnerState {
  state: 'alive' | 'dead' | 'unknown';
  why: string;
}

const read = (f: string): string | null => {
  try {
    return readFileSync(f, 'utf8').trim();
  } catch {
    return null;
  }
};

/** State (field 3) and start time (field 22) of /proc/<pid>/stat; null when unreadable. */
function procStat(pid: number | 'self'): { state: string; startTime: string } | null {
  const text = read(`/proc/${pid}/stat`);
  if (text === null) return null;
  // Field 2 is the command name in parentheses and may hold spaces or ')': count after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const startTime = fields[22 - 3];
  return startTime === undefined ? null : { state: fields[0]!, startTime };
}

let self: WriterIdentity | null = null;

/** This process's identity (read once). */
export function selfIdentity(): WriterIdentity {
  if (self) return self;
  let ns: string | null = null;
  try {
    ns = readlinkSync('/proc/self/ns/pid');
  } catch {
    /* no /proc (not Linux) or not readable */
  }
  self = {
    pid: process.pid,
    host: os.hostname(),
    boot_id: read('/proc/sys/kernel/random/boot_id'),
    pid_ns: ns,
    start_time: procStat('self')?.startTime ?? null,
  };
  return self;
}

/** Whether `pid` exists in this PID namespace (EPERM: it exists, owned by another user). */
function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the writer `w` still runs. `liveHere`: whether a writer of this very process holds it
 * (this process is alive, but the writer may have ended).
 */
export function ownerState(w: WriterIdentity, liveHere: boolean): OwnerState {
  const me = selfIdentity();
  if (w.host !== me.host) return { state: 'unknown', why: `it runs on another host (${w.host})` };
  if (w.start_time === null || w.pid_ns === null || w.boot_id === null) {
    if (me.pid_ns !== null || w.pid_ns !== null)
      return {
        state: 'unknown',
        why: 'its PID namespace and start time are not recorded (an earlier stimkit, or no /proc where it ran)',
      };
    // A system without PID namespaces or /proc (macOS): a pid that no longer exists is proof.
    return pidExists(w.pid)
      ? { state: 'unknown', why: `pid ${w.pid} exists (its start time cannot be read here)` }
      : { state: 'dead', why: `pid ${w.pid} no longer exists` };
  }
  if (me.boot_id !== w.boot_id)
    return {
      state: 'unknown',
      why: `it ran under another boot of ${w.host} (boot id ${w.boot_id}): a reboot, or another machine of the same name`,
    };
  if (me.pid_ns !== w.pid_ns)
    return {
      state: 'unknown',
      why: `it runs in another PID namespace (${w.pid_ns}; this process: ${me.pid_ns ?? 'unknown'}), e.g. in a container, where its pid cannot be checked from here`,
    };
  return sameNamespace(w, liveHere);
}

/** The judgement for a writer on this host, boot and PID namespace. */
function sameNamespace(w: WriterIdentity, liveHere: boolean): OwnerState {
  const me = selfIdentity();
  if (w.pid === me.pid && w.start_time === me.start_time)
    return liveHere
      ? { state: 'alive', why: 'it is this process' }
      : { state: 'dead', why: 'it was this process, which has since ended that writing' };
  if (!pidExists(w.pid)) return { state: 'dead', why: `pid ${w.pid} no longer exists` };
  const stat = procStat(w.pid);
  if (stat === null)
    return pidExists(w.pid)
      ? { state: 'unknown', why: `/proc/${w.pid}/stat cannot be read` }
      : { state: 'dead', why: `pid ${w.pid} no longer exists` };
  if (stat.state === 'Z' || stat.state === 'X')
    return { state: 'dead', why: `pid ${w.pid} has exited` };
  if (stat.startTime !== w.start_time)
    return { state: 'dead', why: `pid ${w.pid} is now another process (another start time)` };
  return {
    state: 'alive',
    why: `pid ${w.pid} is running${stat.state === 'T' ? ' (stopped, e.g. Ctrl-Z: it resumes with fg)' : ''}`,
  };
}
