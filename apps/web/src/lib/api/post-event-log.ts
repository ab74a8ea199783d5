import type { EventLogBody } from '@fieldlink/api/session';
import { apiPost } from '../api-client';

/** Reports a crash (specification §7). Never throws: a crash report must not cause another crash. */
export async function postEventLog(body: EventLogBody): Promise<void> {
  try {
    await apiPost<unknown>('/event-log', body);
  } catch (error) {
    console.error('event log could not be posted', error);
  }
}
