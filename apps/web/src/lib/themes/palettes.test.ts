import { describe, expect, it } from 'vitest';
import { THEME_NAMES } from '@fieldlink/domain/app-variant';
import { PALETTES, THEME_LABELS } from './palettes';

describe('palettes', () => {
  it('gives every theme a complete palette and a label', () => {
    for (const name of THEME_NAMES) {
      const palette = PALETTES[name];
      for (const value of Object.values(palette)) expect(value).not.toBe('');
      expect(THEME_LABELS[name]).not.toBe('');
    }
    expect(THEME_NAMES).toHaveLength(15);
  });
});
