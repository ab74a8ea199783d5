import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { firstPageReady, registerServiceWorker, startUp } from './app/start-up';
import './components/ui/base.css';
import './components/ui/ui.css';

startUp();
registerServiceWorker();

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');
void firstPageReady().then(() =>
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
