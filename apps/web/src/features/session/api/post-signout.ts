import { apiPost } from '../../../lib/api-client';

/** Revokes the token on the server. */
export const postSignout = () => apiPost<unknown>('/signout');
