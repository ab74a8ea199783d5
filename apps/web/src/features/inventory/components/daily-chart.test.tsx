// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { DailyChart } from './daily-chart';

const DAY = 86_400_000;
/** Five days from 10 November 2026 (UTC); the third has no value. */
const days = [4, 7, null, 2, 9].map((value, index) => ({ timestamp: Date.UTC(2026, 10, 10) + index * DAY, value }));

function renderAt(phone: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: phone,
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
  render(
    <DailyChart title="Out of stock" testId="oos" days={days} format={(value) => `${value} slots`} tone="danger" />,
  );
  const chart = screen.getByRole('img', { name: 'Out of stock' });
  const texts = (className: string) => Array.from(chart.querySelectorAll(`.${className}`), (text) => text.textContent);
  return { chart, labels: texts('inv-daily__label'), values: texts('inv-daily__value') };
}

describe('DailyChart', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('labels every day and every bar on a wide screen', () => {
    const { chart, labels, values } = renderAt(false);
    expect(chart.getAttribute('viewBox')).toBe('0 0 560 180');
    expect(labels).toEqual(['10/11', '11/11', '12/11', '13/11', '14/11']);
    expect(values).toEqual(['4 slots', '7 slots', '2 slots', '9 slots']);
  });

  it('on a phone draws at about its shown width: every second day labelled up to the last, values in titles', () => {
    const { chart, labels, values } = renderAt(true);
    expect(chart.getAttribute('viewBox')).toBe('0 0 340 180');
    expect(labels).toEqual(['10/11', '12/11', '14/11']);
    expect(values).toEqual([]);
    expect(Array.from(chart.querySelectorAll('title'), (title) => title.textContent)).toEqual([
      '10/11: 4 slots',
      '11/11: 7 slots',
      '12/11: no data',
      '13/11: 2 slots',
      '14/11: 9 slots',
    ]);
  });
});
