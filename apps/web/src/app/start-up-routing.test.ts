import { describe, expect, it } from 'vitest';
import { decideStartup, isPublicPath } from './start-up-routing';

const at = (url: string) => {
  const parsed = new URL(url, 'https://app.fieldlink.test');
  return { pathname: parsed.pathname, search: parsed.search, hash: parsed.hash };
};

describe('decideStartup with a stored token', () => {
  it.each([
    { url: '/', redirectTo: '/loading', rememberedPath: null },
    { url: '/loading', redirectTo: '/loading', rememberedPath: null },
    { url: '/dash/PUMP_001', redirectTo: '/loading', rememberedPath: '/dash/PUMP_001' },
    { url: '/dash/acc1/grp1/scene1', redirectTo: '/loading', rememberedPath: '/dash/acc1/grp1/scene1' },
    { url: '/accounts/treeview?q=north#top', redirectTo: '/loading', rememberedPath: '/accounts/treeview?q=north#top' },
    { url: '/reports', redirectTo: '/loading', rememberedPath: '/reports' },
    { url: '/inv/cig/overview', redirectTo: '/loading', rememberedPath: '/inv/cig/overview' },
    { url: '/demo', redirectTo: '/loading', rememberedPath: '/demo' },
    { url: '/signin', redirectTo: '/loading', rememberedPath: '/signin' },
    { url: '/forgot-password', redirectTo: '/loading', rememberedPath: '/forgot-password' },
    { url: '/passwordChangedSuccessfully', redirectTo: '/loading', rememberedPath: '/passwordChangedSuccessfully' },
    { url: '/signedUpSuccessfully', redirectTo: '/loading', rememberedPath: '/signedUpSuccessfully' },
    { url: '/dashAccessDeny', redirectTo: '/loading', rememberedPath: '/dashAccessDeny' },
    { url: '/signout', redirectTo: '/loading', rememberedPath: '/signout' },
    { url: '/empty', redirectTo: '/loading', rememberedPath: '/empty' },
    { url: '/iconpreview', redirectTo: '/loading', rememberedPath: '/iconpreview' },
    { url: '/no-such-page?x=1', redirectTo: '/loading', rememberedPath: '/no-such-page?x=1' },
    { url: '/privacy', redirectTo: null, rememberedPath: null },
    { url: '/videos/getting-started', redirectTo: null, rememberedPath: null },
    { url: '/videos', redirectTo: null, rememberedPath: null },
    { url: '/signup?code=abc&email=a%40b.c', redirectTo: null, rememberedPath: null },
    { url: '/reset-password?email=a%40b.c&code=x', redirectTo: null, rememberedPath: null },
  ])('$url -> $redirectTo (remember $rememberedPath)', ({ url, redirectTo, rememberedPath }) => {
    expect(decideStartup(at(url), true)).toEqual({ redirectTo, rememberedPath, signedOut: false });
  });
});

describe('decideStartup without a token', () => {
  it.each([
    { url: '/', redirectTo: null },
    { url: '/loading', redirectTo: '/' },
    { url: '/signin', redirectTo: null },
    { url: '/signout', redirectTo: null },
    { url: '/forgot-password', redirectTo: null },
    { url: '/passwordChangedSuccessfully', redirectTo: null },
    { url: '/signedUpSuccessfully', redirectTo: null },
    { url: '/dashAccessDeny', redirectTo: null },
    { url: '/demo', redirectTo: null },
    { url: '/empty', redirectTo: null },
    { url: '/iconpreview', redirectTo: null },
    { url: '/signup?code=abc&email=a%40b.c', redirectTo: null },
    { url: '/reset-password?email=a%40b.c&code=x', redirectTo: null },
    { url: '/privacy', redirectTo: null },
    { url: '/videos/intro', redirectTo: null },
    { url: '/videos', redirectTo: null },
    { url: '/dash/PUMP_001', redirectTo: '/' },
    { url: '/dash', redirectTo: '/' },
    { url: '/accounts/list', redirectTo: '/' },
    { url: '/brew/summary/g1', redirectTo: '/' },
    { url: '/coming-soon', redirectTo: '/' },
    { url: '/no-such-page', redirectTo: '/' },
    { url: '/reports?tab=2', redirectTo: '/' },
    { url: '/alarms', redirectTo: '/' },
  ])('$url -> $redirectTo, signed out', ({ url, redirectTo }) => {
    expect(decideStartup(at(url), false)).toEqual({ redirectTo, rememberedPath: null, signedOut: true });
  });
});

describe('isPublicPath', () => {
  it.each([
    ['/signin', true],
    ['/signin/', true],
    ['/videos/a/b', true],
    ['/videos', true],
    ['/videosx', false],
    ['/iconpreview', true],
    ['/alarms', false],
    ['/bp-no-data', false],
  ])('%s -> %s', (path, expected) => {
    expect(isPublicPath(path)).toBe(expected);
  });
});
