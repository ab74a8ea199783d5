/**
 * Live chart redraws, run in animation frames under a time budget. A scene of two dozen charts can
 * get new samples in the same second; drawing them all in one task could block input, so each frame
 * draws until the budget is spent and leaves the rest to the next frame (each its own task). Frames
 * also pause in a hidden tab, where drawing is wasted.
 */

/** Drawing time one frame may spend before it yields, ms. */
export const REDRAW_BUDGET_MS = 12;
/**
 * Charts one frame redraws at most. Canvas drawing is mostly rasterised after the script, in the
 * frame's paint, where the time budget cannot see it; a cap per frame spreads that cost too.
 */
export const MAX_REDRAWS_PER_FRAME = 4;

const pending = new Set<() => void>();
let scheduled = false;

function nextFrame(run: () => void): void {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(run);
  else setTimeout(run, 16);
}

function drain(): void {
  scheduled = false;
  const started = performance.now();
  let drawn = 0;
  for (const job of pending) {
    pending.delete(job);
    job();
    drawn += 1;
    if (pending.size > 0 && (drawn >= MAX_REDRAWS_PER_FRAME || performance.now() - started > REDRAW_BUDGET_MS)) break;
  }
  if (pending.size > 0) {
    scheduled = true;
    nextFrame(drain);
  }
}

/** Runs `job` in a coming frame; a job scheduled again before it ran runs once. */
export function scheduleRedraw(job: () => void): void {
  pending.add(job);
  if (scheduled) return;
  scheduled = true;
  nextFrame(drain);
}

/** Forgets a job that has not run (its chart is gone). */
export function cancelRedraw(job: () => void): void {
  pending.delete(job);
}
