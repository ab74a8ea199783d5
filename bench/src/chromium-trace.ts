import type { CDPSession } from 'playwright-core';

/** An event of a Chromium trace (the fields the benchmarks read). */
export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  /** Thread (CPU) time, µs. */
  tdur?: number;
  args?: { name?: string };
}

/**
 * Starts a Chromium trace of the page's tasks (the timeline category: every task a thread runs);
 * the function returned ends it and gives its events.
 */
export async function startTrace(cdp: CDPSession): Promise<() => Promise<TraceEvent[]>> {
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (data) => events.push(...(data.value as unknown as TraceEvent[])));
  await cdp.send('Tracing.start', {
    categories: 'devtools.timeline,disabled-by-default-devtools.timeline,toplevel,__metadata',
    transferMode: 'ReportEvents',
  });
  return async () => {
    const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
    await cdp.send('Tracing.end');
    await complete;
    return events;
  };
}

/** The events of the renderer's main thread (`CrRendererMain`) in the trace. */
export function rendererMainEvents(events: readonly TraceEvent[]): TraceEvent[] {
  const main = events.find((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain');
  if (!main) throw new Error('The trace names no renderer main thread.');
  return events.filter((event) => event.pid === main.pid && event.tid === main.tid);
}

/** Whether an event is one task the thread ran (`RunTask`, a complete event). */
export function isTask(event: TraceEvent): boolean {
  return event.ph === 'X' && event.name === 'RunTask';
}
