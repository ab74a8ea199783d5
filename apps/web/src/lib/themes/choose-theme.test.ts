import { describe, expect, it } from 'vitest';
import { chooseTheme, themeNamed } from './choose-theme';
import { PALETTES, THEME_NAMES } from './palettes';

describe('chooseTheme', () => {
  it.each([
    { pathname: '/videos/intro', subdomain: 'bp', storedTheme: 'DARK', expected: 'GREY' },
    { pathname: '/videos/', subdomain: '', storedTheme: null, expected: 'GREY' },
    { pathname: '/videos', subdomain: '', storedTheme: null, expected: 'DEFAULT' },
    { pathname: '/dash', subdomain: 'bp', storedTheme: 'DARK', expected: 'bp' },
    { pathname: '/dash', subdomain: 'app', storedTheme: 'DARK', expected: 'DARK' },
    { pathname: '/dash', subdomain: 'localhost', storedTheme: 'dark', expected: 'DARK' },
    { pathname: '/dash', subdomain: 'Filtec', storedTheme: null, expected: 'filtec' },
    { pathname: '/signin', subdomain: 'app', storedTheme: 'nonsense', expected: 'DEFAULT' },
    { pathname: '/signin', subdomain: 'app', storedTheme: null, defaultTheme: 'realtech', expected: 'realtech' },
    { pathname: '/signin', subdomain: 'app', storedTheme: 'GREY', defaultTheme: 'realtech', expected: 'GREY' },
    { pathname: '/signin', subdomain: 'app', storedTheme: null, defaultTheme: 'unknown', expected: 'DEFAULT' },
  ])('$pathname on $subdomain with stored $storedTheme -> $expected', ({ expected, ...inputs }) => {
    expect(chooseTheme(inputs)).toBe(expected);
  });

  it('names only known themes', () => {
    expect(themeNamed('REDDYICE')).toBe('reddyice');
    expect(themeNamed('')).toBeNull();
    expect(themeNamed('www')).toBeNull();
  });

  it('gives every theme a complete palette', () => {
    for (const name of THEME_NAMES) {
      const palette = PALETTES[name];
      for (const value of Object.values(palette)) expect(value).not.toBe('');
    }
    expect(THEME_NAMES).toHaveLength(15);
  });
});
