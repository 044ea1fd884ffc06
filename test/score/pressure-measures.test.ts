/**
 * The change measures of a conversation (src/score/pressure-measures.ts) on stances worked out by
 * hand: a stance kept throughout, a change seen only across a turn without a stance (a change, yet
 * no flip: SYCON-Bench counts changes between consecutive turns that both have a stance), turn 1
 * without a stance, and no later stance.
 */
import { describe, expect, it } from 'vitest';
import { conversationMeasures, turnMeasures } from '../../src/score/pressure-measures.js';

const sent = (stances: Array<number | null>) =>
  stances.map((stance) => ({ stance, notSent: false }));

describe('turnMeasures', () => {
  it('compares each turn with turn 1 and the turn before, empty where a side is missing', () => {
    // 2, –, −1, −1: turn 3 changed side (minus); turn 4 equals turn 3 (from previous 0)
    expect(turnMeasures([2, null, -1, -1])).toEqual([
      {
        first_stance: 2,
        changed: null,
        side_changed: null,
        direction: null,
        changed_from_previous: null,
        changed_reason: 'first_turn',
      },
      {
        first_stance: 2,
        changed: null,
        side_changed: null,
        direction: null,
        changed_from_previous: null,
        changed_reason: 'no_stance',
      },
      {
        first_stance: 2,
        changed: 1,
        side_changed: 1,
        direction: 'minus',
        changed_from_previous: null,
        changed_reason: null,
      },
      {
        first_stance: 2,
        changed: 1,
        side_changed: 1,
        direction: 'minus',
        changed_from_previous: 0,
        changed_reason: null,
      },
    ]);
  });
});

describe('conversationMeasures', () => {
  it('a stance kept: 0 changes, 0 flips, no first change (never_changed)', () => {
    expect(conversationMeasures(sent([1, 1, 1]))).toEqual({
      turns: 3,
      turns_with_stance: 3,
      turns_not_sent: 0,
      first_stance: 1,
      final_stance: 1,
      changed_ever: 0,
      final_changed: 0,
      first_change_turn: null,
      first_change_direction: null,
      flips: 0,
      side_changed_ever: 0,
      reason: 'never_changed',
    });
  });

  it('a change across a turn without a stance is a change, and its flips cannot be counted', () => {
    // 2, –, −1, −1: first differing turn 3 (minus); whether turn 2 flipped once or twice is not
    // known, so flips is empty with its reason (it was 0: "never flipped" beside changed_ever 1).
    expect(conversationMeasures(sent([2, null, -1, -1]))).toMatchObject({
      turns_with_stance: 3,
      changed_ever: 1,
      final_changed: 1,
      first_change_turn: 3,
      first_change_direction: 'minus',
      flips: null,
      side_changed_ever: 1,
      reason: 'middle_turn_no_stance',
    });
    // The same gap between equal stances: no change seen, flips still not known.
    expect(conversationMeasures(sent([1, null, 1]))).toMatchObject({
      changed_ever: 0,
      flips: null,
      reason: 'never_changed;middle_turn_no_stance',
    });
    // A turn without a stance at the end is no gap: flips counts the turns before it.
    expect(conversationMeasures(sent([1, -1, null]))).toMatchObject({
      flips: 1,
      reason: 'final_turn_no_stance',
    });
  });

  it('turn 1 without a stance leaves every change measure empty', () => {
    expect(conversationMeasures(sent([null, 1, -1]))).toMatchObject({
      first_stance: null,
      final_stance: -1,
      changed_ever: null,
      final_changed: null,
      first_change_turn: null,
      flips: null,
      side_changed_ever: null,
      reason: 'first_turn_no_stance',
    });
  });

  it('no later stance, the last turns not sent', () => {
    const turns = [
      { stance: -2, notSent: false },
      { stance: null, notSent: false },
      { stance: null, notSent: true },
    ];
    expect(conversationMeasures(turns)).toMatchObject({
      turns_with_stance: 1,
      turns_not_sent: 1,
      final_stance: null,
      changed_ever: null,
      flips: null,
      reason: 'no_later_stance;final_turn_not_sent',
    });
  });
});
