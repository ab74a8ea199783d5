import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  BREW_PATHS,
  type Batch,
  type BatchIdBody,
  type BatchItemBody,
  type PutAnnotationBody,
  type PutBatchBody,
  type PutGravityBody,
  type PutSensoryBody,
  type StartBatchBody,
  type Tank,
  type TankCalibrationBody,
} from '@fieldlink/api/brew';
import { apiRequest } from '../../../lib/api-client';
import { showToast } from '../../../lib/app-store/app-store';
import { serverErrorMessage } from '../../../lib/api-client';
import { LIVE_QUERY_ROOT } from '../../../lib/query-client';
import { BREW_KEY } from '../../../lib/api/get-brew-overview';

/** Every brewing call that changes something, by name: method, path and answer. */
const CALLS = {
  start: (body: StartBatchBody) => apiRequest<Batch>('POST', BREW_PATHS.batch, { body }),
  update: (body: PutBatchBody) => apiRequest<Batch>('PUT', BREW_PATHS.batch, { body }),
  remove: (body: BatchIdBody) => apiRequest<{ id: string }>('DELETE', BREW_PATHS.batch, { body }),
  end: (body: BatchIdBody) => apiRequest<Batch>('POST', BREW_PATHS.end, { body }),
  resume: (body: BatchIdBody) => apiRequest<Batch>('DELETE', BREW_PATHS.end, { body }),
  putGravity: (body: PutGravityBody) => apiRequest<Batch>('PUT', BREW_PATHS.gravity, { body }),
  deleteGravity: (body: BatchItemBody) => apiRequest<Batch>('DELETE', BREW_PATHS.gravity, { body }),
  putSensory: (body: PutSensoryBody) => apiRequest<Batch>('PUT', BREW_PATHS.sensory, { body }),
  deleteSensory: (body: BatchItemBody) => apiRequest<Batch>('DELETE', BREW_PATHS.sensory, { body }),
  putAnnotation: (body: PutAnnotationBody) => apiRequest<Batch>('PUT', BREW_PATHS.annotation, { body }),
  deleteAnnotation: (body: BatchItemBody) => apiRequest<Batch>('DELETE', BREW_PATHS.annotation, { body }),
  calibrate: (body: TankCalibrationBody) => apiRequest<Tank>('PUT', BREW_PATHS.calibration, { body }),
} as const;

type Calls = typeof CALLS;

/**
 * A brewing call as a mutation: on success every brew query (summary, batches, reports) is read
 * again; a failure is shown as a toast with the server's message (§8 generic handler).
 */
export function useBrewCall<K extends keyof Calls>(name: K, onDone?: (answer: Awaited<ReturnType<Calls[K]>>) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Parameters<Calls[K]>[0]) =>
      (CALLS[name] as (input: typeof body) => ReturnType<Calls[K]>)(body) as Promise<Awaited<ReturnType<Calls[K]>>>,
    onSuccess: async (answer) => {
      await queryClient.invalidateQueries({ queryKey: [LIVE_QUERY_ROOT, ...BREW_KEY] });
      await queryClient.invalidateQueries({ queryKey: BREW_KEY });
      onDone?.(answer);
    },
    onError: (error) => showToast('error', serverErrorMessage(error)),
  });
}
