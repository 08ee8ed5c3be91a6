import { contextBridge, ipcRenderer } from 'electron';
import type { DesktopApi } from '../shared/desktop-api';

const api = {
  isDesktop: true,
  version: ipcRenderer.sendSync('scandesk:version') as string,
} satisfies DesktopApi;

contextBridge.exposeInMainWorld('desktop', api);
