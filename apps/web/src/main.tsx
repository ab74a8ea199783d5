import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { startUp } from './app/start-up';
import { registerServiceWorker } from './app/service-worker-registration';
import { queryClient } from './lib/query-client';
import './components/ui/base.css';
import './components/ui/ui.css';

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
