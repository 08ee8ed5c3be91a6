// The one door from the desktop shell (src/main/desktop/) into the core: open a workspace, serve
// it, sign its owner in, import files into it. Lint keeps desktop/ from reaching further, so the
// core can be reorganised without the shell noticing, and the shell stays thin.

export { describeOutcomes, importEvidenceFiles } from './evidence/import/file-import';
export { DEFAULT_HOST, DEFAULT_PORT } from './server/default-address';
export { startServer, type RunningServer } from './server/listen';
export { startDesktopSession, type DesktopSession } from './server/auth/owner-session';
export { VERSION } from './version';
export { removeServerInfo, writeServerInfo } from './workspace/server-file';
export { openWorkspace, type Workspace } from './workspace/workspace';
