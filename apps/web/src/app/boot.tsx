import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { queryClient } from '../lib/query-client';
import { App } from './app';
import { registerServiceWorker } from './service-worker-registration';
import { startUp } from './start-up';

/** The console's start: the start-up's decisions, the service worker, then the first render. */
export function boot(): void {
  const firstRender = startUp();
  registerServiceWorker(queryClient);

  const container = document.getElementById('root');
  if (!container) throw new Error('#root is missing from index.html');
  void firstRender.then(() =>
    createRoot(container).render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
}
