import fs from 'node:fs';
import os from 'node:os';

/** The machine a run measured, as the header of docs/PERFORMANCE.md states it. */
export interface MachineFacts {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
}

function cpuModel(): string {
  try {
    // /proc/cpuinfo names the model even where os.cpus() is empty (some containers).
    const line = fs
      .readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((text) => text.startsWith('model name'));
    if (line) return line.split(':')[1]?.trim() ?? 'unknown';
  } catch {
    // Not Linux: fall back to what Node reports.
  }
  return os.cpus()[0]?.model ?? 'unknown';
}

export function machineFacts(): MachineFacts {
  return {
    cpuModel: cpuModel(),
    cores: os.availableParallelism(),
    memoryGiB: os.totalmem() / 2 ** 30,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
  };
}
