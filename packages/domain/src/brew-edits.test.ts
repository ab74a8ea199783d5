import { describe, expect, it } from 'vitest';
import type { Transition } from './brew';
import {
  annotationEdit,
  calibratedTank,
  chartAnnotation,
  endedBatch,
  gravityReading,
  resumedBatch,
  tastingNote,
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

describe('the batch edits as stored', () => {
  const newId = () => 'new-1';
  const course = (end: number | null) => ({
    end,
    transitions: [
      { state: 'FERMENTING' as const, timestamp: 1 },
      ...(end === null ? [] : [{ state: 'MANUALLY_ENDED' as const, timestamp: end }]),
    ],
  });

  it.each([
    [
      'a running batch ends now',
      null,
      {
        state: 'MANUALLY_ENDED',
        end: now,
        transitions: [...course(null).transitions, { state: 'MANUALLY_ENDED', timestamp: now }],
      },
    ],
    ['an ended batch ends once', 5, { status: 409, message: 'The batch has already ended.' }],
  ])('%s', (_name, end, expected) => {
    expect(endedBatch(course(end), now)).toEqual(expected);
  });

  it.each([
    [
      'an ended batch runs again in its state before',
      5,
      false,
      {
        state: 'FERMENTING',
        end: null,
        transitions: [...course(5).transitions, { state: 'FERMENTING', timestamp: now }],
      },
    ],
    ['not while its tank runs another', 5, true, { status: 409, message: 'The tank has another batch running.' }],
    ['not a batch still running', null, false, { status: 409, message: 'The batch has not ended.' }],
  ])('takes back an end: %s', (_name, end, otherRuns, expected) => {
    expect(resumedBatch(course(end), otherRuns, now)).toEqual(expected);
  });

  it.each([
    ['a new reading now', {}, false, { id: 'new-1', value: 1.05, timestamp: now }],
    [
      'a reading replaced at its time',
      { id: 'g-1', timestamp: now - 10 },
      true,
      { id: 'g-1', value: 1.05, timestamp: now - 10 },
    ],
    [
      'no reading named that the batch lacks',
      { id: 'g-9' },
      false,
      { status: 404, message: 'Gravity reading not found.' },
    ],
    ['no reading before the batch', { timestamp: 50 }, false, { status: 400 }],
    ['no reading ahead of now', { timestamp: now + 3_600_000 }, false, { status: 400 }],
  ])('%s', (_name, given, exists, expected) => {
    const answer = gravityReading({ value: 1.05, ...given }, exists, 100, now, newId);
    expect(answer).toMatchObject(expected);
  });

  const ratings = { aroma: 4, flavor: 3, mouthfeel: 3, appearance: 3, overall: 2, carbonation: 5 };
  it.each([
    [
      'a new note now, marked in blue with its score',
      { notes: '  Malty \nsecond line ' },
      false,
      {
        sensory: { id: 'new-1', ratings, notes: 'Malty \nsecond line', timestamp: now },
        mark: {
          kind: 'plotLine',
          text: 'Tasting 3.0/5: Malty ',
          timestamp: now,
          color: '#2f6fde',
          channelCode: null,
          sensoryId: 'new-1',
        },
      },
    ],
    [
      'a note replaced',
      { id: 's-1', timestamp: now - 5 },
      true,
      { sensory: { id: 's-1', timestamp: now - 5 }, mark: { sensoryId: 's-1' } },
    ],
    ['no note named that the batch lacks', { id: 's-9' }, false, { status: 404, message: 'Tasting note not found.' }],
    [
      'no note ahead of now',
      { timestamp: now + 3_600_000 },
      false,
      { status: 400, message: 'The time lies in the future.' },
    ],
  ])('%s', (_name, given, exists, expected) => {
    expect(tastingNote({ ...ratings, ...given }, exists, now, newId)).toMatchObject(expected);
  });

  it.each([
    [
      'a new plot line in grey',
      {},
      undefined,
      {
        id: 'new-1',
        kind: 'plotLine',
        text: 'Dry hop',
        timestamp: now,
        color: '#8a8f98',
        channelCode: null,
        sensoryId: null,
      },
    ],
    [
      'a channel annotation kept under its id',
      { id: 'a-1', code: 'a1' },
      { id: 'a-1', sensoryId: null },
      { id: 'a-1', kind: 'channel', channelCode: 'a1' },
    ],
    [
      'no annotation named that the batch lacks',
      { id: 'a-9' },
      undefined,
      { status: 404, message: 'Annotation not found.' },
    ],
    ['no edit of a tasting note mark', { id: 'a-1' }, { id: 'a-1', sensoryId: 's-1' }, TASTING_MARK_EDIT],
    ['no annotation ahead of now', { timestamp: now + 3_600_000 }, undefined, { status: 400 }],
  ])('%s', (_name, given, current, expected) => {
    expect(chartAnnotation({ text: ' Dry hop ', ...given }, current, now, newId)).toMatchObject(expected);
  });

  const level = { scale: 2, offset: 1 };
  it.each([
    [
      'a tank never set takes what is given',
      null,
      { capacity: 3000 },
      { capacity: 3000, co2TotalGain: 1, tankLevel: null },
    ],
    [
      'the gain alone',
      { capacity: 3000, co2TotalGain: 1, tankLevel: level },
      { co2TotalGain: 1.2 },
      { capacity: 3000, co2TotalGain: 1.2, tankLevel: level },
    ],
    [
      'the level calibration removed',
      { capacity: 3000, co2TotalGain: 1, tankLevel: level },
      { tankLevel: null },
      { capacity: 3000, co2TotalGain: 1, tankLevel: null },
    ],
    [
      'the capacity removed',
      { capacity: 3000, co2TotalGain: 1, tankLevel: level },
      { capacity: null },
      { capacity: null, co2TotalGain: 1, tankLevel: level },
    ],
  ])('calibrates: %s', (_name, kept, calibration, expected) => {
    expect(calibratedTank(kept, calibration)).toEqual(expected);
  });
});
