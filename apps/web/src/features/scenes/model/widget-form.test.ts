import { describe, expect, it } from 'vitest';
import {
  draftOfForm,
  draftOfWidget,
  formOfDraft,
  hasErrors,
  newWidgetDraft,
  validateWidgetForm,
  type FormType,
} from './widget-form';
import { widget } from './fixtures';

const gauge: FormType = {
  label: 'Radial gauge',
  sections: ['channels', 'range', 'arcSegments', 'units'],
  maxChannels: 1,
};
const control: FormType = { label: 'Up/down control', sections: ['channels', 'range', 'increment'], maxChannels: 1 };
const chart: FormType = { label: 'Chart', sections: ['channels', 'yAxis'], maxChannels: 8 };
const text: FormType = { label: 'Custom text', sections: ['text', 'colours'], maxChannels: 0 };

function formWith(type: FormType, draft = newWidgetDraft('radial', type)) {
  return { ...formOfDraft(draft), channels: [{ deviceId: 'd1', code: 'a1', legendVisibility: true }] };
}

describe('newWidgetDraft', () => {
  it('has the defaults of §3; a chart is called Chart; a one-channel widget inherits its name', () => {
    expect(newWidgetDraft('radial', gauge)).toMatchObject({
      name: 'Radial gauge',
      doesInheritName: true,
      min: 0,
      max: 100,
      switchColors: false,
      activeColor: 'red',
      inactiveColor: 'grey',
    });
    expect(newWidgetDraft('chart', chart)).toMatchObject({ name: 'Chart', doesInheritName: false });
    expect(newWidgetDraft('customText', text)).toMatchObject({ value: '', doesInheritName: false });
  });
});

describe('validateWidgetForm', () => {
  it('accepts a complete form', () => {
    expect(hasErrors(validateWidgetForm(formWith(gauge), gauge))).toBe(false);
  });

  it('asks for a channel, and for the channel of a chosen device', () => {
    const none = { ...formWith(gauge), channels: [] };
    expect(validateWidgetForm(none, gauge).channels).toBe('Choose a channel.');
    const half = { ...formWith(gauge), channels: [{ deviceId: 'd1', code: '', legendVisibility: true }] };
    expect(validateWidgetForm(half, gauge).channelRows).toEqual(['Choose a channel of this device.']);
    const typed = { ...formWith(gauge), channels: [{ deviceId: 'd1', code: 'zz', legendVisibility: true }] };
    expect(validateWidgetForm(typed, gauge).channelRows?.[0]).toMatch(/Not a channel code/);
  });

  it('refuses more channels than the type takes and the same channel twice', () => {
    const row = { deviceId: 'd1', code: 'a1', legendVisibility: true };
    expect(validateWidgetForm({ ...formWith(gauge), channels: [row, { ...row, code: 'a2' }] }, gauge).channels).toBe(
      'This widget shows at most 1 channel.',
    );
    expect(validateWidgetForm({ ...formWith(chart), channels: [row, row] }, chart).channelRows).toEqual([
      undefined,
      'This channel is already chosen.',
    ]);
  });

  it('needs a name unless it is inherited from the channel', () => {
    const form = formWith(gauge);
    const blank = { ...form, draft: { ...form.draft, name: ' ', doesInheritName: false } };
    expect(validateWidgetForm(blank, gauge).name).toBe('Enter a name for the widget.');
    expect(
      validateWidgetForm({ ...blank, draft: { ...blank.draft, doesInheritName: true } }, gauge).name,
    ).toBeUndefined();
  });

  it('needs min < max as numbers', () => {
    expect(validateWidgetForm({ ...formWith(gauge), min: '10', max: '10' }, gauge).max).toBe(
      'The minimum must be less than the maximum.',
    );
    expect(validateWidgetForm({ ...formWith(gauge), min: 'abc' }, gauge).min).toBe('Enter a number.');
    expect(validateWidgetForm({ ...formWith(gauge), min: '-5.5', max: '0' }, gauge).max).toBeUndefined();
  });

  it('needs an increment above 0 when one is given', () => {
    expect(validateWidgetForm({ ...formWith(control), increment: '0' }, control).increment).toBe(
      'Increment must be greater than 0.',
    );
    expect(validateWidgetForm({ ...formWith(control), increment: '' }, control).increment).toBeUndefined();
    expect(validateWidgetForm({ ...formWith(control), increment: '0.5' }, control).increment).toBeUndefined();
  });

  it('needs an end value and a colour on every arc segment', () => {
    const form = {
      ...formWith(gauge),
      arcSegments: [
        { key: 1, endValue: '40', color: 'green', text: '' },
        { key: 2, endValue: '', color: 'red', text: '' },
        { key: 3, endValue: '80', color: ' ', text: '' },
      ],
    };
    expect(validateWidgetForm(form, gauge).arcSegments).toEqual([
      undefined,
      'Enter the end value.',
      'Choose a colour.',
    ]);
  });

  it('ignores sections the type does not have', () => {
    const form = { ...formOfDraft(newWidgetDraft('customText', text)), min: 'x', increment: '-1' };
    expect(hasErrors(validateWidgetForm(form, text))).toBe(false);
  });
});

describe('draftOfForm', () => {
  it('parses numbers, sorts arc segments by end value and leaves out blank optional texts', () => {
    const form = {
      ...formWith(gauge),
      min: ' -10 ',
      max: '50',
      arcSegments: [
        { key: 1, endValue: '50', color: 'red', text: 'High' },
        { key: 2, endValue: '20', color: 'green', text: ' ' },
      ],
    };
    form.draft = { ...form.draft, units: '  ' };
    const draft = draftOfForm(form, gauge);
    expect(draft).toMatchObject({
      min: -10,
      max: 50,
      arcSegments: [
        { endValue: 20, color: 'green' },
        { endValue: 50, color: 'red', text: 'High' },
      ],
      channels: [{ deviceId: 'd1', code: 'a1', legendVisibility: true }],
    });
    expect(draft).not.toHaveProperty('units');
    expect(draft.arcSegments[0]).not.toHaveProperty('text');
  });

  it('keeps an inheriting widget named by its type when no name is typed', () => {
    const form = formWith(gauge);
    form.draft = { ...form.draft, name: '', doesInheritName: true };
    expect(draftOfForm(form, gauge).name).toBe('Radial gauge');
  });

  it('round-trips a stored widget without its path and scene ids', () => {
    const stored = widget('w1', {
      increment: 0.5,
      channels: [{ deviceId: 'd1', code: 'sp1', legendVisibility: true }],
    });
    const draft = draftOfForm(formOfDraft(draftOfWidget(stored)), control);
    expect(draft).not.toHaveProperty('path');
    expect(draft).not.toHaveProperty('sceneId');
    expect(draft).toMatchObject({ id: 'w1', increment: 0.5, min: 0, max: 100 });
  });
});
