import { useMutation } from '@tanstack/react-query';
import type { JwtAnswer, SigninBody } from '@fieldlink/api/session';
import { apiPost } from '../../../lib/api-client';

export const postSignin = (body: SigninBody) => apiPost<JwtAnswer>('/signin', body);

export const useSigninMutation = () => useMutation({ mutationFn: postSignin });
