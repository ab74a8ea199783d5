// @vitest-environment happy-dom
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { realtimeRequest, stopRealtime, watchDevices } from './realtime-connection';
import { realtimeStore } from './realtime-store';
import { AnsweringSocket, openRealtime, resetSentRequests } from './fixtures';
import { useDeviceConfig, useDeviceConnection, useDisconnectedCount } from './use-realtime';

/**
 * A browser hands each WebSocket message to the page in a task of its own. The console applies the
 * messages that came before the next animation frame as one store change: a page renders once per
 * burst, not once per message.
 */

const DEVICES = Array.from({ length: 10 }, (_, index) => `PUMP_${index}`);
const FLEET = DEVICES.map((thingName) => ({ thingName, isConnected: true }));
const renders = { summary: 0, rows: 0 };

function Summary() {
  renders.summary += 1;
  return <p>{useDisconnectedCount(FLEET)} disconnected</p>;
}

function Row({ thingName }: { thingName: string }) {
  renders.rows += 1;
  const connection = useDeviceConnection(thingName);
  const config = useDeviceConfig(thingName);
  return (
    <li>
      {thingName} {connection?.isConnected ? 'Online' : 'Offline'} {config?.uploadInterval}
    </li>
  );
}

/** The page's animation frames, run by the test. */
let frames: FrameRequestCallback[] = [];
const runFrame = () =>
  act(() => {
    const due = frames;
    frames = [];
    for (const callback of due) callback(0);
  });
/** One task of its own, as a browser gives each socket message (not a timer: those are faked). */
const nextTask = () => new Promise<void>((resolve) => setImmediate(resolve));

beforeEach(async () => {
  resetSentRequests();
  vi.stubGlobal('WebSocket', AnsweringSocket);
  await openRealtime();
  frames = [];
  vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
  // The hidden tab's timer must not flush between the messages: time stands still here.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  stopRealtime();
  vi.unstubAllGlobals();
});

describe('a burst of real-time messages', () => {
  it('renders the page once, however many messages came in their own tasks', async () => {
    const stopWatching = watchDevices(DEVICES);
    // The subscription's reply (this fake server sends no state with it): the pushes come after.
    await nextTask();
    render(
      <>
        <Summary />
        <ul>
          {DEVICES.map((thingName) => (
            <Row key={thingName} thingName={thingName} />
          ))}
        </ul>
      </>,
    );
    renders.summary = 0;
    renders.rows = 0;

    for (const [index, thingName] of DEVICES.entries()) {
      AnsweringSocket.latest!.push({
        type: 'server/connectionState',
        thingName,
        isConnected: index % 3 !== 0,
        lastConnection: 1,
        lastDisconnection: null,
      });
      await nextTask();
      for (const uploadInterval of [30, 60]) {
        AnsweringSocket.latest!.push({
          type: 'server/deviceConfig',
          thingName,
          config: { subtype: 'device', uploadInterval },
        });
        await nextTask();
      }
    }
    // Nothing is applied before the frame.
    expect(realtimeStore.getState().connection).toEqual({});
    expect(renders).toEqual({ summary: 0, rows: 0 });

    runFrame();
    expect(renders).toEqual({ summary: 1, rows: DEVICES.length });
    expect(document.body.textContent).toContain('4 disconnected');
    expect(document.body.textContent).toContain('PUMP_1 Online 60');
    stopWatching();
  });

  it('has a subscription’s states in the store when its reply settles, before any frame', async () => {
    const stopWatching = watchDevices(['PUMP_1']);
    await nextTask();
    const reply = realtimeRequest({ type: 'server/subscribeDevices', thingNames: ['PUMP_1'] });
    // The server sends the state before the reply (the fake socket answers in a microtask).
    AnsweringSocket.latest!.push({
      type: 'server/connectionState',
      thingName: 'PUMP_1',
      isConnected: false,
      lastConnection: 1,
      lastDisconnection: 2,
    });
    await reply;
    expect(realtimeStore.getState().connection.PUMP_1?.isConnected).toBe(false);
    stopWatching();
  });
});
