// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Batch } from '@fieldlink/api/brew';
import { GravityPanel, TastingPanel } from './batch-panels';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const NOW = new Date(2026, 10, 29, 14, 30).getTime();
const START = new Date(2026, 10, 20, 8, 0).getTime();

const batch = (changes: Partial<Batch> = {}): Batch =>
  ({
    id: 'batch-1',
    deviceId: 'device-1',
    state: 'FERMENTING',
    date: { start: START, end: null },
    props: { beerName: 'Cellar Pils', style: '', originalGravity: 1.048, targetGravity: null, notes: '' },
    gravities: [{ id: 'g1', value: 1.031, timestamp: START + 86_400_000, createdBy: 'brew@fieldlink.test' }],
    sensories: [
      {
        id: 's1',
        aroma: 4,
        flavor: 4,
        mouthfeel: 3,
        appearance: 4,
        overall: 4,
        carbonation: 3,
        notes: 'Crisp',
        timestamp: START + 2 * 86_400_000,
      },
    ],
    annotations: [],
    ...changes,
  }) as unknown as Batch;

/** The calls that left for the server: method, path and body. */
let sent: { method: string; url: string; body: unknown }[] = [];

function renderPanel(panel: React.ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(<QueryClientProvider client={client}>{panel}</QueryClientProvider>);
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  sent = [];
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    sent.push({ method: init.method ?? 'GET', url: String(url), body: JSON.parse(String(init.body ?? 'null')) });
    return Promise.resolve(
      new Response(JSON.stringify(batch()), { status: 200, headers: { 'content-type': 'application/json' } }),
    );
  });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

// Issue 36 item 5: an entry form that says why, takes a time, and asks before deleting.
describe('the gravity reading form', () => {
  const value = () => screen.getByRole('textbox', { name: 'Gravity reading' });
  const time = () => screen.getByLabelText('Time taken') as HTMLInputElement;
  const add = () => screen.getByRole('button', { name: 'Add reading' }) as HTMLButtonElement;

  it('shows the time taken as now, and sends no time when it is left as now', async () => {
    renderPanel(<GravityPanel batch={batch()} canEdit />);
    expect(time().value).toBe('2026-11-29T14:30');
    fireEvent.change(value(), { target: { value: '1.012' } });
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(add());
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ method: 'PUT', body: { batchId: 'batch-1', value: 1.012 } });
    expect(sent[0]!.body).not.toHaveProperty('timestamp');
  });

  it('sends the time the brewer gives', async () => {
    renderPanel(<GravityPanel batch={batch()} canEdit />);
    fireEvent.change(value(), { target: { value: '1.020' } });
    fireEvent.change(time(), { target: { value: '2026-11-28T09:15' } });
    fireEvent.click(add());
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.body).toEqual({
      batchId: 'batch-1',
      value: 1.02,
      timestamp: new Date(2026, 10, 28, 9, 15).getTime(),
    });
  });

  it.each([
    ['1.5', '1.5 is outside the gravities of wort and beer: 0.980 to 1.200.'],
    ['0.9', '0.9 is outside the gravities of wort and beer: 0.980 to 1.200.'],
    ['1,012', 'A gravity is a number such as 1.012 (0.980 to 1.200).'],
  ])('says why %s cannot be added', (typed, reason) => {
    renderPanel(<GravityPanel batch={batch()} canEdit />);
    fireEvent.change(value(), { target: { value: typed } });
    expect(screen.getByRole('alert').textContent).toBe(reason);
    expect(value().getAttribute('aria-invalid')).toBe('true');
    expect(add().disabled).toBe(true);
  });

  it.each([
    ['before the batch started', '2026-11-19T23:00', 'The time lies before the batch started.'],
    ['in the future', '2026-11-30T09:00', 'The time lies in the future.'],
  ])('says why a time %s cannot be taken', (_, typed, reason) => {
    renderPanel(<GravityPanel batch={batch()} canEdit />);
    fireEvent.change(value(), { target: { value: '1.012' } });
    fireEvent.change(time(), { target: { value: typed } });
    expect(screen.getByRole('alert').textContent).toBe(reason);
    expect(add().disabled).toBe(true);
  });

  it('asks before deleting a reading: Cancel keeps it, Delete sends the delete', async () => {
    renderPanel(<GravityPanel batch={batch()} canEdit />);
    fireEvent.click(screen.getByRole('button', { name: 'Delete reading 1.0310' }));
    const dialog = screen.getByRole('dialog', { name: /^Delete the reading 1\.0310 of / });
    expect(sent).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(sent).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Delete reading 1.0310' }));
    await act(async () => {
      fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).toEqual([
      { method: 'DELETE', url: expect.stringContaining('/brew/batch/gravity'), body: { batchId: 'batch-1', id: 'g1' } },
    ]);
  });
});

describe('the tasting notes', () => {
  it('asks before deleting a note and names it by its time', async () => {
    renderPanel(<TastingPanel batch={batch()} canEdit />);
    const button = screen.getByRole('button', { name: /^Delete tasting note of / });
    fireEvent.click(button);
    const dialog = screen.getByRole('dialog', { name: /^Delete the tasting note of / });
    expect(sent).toEqual([]);
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    });
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ method: 'DELETE', body: { batchId: 'batch-1', id: 's1' } });
  });
});
