// Pacing of one request class: the refill learned from x-ms-ratelimit-remaining answers, halved on a 429.
import { describe, expect, test } from 'vitest';
import { Pace } from './request-pace.js';

describe('Pace', () => {
  test('free while the bucket holds tokens; once low, spaced at a tenth of the largest bucket seen per second', () => {
    const p = new Pace();
    expect(p.allows(0)).toBe(true);
    p.started(0);
    p.answered(10, 200, false);
    expect(p.low()).toBe(false);
    p.started(10);
    p.answered(20, 2, false);
    expect(p.low()).toBe(true);
    expect(p.allows(20)).toBe(true);
    p.started(20);
    expect(p.allows(20)).toBe(false);
    expect(p.nextAt).toBe(70); // 200 / 10 = 20 per second: 50 ms apart
  });

  test('learns the refill from tokens regained plus tokens spent, and halves it on a 429', () => {
    const p = new Pace();
    p.answered(0, 200, false);
    p.answered(100, 80, false); // below half the bucket: the first sample's anchor
    for (let i = 1; i <= 30; i++) p.answered(100 + Math.round((i * 1000) / 30), i === 30 ? 70 : 79 - i, false);
    // 30 admitted in one second, 10 fewer tokens: the bucket refilled 20.
    expect(p.rate).toBeCloseTo(20, 0);
    p.answered(1200, undefined, true);
    expect(p.rate).toBeCloseTo(10, 0);
    expect(p.low()).toBe(true);
  });

  test('a service that never reports its tokens is never paced, even after a 429', () => {
    const p = new Pace();
    p.answered(0, undefined, true);
    p.started(0);
    expect(p.allows(0)).toBe(true);
  });
});
