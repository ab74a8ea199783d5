import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DEVICES_IMPORT_PATH, type DeviceImportAnswer, type DeviceImportBody } from '@fieldlink/api/device';
import { apiPost } from '../../../lib/api-client';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';

export const importDevices = (body: DeviceImportBody) => apiPost<DeviceImportAnswer>(DEVICES_IMPORT_PATH, body);

/** `POST /devices/import`, a preview (`dryRun`) or the import; an import refreshes the tree and the table. */
export function useImportDevices() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: OWN_FAILURE_REPORT,
    mutationFn: importDevices,
    onSuccess: (answer) =>
      answer.imported
        ? Promise.all([
            queryClient.invalidateQueries({ queryKey: ['account'] }),
            queryClient.invalidateQueries({ queryKey: ['device-table'] }),
          ])
        : undefined,
  });
}
