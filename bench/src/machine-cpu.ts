import fs from 'node:fs';

/**
 * CPU use of the whole machine over a window, split by who spent it, from /proc. The machine may be
 * shared (other builds and tests running), so the benchmark shows what else competed for the cores.
 */
export interface MachineCpu {
  /** Cores busy on average, all processes (user, system, interrupts, steal). */
  busyCores: number;
  /** Cores idle while waiting for the disk. */
  ioWaitCores: number;
  /** Cores used by the processes named in `startMachineCpu`. */
  byProcess: Record<string, number>;
  /** Cores used by PostgreSQL server processes (command name `postgres`). */
  postgresCores: number;
  /** Cores used by everything else. */
  otherCores: number;
}

// Linux reports process CPU time in clock ticks of 1/100 s (CLK_TCK is 100 on every mainstream build).
const TICKS_PER_SECOND = 100;

interface Snapshot {
  at: number;
  busyTicks: number;
  ioWaitTicks: number;
  totalTicks: number;
  processes: Map<number, { command: string; ticks: number }>;
}

function readProcesses(): Map<number, { command: string; ticks: number }> {
  const processes = new Map<number, { command: string; ticks: number }>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command is in parentheses and may itself hold spaces or parentheses.
      const close = stat.lastIndexOf(')');
      const command = stat.slice(stat.indexOf('(') + 1, close);
      const fields = stat.slice(close + 2).split(' ');
      // Fields after the command start at field 3 (state); utime and stime are fields 14 and 15.
      processes.set(Number(entry), { command, ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // The process ended while the directory was read.
    }
  }
  return processes;
}

function snapshot(): Snapshot | null {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const [, user, nice, system, idle, ioWait, irq, softIrq, steal] = line.trim().split(/\s+/).map(Number);
    const busyTicks = (user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softIrq ?? 0) + (steal ?? 0);
    return {
      at: performance.now(),
      busyTicks,
      ioWaitTicks: ioWait ?? 0,
      totalTicks: busyTicks + (idle ?? 0) + (ioWait ?? 0),
      processes: readProcesses(),
    };
  } catch {
    return null; // not Linux
  }
}

/**
 * Starts measuring; the returned function answers the machine's CPU use since then, with the named
 * processes (`{ server: pid }`) apart. Null where /proc is not available.
 */
export function startMachineCpu(cores: number, named: Record<string, number | undefined>): () => MachineCpu | null {
  const start = snapshot();
  return () => {
    const end = snapshot();
    if (!start || !end || end.totalTicks === start.totalTicks) return null;
    const seconds = (end.at - start.at) / 1000;
    const coresOf = (pid: number) => {
      const after = end.processes.get(pid);
      if (!after) return 0;
      const before = start.processes.get(pid)?.ticks ?? 0;
      return (after.ticks - before) / TICKS_PER_SECOND / seconds;
    };
    const byProcess: Record<string, number> = {};
    for (const [name, pid] of Object.entries(named)) byProcess[name] = pid === undefined ? 0 : coresOf(pid);
    let postgresCores = 0;
    for (const [pid, process] of end.processes) if (process.command === 'postgres') postgresCores += coresOf(pid);
    const total = end.totalTicks - start.totalTicks;
    const busyCores = ((end.busyTicks - start.busyTicks) / total) * cores;
    const ours = Object.values(byProcess).reduce((sum, value) => sum + value, 0) + postgresCores;
    return {
      busyCores,
      ioWaitCores: ((end.ioWaitTicks - start.ioWaitTicks) / total) * cores,
      byProcess,
      postgresCores,
      otherCores: Math.max(0, busyCores - ours),
    };
  };
}
