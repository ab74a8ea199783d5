import { describe, expect, it } from 'vitest';
import { alarmConfigOfForm, alarmFormOf, crossingText } from './alarm-text';

describe('alarm form', () => {
  const form = { enabled: true, high: '30', low: '', hysteresis: '2', delaySeconds: '10', severity: 'MAJOR' as const };
  it.each([
    [form, { ok: true }],
    [
      { ...form, high: 'abc' },
      { ok: false, problem: 'Thresholds must be numbers.' },
    ],
    [
      { ...form, high: '', low: '' },
      { ok: false, problem: 'An enabled alarm needs a high or a low threshold.' },
    ],
    [
      { ...form, low: '40' },
      { ok: false, problem: 'The low threshold must be below the high threshold.' },
    ],
    [{ ...form, hysteresis: '' }, { ok: true }],
  ])('%j -> %j', (input, expected) => expect(alarmConfigOfForm(input, 'd1', 'c1')).toMatchObject(expected));

  it('reads an empty threshold as none', () => {
    const result = alarmConfigOfForm(form, 'd1', 'c1');
    expect(result.ok && result.alarm).toMatchObject({ high: 30, low: null, hysteresis: 2, delaySeconds: 10 });
  });

  it('starts a new alarm enabled, without thresholds', () =>
    expect(alarmFormOf(null, 'c1')).toEqual({
      enabled: true,
      high: '',
      low: '',
      hysteresis: '0',
      delaySeconds: '0',
      severity: 'MAJOR',
    }));

  it.each([
    [{ code: 'c1', units: '°C', value: 51.26, side: 'HIGH' as const, threshold: 50 }, '51.3 °C above 50 °C'],
    [{ code: 'a1', units: '', value: -2.5, side: 'LOW' as const, threshold: -2 }, '-2.5 below -2'],
  ])('%j reads %s', (alarm, expected) => expect(crossingText(alarm)).toBe(expected));
});
