import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { INVALID_REQUEST_MESSAGE } from '@fieldlink/api/errors';
import { apiHeaders, buildUrl } from './api-address';
import { ApiError, apiRequest, serverErrorMessage } from './api-client';

describe('api client', () => {
  beforeEach(() => {
    vi.stubGlobal('localStorage', {
      getItem: (key: string) => (key === 'fieldlinkToken' ? 'jwt-1' : null),
      setItem: () => {},
      removeItem: () => {},
    });
    vi.stubGlobal('location', { hostname: 'bp.fieldlink.io' });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('sends the headers every call carries', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ ok: true }), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    await apiRequest('GET', '/self');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/v1/self');
    expect(init.headers).toMatchObject({
      authorization: 'jwt-1',
      'x-client-type': 'WEB',
      'x-client-version': '0.17.8',
      'x-subdomain': 'bp',
    });
  });

  // Issue 35: a schema's refusal names fields by their paths; a person reads the console's words.
  it('never hands a person the schema path of a refused request', async () => {
    const refusal = {
      statusCode: 400,
      error: 'Bad Request',
      message: 'body/props/devices/0/codes must NOT have fewer than 1 items',
      invalidRequest: true,
    };
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify(refusal), { status: 400 }));
    const call = apiRequest('PUT', '/report/meta', { body: {} });
    await expect(call).rejects.toMatchObject({ status: 400, serverMessage: INVALID_REQUEST_MESSAGE, body: refusal });
    await expect(call.catch((error: unknown) => serverErrorMessage(error))).resolves.not.toMatch(/body\//);
  });

  it.each([
    [200, true],
    [204, true],
    [299, true],
    [300, false],
    [401, false],
    [500, false],
  ])('status %i succeeds: %s', async (status, ok) => {
    vi.stubGlobal('fetch', async () => new Response(status === 204 ? null : '{"message":"Nope"}', { status }));
    const call = apiRequest('POST', '/signin', { body: {} });
    if (ok) await expect(call).resolves.not.toThrow();
    else await expect(call).rejects.toMatchObject({ status, serverMessage: 'Nope' });
  });

  it('turns a network failure into status 0', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(apiRequest('GET', '/self')).rejects.toMatchObject({ status: 0, serverMessage: null });
  });

  it('uses the server message, else "Server error"', () => {
    expect(serverErrorMessage(new ApiError(500, 'Database unavailable', null))).toBe('Database unavailable');
    expect(serverErrorMessage(new ApiError(502, null, '<html>'))).toBe('Server error');
    expect(serverErrorMessage(new Error('x'))).toBe('Server error');
  });

  it('builds query strings and leaves out undefined values', () => {
    expect(buildUrl('/device/channels/latest-values', { ids: 'a,b', skip: undefined })).toBe(
      '/api/v1/device/channels/latest-values?ids=a%2Cb',
    );
    expect(apiHeaders(null, '')).not.toHaveProperty('authorization');
  });
});
