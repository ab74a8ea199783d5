import { useMutation } from '@tanstack/react-query';
import type { JwtAnswer, SignupBody } from '@fieldlink/api/session';
import { apiPost } from '../../../lib/api-client';

export const postSignup = (body: SignupBody) => apiPost<JwtAnswer>('/user', body);

export const useSignupMutation = () => useMutation({ mutationFn: postSignup });
