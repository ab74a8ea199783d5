import { describe, expect, it } from 'vitest';
import { appStore, reportChangeFailure } from './app-store';

describe('reportChangeFailure: the shared handler emits FETCH_POST_FAILURE (core §8)', () => {
  it('records the failure in the session machine and shows its message as an error toast', () => {
    reportChangeFailure('The database is busy.');
    const state = appStore.getState();
    expect(state.machine.failure).toEqual({ message: 'The database is busy.' });
    expect(state.toasts.visible.map(({ kind, message }) => ({ kind, message }))).toEqual([
      { kind: 'error', message: 'The database is busy.' },
    ]);
  });
});
