import { describe, expect, it } from 'vitest';
import type { Transition } from './brew';
import {
  annotationEdit,
  endBatchRefusal,
  itemDeleteRefusal,
  markTime,
  resumedState,
  startBatchRefusal,
  type BatchItemList,
} from './brew-edits';

const now = 1_700_000_000_000;
const TASTING_MARK_EDIT = { status: 400, message: 'This annotation marks a tasting note: edit the note instead.' };
const TASTING_MARK_DELETE = { status: 400, message: 'This annotation marks a tasting note: delete the note instead.' };

describe('the batch edit rules', () => {
  it.each([
    [3, true, { status: 409, message: 'Tank 3 already has a batch running. End it first.' }],
    [3, false, null],
  ])('starts a batch on tank %i (running one: %s): %j', (tankNumber, running, expected) => {
    expect(startBatchRefusal(tankNumber, running)).toEqual(expected);
  });

  it.each([
    [true, { status: 409, message: 'The batch has already ended.' }],
    [false, null],
  ])('ends a batch (ended already: %s): %j', (ended, expected) => {
    expect(endBatchRefusal(ended)).toEqual(expected);
  });

  it.each<[string, Transition[], string]>([
    [
      'the state before the end',
      [
        { state: 'FILLING', timestamp: 1 },
        { state: 'MANUALLY_ENDED', timestamp: 2 },
      ],
      'FILLING',
    ],
    [
      'the last state before the end',
      [
        { state: 'FERMENTING', timestamp: 1 },
        { state: 'PRESSURIZED', timestamp: 2 },
        { state: 'MANUALLY_ENDED', timestamp: 3 },
      ],
      'PRESSURIZED',
    ],
    ['FERMENTING without a state before', [{ state: 'MANUALLY_ENDED', timestamp: 2 }], 'FERMENTING'],
    ['FERMENTING without transitions', [], 'FERMENTING'],
  ])('takes an end back to %s', (_name, transitions, expected) => {
    expect(resumedState(transitions)).toBe(expected);
  });

  it.each([
    ['now when none is given', undefined, { t: now }],
    ['the time given', now - 60_000, { t: now - 60_000 }],
    ['a time up to 900 s ahead', now + 900_000, { t: now + 900_000 }],
    ['no time further ahead', now + 900_001, { status: 400, message: 'The time lies in the future.' }],
  ])('takes as a mark time %s', (_name, given, expected) => {
    expect(markTime(given, now)).toEqual(expected);
  });

  it.each([
    ['a plot line without kind or code', {}, null, { kind: 'plotLine', channelCode: null }],
    ['a channel annotation from its code', { code: 'a1' }, null, { kind: 'channel', channelCode: 'a1' }],
    [
      'a plot line named so, code ignored',
      { kind: 'plotLine' as const, code: 'a1' },
      null,
      { kind: 'plotLine', channelCode: null },
    ],
    [
      'no channel annotation without a code',
      { kind: 'channel' as const },
      null,
      { status: 400, message: 'A channel annotation needs a channel code.' },
    ],
    ['an edit of an annotation', { code: 'a2' }, { sensoryId: null }, { kind: 'channel', channelCode: 'a2' }],
    ['no edit of a tasting note mark', {}, { sensoryId: 'sensory-1' }, TASTING_MARK_EDIT],
  ])('answers %s', (_name, body, current, expected) => {
    expect(annotationEdit(body, current)).toEqual(expected);
  });

  it.each<[BatchItemList, { sensoryId?: string | null } | null, object | null]>([
    ['annotations', { sensoryId: 'sensory-1' }, TASTING_MARK_DELETE],
    ['annotations', { sensoryId: null }, null],
    ['annotations', null, null],
    ['sensories', { sensoryId: 'sensory-1' }, null],
    ['gravities', {}, null],
  ])('deletes from %s the item %j: %j', (list, item, expected) => {
    expect(itemDeleteRefusal(list, item)).toEqual(expected);
  });
});
