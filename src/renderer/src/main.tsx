// First: starts the page's chunk, then its requests, while the rest of the entry is evaluated.
import './app/start-page-chunk';
import './app/start-page-requests';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
