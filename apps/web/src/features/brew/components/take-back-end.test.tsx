// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { BrewBatchesAnswer, Tank } from '@fieldlink/api/brew';
import { SIGNED_OUT_SESSION, appStore } from '../../../lib/app-store/app-store';
import { brewBatchesQuery } from '../api/get-brew-batches';
import { FinishedBatches } from './batch-panels';

type Summary = BrewBatchesAnswer['batches'][number];

const GROUP = 'group-1';
const finished = (id: string, deviceId: string, tankNumber: number, beerName: string, end: number): Summary => ({
  id,
  deviceId,
  tankNumber,
  tankName: `Fermenter FV${tankNumber}`,
  state: 'MANUALLY_ENDED',
  date: { start: end - 86_400_000, end },
  props: { beerName, style: '', originalGravity: null, targetGravity: null, notes: '' },
  lastGravity: null,
  sensoryCount: 0,
  isDemo: false,
  latestReport: null,
});
const tank = (deviceId: string, running: string | null) =>
  ({ deviceId, batchInfo: running === null ? null : { id: running } }) as unknown as Tank;

function renderList(permissions: string[], tanks: Tank[], batches: Summary[]) {
  appStore.setState((state) => ({
    ...state,
    session: { ...SIGNED_OUT_SESSION, email: 'brew@fieldlink.test', permissions },
  }));
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(brewBatchesQuery(GROUP).queryKey, { batches });
  return render(
    <QueryClientProvider client={client}>
      <FinishedBatches groupId={GROUP} tanks={tanks} />
    </QueryClientProvider>,
  );
}

// Issue 35 item 8: a brewer takes back the end of a tank's last batch from the finished list.
describe('Take back end in the finished batches', () => {
  const batches = [
    finished('b2', 'd1', 1, 'Pale Ale', 2_000_000_000_000),
    finished('b1', 'd1', 1, 'Stout', 1_900_000_000_000),
  ];

  beforeEach(() => appStore.setState((state) => ({ ...state, session: SIGNED_OUT_SESSION })));
  afterEach(cleanup);

  it('is offered with END_BREW on the idle tank’s newest batch only', () => {
    renderList(['VIEW_DASH', 'END_BREW'], [tank('d1', null)], batches);
    const buttons = screen.getAllByRole('button', { name: /Take back end of/ });
    expect(buttons.map((button) => button.getAttribute('aria-label'))).toEqual(['Take back end of Pale Ale']);
  });

  it.each([
    ['without END_BREW', ['VIEW_DASH', 'EDIT_BREW_INFO'], null],
    ['when the tank runs another batch', ['VIEW_DASH', 'END_BREW'], 'b3'],
  ])('is not offered %s', (_name, permissions, running) => {
    renderList(permissions, [tank('d1', running)], batches);
    expect(screen.getByText('Pale Ale')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Take back/ })).toBeNull();
  });

  it('asks first, naming the batch and its tank, and Cancel leaves it ended', () => {
    renderList(['ADMIN'], [tank('d1', null)], batches);
    fireEvent.click(screen.getByRole('button', { name: 'Take back end of Pale Ale' }));
    const dialog = screen.getByRole('dialog', { name: 'Take back this end?' });
    expect(dialog.textContent).toContain('Pale Ale runs again in tank 1 · Fermenter FV1');
    expect(within(dialog).getByRole('button', { name: 'Take back end' })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'Take back end of Pale Ale' })).toBeTruthy();
  });
});
