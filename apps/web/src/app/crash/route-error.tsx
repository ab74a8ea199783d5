import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { CrashScreen } from './crash-screen';
import { reportCrash } from './report-crash';

/** The router's own error element: for errors outside every CrashBoundary. */
export function RouteError() {
  const error = useRouteError();
  useEffect(() => reportCrash(error), [error]);
  return (
    <main className="fl-public-page">
      <CrashScreen error={error} />
    </main>
  );
}
