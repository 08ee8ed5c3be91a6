import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { precompress } from './src/main/server/viewer/precompress.vite-plugin';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // better-sqlite3 is a native addon: it stays outside the bundle and is loaded at run time.
      externalizeDeps: true,
      rollupOptions: { input: { index: resolve(import.meta.dirname, 'src/main/desktop/main.ts') } },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // One CommonJS file: sandboxed preloads cannot load ES modules or other files.
      rollupOptions: {
        input: { index: resolve(import.meta.dirname, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs', codeSplitting: false },
      },
    },
  },
  renderer: {
    root: resolve(import.meta.dirname, 'src/renderer'),
    plugins: [
      react(),
      // Absolute asset URLs: the server answers deep links such as /scans/scan_… with index.html,
      // whose scripts must not then resolve under /scans/. electron-vite forces './' (for file://
      // loading, which we never do: the window loads the served UI), so override it after it.
      { name: 'scandesk-absolute-base', config: () => ({ base: '/' }) },
      precompress(),
    ],
    build: {
      outDir: resolve(import.meta.dirname, 'out/renderer'),
      minify: true,
      rollupOptions: { input: { index: resolve(import.meta.dirname, 'src/renderer/index.html') } },
    },
  },
});
