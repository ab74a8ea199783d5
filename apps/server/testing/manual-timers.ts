import type { Timer, Timers } from '../src/timers';

interface Pending {
  due: number;
  order: number;
  task: () => void;
}

/**
 * Timers on a clock that moves only when the test moves it: a timer runs inside {@link advance}, at
 * its due time, never by itself. A test of a delay says "not yet" one millisecond before it and "now"
 * at it, instead of sleeping and timing.
 */
export class ManualTimers implements Timers {
  private time = 0;
  private scheduled = 0;
  private pending: Pending[] = [];

  now(): number {
    return this.time;
  }

  setTimeout(task: () => void, ms: number): Timer {
    const entry: Pending = { due: this.time + Math.max(0, ms), order: (this.scheduled += 1), task };
    this.pending.push(entry);
    return {
      cancel: () => {
        this.pending = this.pending.filter((other) => other !== entry);
      },
      unref: () => undefined,
    };
  }

  /** How many timers wait. */
  waiting(): number {
    return this.pending.length;
  }

  /** When the earliest timer is due, or null when none waits. */
  nextDue(): number | null {
    return this.earliest()?.due ?? null;
  }

  /**
   * Moves the clock `ms` on, running each timer that falls due on the way at its own time, in order
   * (timers a task sets run too when they fall within the step). `advance(0)` runs what is due now.
   */
  advance(ms: number): void {
    const end = this.time + ms;
    for (let next = this.earliest(); next && next.due <= end; next = this.earliest()) {
      this.pending = this.pending.filter((other) => other !== next);
      this.time = next.due;
      next.task();
    }
    this.time = end;
  }

  private earliest(): Pending | undefined {
    let earliest: Pending | undefined;
    for (const entry of this.pending)
      if (!earliest || entry.due < earliest.due || (entry.due === earliest.due && entry.order < earliest.order))
        earliest = entry;
    return earliest;
  }
}
