// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { OfflineValue } from '@fieldlink/domain/offline-values';
import type { LastValuesRecord } from '../../../lib/offline/last-values-storage';
import { OfflineScreen } from './offline-screen';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

afterEach(cleanup);

// 30 Nov 2026 10:00 UTC; the user's clock is UTC, 24 h, day first.
const now = Date.UTC(2026, 10, 30, 10, 0, 0);
const value = (over: Partial<OfflineValue>): OfflineValue => ({
  thingName: 'pump-1',
  deviceName: 'North pump',
  code: 'c1',
  channelName: 'Pressure',
  units: 'bar',
  value: 4.2,
  t: now - 12 * 60_000,
  ...over,
});
const kept = (values: OfflineValue[]): LastValuesRecord => ({
  userId: 'user-1',
  savedAt: now - 11 * 60_000,
  clock: { timeZone: 'UTC', hourCycle: '24', dateOrder: 'dmy' },
  values,
});

function renderScreen(record: LastValuesRecord | null, retrying = false) {
  const onRetry = vi.fn();
  render(
    <OfflineScreen
      productName="Fieldlink"
      since={now - 3 * 60_000}
      kept={record}
      now={now}
      retrying={retrying}
      onRetry={onRetry}
    />,
  );
  return { onRetry };
}

const rows = () =>
  within(screen.getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));

describe('OfflineScreen', () => {
  it('says the console is offline, since when, that it tries again, and retries on request', () => {
    const { onRetry } = renderScreen(kept([value({})]));
    expect(screen.getByRole('heading', { level: 1, name: 'You are offline' })).toBeTruthy();
    expect(screen.getByTestId('offline-since').textContent).toBe(
      'No connection to the server since 30/11/26 09:57 (3 min ago).',
    );
    expect(screen.getByText(/Trying again every 15 s; the console carries on by itself/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Retry now' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('shows a try under way', () => {
    renderScreen(null, true);
    expect(screen.getByText('Trying again…')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Retry now' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it.each<[string, OfflineValue, string[]]>([
    ['a quantity with its unit', value({}), ['North pump', 'Pressure', '4.2 bar', '12 min ago']],
    [
      'a value past 15 min, stale',
      value({ t: now - 20 * 60_000 }),
      ['North pump', 'Pressure', '4.2 bar', '20 min ago Stale'],
    ],
    ['a fresh value', value({ t: now - 42_000 }), ['North pump', 'Pressure', '4.2 bar', '42 s ago']],
    [
      'a value without a unit',
      value({ code: 'c2', channelName: 'Ch_2', units: null, value: 17, t: now - 3 * 3_600_000 }),
      ['North pump', 'Ch_2', '17', '3 h ago Stale'],
    ],
    [
      'a value from two days ago',
      value({ t: now - 2 * 86_400_000 }),
      ['North pump', 'Pressure', '4.2 bar', '2 d ago Stale'],
    ],
  ])('lists %s with its age', (_label, shown, expected) => {
    renderScreen(kept([shown]));
    expect(rows()).toEqual([expected]);
    expect(screen.getByText('Saved on this browser 30/11/26 09:49. Not live.')).toBeTruthy();
  });

  it('lists every kept value in the order kept', () => {
    renderScreen(
      kept([
        value({ deviceName: 'Boiler', thingName: 'boiler', t: now - 2000 }),
        value({ code: 'c2', channelName: 'Flow', units: 'm³/h', value: 12.5, t: now - 60_000 }),
      ]),
    );
    expect(rows()).toEqual([
      ['Boiler', 'Pressure', '4.2 bar', 'just now'],
      ['North pump', 'Flow', '12.5 m³/h', '1 min ago'],
    ]);
  });

  it.each<[string, LastValuesRecord | null]>([
    ['nothing kept', null],
    ['a record without values', kept([])],
  ])('says so when there are no values (%s)', (_label, record) => {
    renderScreen(record);
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByText(/No values were kept on this browser yet/)).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'You are offline' })).toBeTruthy();
  });
});
