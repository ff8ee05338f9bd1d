/**
 * The console page's entry point, bundled with Preact and dagre into one HTML document at build
 * time (scripts/build-console-page.mjs): nothing is fetched from elsewhere, so it works offline.
 * Served with `<body data-mode="live">`, it is the read-only live view of `ringflow run --http`.
 */
import { render } from 'preact';
import { App } from './App.tsx';

const root = document.getElementById('app');
if (root) render(<App live={document.body.dataset.mode === 'live'} />, root);
