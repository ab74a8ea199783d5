import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { ArcSegment } from './scenes';

/** SECURITY.md 19: a widget colour is a colour, never something a viewer's browser would fetch. */
describe('widget colours', () => {
  it.each(['red', 'Grey', '#8a8f98', '#fff', '', ' ', 'rgb(1, 2, 3)', 'rgba(1,2,3,0.5)', 'hsl(120 50% 50%)'])(
    'accepts %j',
    (color) => expect(Value.Check(ArcSegment, { endValue: 1, color })).toBe(true),
  );

  it.each(['url(https://evil.example/x.png)', 'var(--fl-primary)', 'red;background:url(x)', 'expression(alert(1))'])(
    'refuses %j',
    (color) => expect(Value.Check(ArcSegment, { endValue: 1, color })).toBe(false),
  );
});
