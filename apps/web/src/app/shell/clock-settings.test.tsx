// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { appStore, setClockPreferences } from '../../lib/app-store/app-store';
import { EMPTY_TOAST_QUEUE } from '../../lib/app-store/toast-queue';
import { ClockSettings } from './clock-settings';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** Each `PUT /user` as sent, answered when the test says: by its field's name. */
let pending: { props: Record<string, unknown>; answer: (status: number) => void }[] = [];

beforeEach(() => {
  setClockPreferences({ timeZone: null, hourCycle: null, dateOrder: null });
  // The web files share one store (\`isolate: false\`): another file's toasts would fill the three shown.
  appStore.setState((s) => ({ ...s, toasts: EMPTY_TOAST_QUEUE }));
  pending = [];
  vi.stubGlobal('fetch', (_url: string, init: RequestInit) => {
    const { props } = JSON.parse(String(init.body)) as { props: Record<string, unknown> };
    return new Promise<Response>((resolve) => {
      pending.push({
        props,
        answer: (status) =>
          resolve(
            new Response(JSON.stringify(status === 200 ? {} : { error: 'Bad Request', message: 'Not saved.' }), {
              status,
              headers: { 'content-type': 'application/json' },
            }),
          ),
      });
    });
  });
});
afterEach(() => {
  // An unanswered call would hold the next test's: this tab's calls go one at a time.
  for (const call of pending) call.answer(200);
  cleanup();
  vi.unstubAllGlobals();
});

const choose = (label: RegExp, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const clock = () => appStore.getState().session.clock;

describe('the account menu’s clock', () => {
  it('saves each choice by itself, naming only its field, one call after another', async () => {
    render(<ClockSettings email="viewer@fieldlink.test" />);
    choose(/^Time zone/, 'Europe/London');
    choose(/^Hours/, '24');
    choose(/^Dates/, 'dmy');
    expect(clock()).toEqual({ timeZone: 'Europe/London', hourCycle: '24', dateOrder: 'dmy' });
    // The server drops an update overtaken by a later one of the tab: the next call waits for the answer.
    await waitFor(() => expect(pending).toHaveLength(1));
    pending[0]!.answer(200);
    await waitFor(() => expect(pending).toHaveLength(2));
    pending[1]!.answer(200);
    await waitFor(() => expect(pending).toHaveLength(3));
    expect(pending.map((call) => call.props)).toEqual([
      { timeZone: 'Europe/London' },
      { hourCycle: '24' },
      { dateOrder: 'dmy' },
    ]);
  });

  it('puts back only the choice whose save failed, and still sends the later ones', async () => {
    render(<ClockSettings email="viewer@fieldlink.test" />);
    choose(/^Time zone/, 'Europe/London');
    choose(/^Hours/, '24');
    choose(/^Dates/, 'dmy');
    await waitFor(() => expect(pending).toHaveLength(1));
    pending[0]!.answer(400);
    await waitFor(() => expect(clock().timeZone).toBeNull());
    await waitFor(() => expect(pending).toHaveLength(2));
    pending[1]!.answer(200);
    await waitFor(() => expect(pending).toHaveLength(3));
    pending[2]!.answer(200);
    expect(appStore.getState().toasts.visible.map((toast) => toast.message)).toContain('Not saved.');
    expect(pending.map((call) => call.props)).toEqual([
      { timeZone: 'Europe/London' },
      { hourCycle: '24' },
      { dateOrder: 'dmy' },
    ]);
    expect(clock()).toEqual({ timeZone: null, hourCycle: '24', dateOrder: 'dmy' });
  });

  it('keeps a field chosen again while its first save was under way', async () => {
    render(<ClockSettings email="viewer@fieldlink.test" />);
    choose(/^Hours/, '24');
    choose(/^Hours/, '12');
    await waitFor(() => expect(pending).toHaveLength(1));
    pending[0]!.answer(400);
    const toasts = () => appStore.getState().toasts.visible.map((toast) => toast.message);
    await waitFor(() => expect(toasts()).toContain('Not saved.'));
    await waitFor(() => expect(pending).toHaveLength(2));
    pending[1]!.answer(200);
    expect(clock().hourCycle).toBe('12');
  });
});
